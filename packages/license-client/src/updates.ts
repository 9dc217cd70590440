import { createHash, createPublicKey, verify } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** A key that signs release files: `GET /api/updates/public-key` (the current one and those it replaced). */
export type ReleaseKey = { kid: string; publicKey: string };

/** The file of an update, as `POST /api/licenses/update-check` describes it. */
export type UpdateArtifact = {
  url: string;
  fileName: string;
  size: number;
  sha256: string;
  signature: string;
  kid: string;
};

export type AvailableUpdate = {
  version: string;
  channel: 'stable' | 'beta';
  notesHtml: string;
  publishedAt: string;
  critical: boolean;
  artifact: UpdateArtifact;
};

/** Why a downloaded file was refused; it is deleted before this is thrown, so nothing unverified is left to run. */
export class UpdateVerificationError extends Error {
  constructor(
    readonly reason: 'download' | 'size' | 'sha256' | 'signature',
    message: string,
  ) {
    super(message);
    this.name = 'UpdateVerificationError';
  }
}

/**
 * Downloads an update's file to `destination` and keeps it only if its size, its SHA-256 and its Ed25519 signature
 * by the release key `kid` are all what the update check said. The bytes go to `<destination>.partial` first and
 * are renamed into place once verified, so a half-written or tampered file is never where the tool looks.
 */
export async function downloadVerified(
  artifact: UpdateArtifact,
  destination: string,
  releaseKeys: readonly ReleaseKey[],
  timeoutMs = 10 * 60 * 1000,
): Promise<string> {
  const partial = `${destination}.partial`;
  try {
    const response = await fetch(artifact.url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok || !response.body) {
      throw new UpdateVerificationError('download', `download failed: HTTP ${response.status}`);
    }
    const hash = createHash('sha256');
    let size = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > artifact.size)
          return done(new UpdateVerificationError('size', 'the file is larger than stated'));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), measure, createWriteStream(partial));
    if (size !== artifact.size) {
      throw new UpdateVerificationError('size', `expected ${artifact.size} bytes, received ${size}`);
    }
    if (hash.digest('hex') !== artifact.sha256.toLowerCase()) {
      throw new UpdateVerificationError('sha256', 'the SHA-256 of the file is not the one stated');
    }
    const key = releaseKeys.find((candidate) => candidate.kid === artifact.kid);
    // Ed25519 signs the whole message (no prehash), so the file is read once more to check it.
    const signed =
      key !== undefined &&
      verify(
        null,
        await readFile(partial),
        createPublicKey(key.publicKey),
        Buffer.from(artifact.signature, 'base64'),
      );
    if (!signed) {
      throw new UpdateVerificationError(
        'signature',
        `the file is not signed by the release key ${artifact.kid}`,
      );
    }
    await rename(partial, destination);
    return destination;
  } catch (error) {
    await rm(partial, { force: true });
    if (error instanceof UpdateVerificationError) throw error;
    throw new UpdateVerificationError('download', `download failed: ${(error as Error).message}`);
  }
}
