import { createHash, type Hash } from 'node:crypto';
import { type Readable, Transform } from 'node:stream';

/** Bytes `start` to `end` of a file, both inclusive, as HTTP's Range counts them. */
export type ByteRange = { start: number; end: number };

/** What the catalogue records about a stored file. */
export type StoredFile = { key: string; size: number; sha256: string };

/**
 * Where downloadable files live: a local directory by default, or an S3-compatible bucket (STORAGE_URL), which is
 * what lets app instances scale out. The shop does not notice which.
 */
export type FileStorage = {
  /** Stores the bytes under `key`, replacing any earlier file, and reports their size and SHA-256. */
  put(key: string, data: Uint8Array): Promise<StoredFile>;
  /**
   * Stores a stream under `key` without holding it in memory, hashing as it goes; more than `maxBytes` stops it
   * with a FileTooLargeError and leaves nothing behind.
   */
  putStream(key: string, data: Readable, maxBytes: number): Promise<StoredFile>;
  /**
   * A stream of the file (or of the bytes `range` names, both ends inclusive) with the whole file's size, or null
   * when there is no such file.
   */
  open(key: string, range?: ByteRange): Promise<{ size: number; stream: Readable } | null>;
  read(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
};

declare module '../kernel/context' {
  interface AppContext {
    storage: FileStorage;
  }
}

/** Keys are relative, slash-separated and plain: nothing can climb out of the storage root. */
const KEY_PATTERN = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

export function assertValidKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.length > 300 || key.split('/').some((part) => part === '..')) {
    throw new Error(`invalid storage key: ${key}`);
  }
}

export const sha256Hex = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes.`);
    this.name = 'FileTooLargeError';
  }
}

/**
 * A pass-through that counts and hashes what flows to storage, failing with FileTooLargeError past `maxBytes`;
 * `result()` is the size and SHA-256 once the stream has ended. Both storages put streams through it.
 */
export function measuringStream(maxBytes: number): {
  through: Transform;
  result: () => { size: number; sha256: string };
} {
  const hash: Hash = createHash('sha256');
  let size = 0;
  const through = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new FileTooLargeError(maxBytes));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { through, result: () => ({ size, sha256: hash.digest('hex') }) };
}
