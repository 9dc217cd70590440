import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** What the catalogue records about a stored file. */
export type StoredFile = { key: string; size: number; sha256: string };

/**
 * Where downloadable files live. One implementation today (a local directory); a bucket can replace it without
 * the shop noticing, which is what lets app instances scale out.
 */
export type FileStorage = {
  /** Stores the bytes under `key`, replacing any earlier file, and reports their size and SHA-256. */
  put(key: string, data: Uint8Array): Promise<StoredFile>;
  /**
   * Stores a stream under `key` without holding it in memory, hashing as it goes; more than `maxBytes` stops it
   * with a FileTooLargeError and leaves nothing behind.
   */
  putStream(key: string, data: Readable, maxBytes: number): Promise<StoredFile>;
  /** A stream of the file with its size, or null when there is no such file. */
  open(key: string): Promise<{ size: number; stream: Readable } | null>;
  read(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
};

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes.`);
    this.name = 'FileTooLargeError';
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

/** Files under `root`; writes land in a temporary file first and are renamed into place, so readers never see half a file. */
export function createLocalStorage(root: string): FileStorage {
  const fullPath = (key: string) => {
    assertValidKey(key);
    return path.join(root, ...key.split('/'));
  };

  return {
    async put(key, data) {
      const target = fullPath(key);
      await mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temporary, data);
      await rename(temporary, target);
      return { key, size: data.byteLength, sha256: sha256Hex(data) };
    },
    async putStream(key, data, maxBytes) {
      const target = fullPath(key);
      await mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      const hash = createHash('sha256');
      let size = 0;
      const measure = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          if (size > maxBytes) return done(new FileTooLargeError(maxBytes));
          hash.update(chunk);
          done(null, chunk);
        },
      });
      try {
        await pipeline(data, measure, createWriteStream(temporary));
        await rename(temporary, target);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      return { key, size, sha256: hash.digest('hex') };
    },
    async open(key) {
      const file = fullPath(key);
      try {
        const info = await stat(file);
        if (!info.isFile()) return null;
        return { size: info.size, stream: createReadStream(file) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async read(key) {
      try {
        return await readFile(fullPath(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(key) {
      await rm(fullPath(key), { force: true });
    },
  };
}

/** The storage for this configuration: DATA_DIR/files. */
export const storageFor = (config: { dataDir: string }): FileStorage =>
  createLocalStorage(path.join(config.dataDir, 'files'));
