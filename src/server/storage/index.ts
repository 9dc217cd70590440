import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseS3Url, type S3Location } from '../kernel/s3-url';
import { assertValidKey, type FileStorage, measuringStream, sha256Hex } from './file-storage';

export {
  type ByteRange,
  type FileStorage,
  FileTooLargeError,
  type StoredFile,
  sha256Hex,
} from './file-storage';

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
      const measure = measuringStream(maxBytes);
      try {
        await pipeline(data, measure.through, createWriteStream(temporary));
        await rename(temporary, target);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      return { key, ...measure.result() };
    },
    async open(key, range) {
      const file = fullPath(key);
      try {
        const info = await stat(file);
        if (!info.isFile()) return null;
        return { size: info.size, stream: createReadStream(file, range) };
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

/** The bucket's storage, loading the AWS SDK on first use only, so installs without a bucket never pay for it. */
function lazyS3Storage(location: S3Location): FileStorage {
  let loaded: Promise<FileStorage> | undefined;
  const storage = () => {
    loaded ??= import('./s3').then((module) => module.createS3Storage(location));
    return loaded;
  };
  return {
    put: async (key, data) => (await storage()).put(key, data),
    putStream: async (key, data, maxBytes) => (await storage()).putStream(key, data, maxBytes),
    open: async (key, range) => (await storage()).open(key, range),
    read: async (key) => (await storage()).read(key),
    remove: async (key) => (await storage()).remove(key),
  };
}

/** The storage for this configuration: the bucket STORAGE_URL names, else DATA_DIR/files. */
export const storageFor = (config: { dataDir: string; storageUrl?: string }): FileStorage =>
  config.storageUrl
    ? lazyS3Storage(parseS3Url(config.storageUrl))
    : createLocalStorage(path.join(config.dataDir, 'files'));
