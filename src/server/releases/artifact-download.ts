import type { FastifyReply, FastifyRequest } from 'fastify';
import { fileUnavailableSchema } from '../../shared/api-schemas';
import { answerIn, fileBytes, noBody } from '../http/answers';
import { etagMatches } from '../http/conditional';
import { contentDisposition } from '../http/content-disposition';
import type { AppContext } from '../kernel/context';
import type { ByteRange } from '../storage';
import { type ArtifactRow, openArtifactStream } from './store';

/**
 * What a `Range` header asks of a file of `size` bytes: the whole file (no header, another unit, or several ranges,
 * which RFC 9110 lets a server answer with the whole), one range, or 'unsatisfiable' (416).
 */
export function requestedRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (!header?.startsWith('bytes=') || header.includes(',')) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return 'unsatisfiable';
  const [, first = '', last = ''] = match;
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * Whether a `Range` is to be honoured under `If-Range` (RFC 9110 §13.1.5): only when the validator is our strong
 * ETag exactly. A date (we send no Last-Modified), a weak tag or another tag means the file the client holds part
 * of is not this one, so it gets the whole file as 200.
 */
function rangeStillValid(ifRange: string | string[] | undefined, etag: string): boolean {
  return ifRange === undefined || (typeof ifRange === 'string' && ifRange.trim() === etag);
}

/** What `sendArtifact` answers, for the routes that send release files. */
export const artifactAnswers = {
  200: answerIn('The file', { 'application/octet-stream': fileBytes }),
  206: answerIn('The byte range the Range header asked for', { 'application/octet-stream': fileBytes }),
  304: noBody('Unchanged: If-None-Match names the file’s ETag (its SHA-256)'),
  416: noBody('The range lies outside the file (Content-Range: bytes */size)'),
  503: fileUnavailableSchema,
};

/**
 * Sends an artifact's bytes, streamed from storage and never buffered, so a 200 MB installer costs the server a
 * few chunks of memory per download. `Range` lets a broken download resume (206); the ETag is the file's SHA-256,
 * which never changes for a published release.
 */
export async function sendArtifact(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  artifact: ArtifactRow,
): Promise<FastifyReply> {
  const { size } = artifact;
  const etag = `"${artifact.sha256}"`;
  reply
    .header('accept-ranges', 'bytes')
    .header('etag', etag)
    .header('content-type', 'application/octet-stream')
    .header('content-disposition', contentDisposition(artifact.fileName))
    .header('cache-control', 'private, no-store')
    .header('x-robots-tag', 'noindex');
  if (etagMatches(request.headers['if-none-match'], etag)) {
    reply.removeHeader('content-disposition');
    return reply.status(304).send();
  }
  const ifRange = request.headers['if-range'];
  const range = rangeStillValid(ifRange, etag) ? requestedRange(request.headers.range, size) : undefined;
  if (range === 'unsatisfiable') {
    return reply.status(416).header('content-range', `bytes */${size}`).send();
  }
  const file = await openArtifactStream(ctx, artifact, range);
  if (!file) {
    request.log.error({ storageKey: artifact.storageKey }, 'release artifact missing from storage');
    const message = 'This download is temporarily unavailable. Please contact support.';
    reply.removeHeader('content-disposition');
    return reply.status(503).send({ code: 'file_unavailable', status: 'error', message, error: message });
  }
  if (!range) return reply.header('content-length', String(size)).send(file.stream);
  return reply
    .status(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
    .header('content-length', String(range.end - range.start + 1))
    .send(file.stream);
}
