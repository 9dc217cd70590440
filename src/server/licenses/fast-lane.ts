import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import proxyAddr from '@fastify/proxy-addr';
import type { AppContext } from '../context';
import { AppError } from '../http/errors';
import { jsonSecurityHeaders } from '../http/security-headers';
import { consumeLicenseLimits, LICENSE_API_BODY_LIMIT, licenseErrorBody } from './limits';
import { rememberedAnswer } from './service';

export const VALIDATE_PATH = '/api/licenses/validate';

type HttpHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** The body the fast lane read from a request it then handed on: the route parses it instead of the stream. */
const readBodies = new WeakMap<IncomingMessage, Buffer>();

/** The body the fast lane already read from this request, as a stream the route's parser can read again. */
export function replayedBody(request: IncomingMessage): Readable | undefined {
  const body = readBodies.get(request);
  return body ? Readable.from([body]) : undefined;
}

const PLAIN_JSON = /^application\/json(?:;\s*charset=utf-8)?$/i;

/**
 * The license API's fast lane (decision 027): every start of every copy of a tool sends the same validate request,
 * byte for byte, and Fastify's own work per request costs more than what such a repeat needs. This lane sits in
 * front of Fastify, on the HTTP server itself, and takes only that repeat: a `POST /api/licenses/validate` with a
 * plain JSON body of a declared size within the API's limit, while the database is reachable. It reads the body;
 * if this instance remembers a VALID answer for exactly those bytes (`rememberedAnswer`), it counts the call against
 * the same limits and sends the same answer, headers included, that the route would. Anything else — another
 * route, a first call, a changed license, a "last seen" due, a malformed body — goes to Fastify with the body it
 * read, and the route answers it as if the lane were not there.
 *
 * `app.inject` does not pass through the HTTP server, so tests that exercise this lane send real requests
 * (fast-lane.test.ts).
 */
export function createLicenseFastLane(
  ctx: AppContext,
  /** Told of an error nothing expects (it is not a refusal): the app's log. */
  onFailure: (error: unknown) => void,
): (handler: HttpHandler) => HttpHandler {
  // As a flat [name, value, …] list, which Node writes as it is.
  const headers = Object.entries({
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...jsonSecurityHeaders(ctx.config),
  }).flat();
  // As Fastify works out `request.ip` (TRUST_PROXY): the client's address as the proxies tell it, or the peer's.
  const trustEveryProxy = () => true;
  const addressOf = ctx.config.trustProxy
    ? (request: IncomingMessage) => proxyAddr(request, trustEveryProxy)
    : (request: IncomingMessage) => request.socket.remoteAddress ?? '';

  const send = (
    response: ServerResponse,
    status: number,
    text: string,
    bytes: number,
    extra: string[] = [],
  ) => {
    response.writeHead(status, [...headers, ...extra, 'content-length', String(bytes)]);
    // ASCII text (every answer so far) as Latin-1: Node then sends the headers and body in one write.
    response.end(text, bytes === text.length ? 'latin1' : 'utf8');
  };

  const takes = (request: IncomingMessage): boolean => {
    if (request.method !== 'POST' || request.url !== VALIDATE_PATH) return false;
    const declared = Number(request.headers['content-length']);
    return (
      declared > 0 &&
      declared <= LICENSE_API_BODY_LIMIT &&
      request.headers['transfer-encoding'] === undefined &&
      PLAIN_JSON.test(request.headers['content-type'] ?? '') &&
      ctx.dbHealth.available
    );
  };

  return (handler) => (request, response) => {
    if (!takes(request)) return handler(request, response);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A client that goes away mid-body: Node closes the connection; there is nothing to answer.
    request.on('error', () => {});
    request.on('end', () => {
      const body = chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks);
      const answer = rememberedAnswer(ctx, body.toString('utf8'));
      if (!answer) {
        readBodies.set(request, body);
        return handler(request, response);
      }
      try {
        consumeLicenseLimits(ctx.licenseLimiter, addressOf(request), answer.limitKey, answer.counters);
        send(response, 200, answer.text, answer.bytes);
      } catch (error) {
        if (error instanceof AppError) {
          const text = JSON.stringify(licenseErrorBody(error));
          const extra = Object.entries(error.headers ?? {}).flat();
          return send(response, error.statusCode, text, Buffer.byteLength(text), extra);
        }
        // Nothing here is expected to fail; if it does, this connection ends and the server goes on.
        onFailure(error);
        response.destroy();
      }
    });
  };
}
