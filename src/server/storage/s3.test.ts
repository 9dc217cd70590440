import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CreateBucketCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buyTool,
  catalogueRows,
  createShopTestApp,
  downloadLinkIn,
  effectsOf,
  newBuyer,
} from '../../../test/support/shop-fixtures';
import { loadConfig } from '../kernel/config';
import { parseS3Url } from '../kernel/s3-url';
import { createLocalStorage, type FileStorage, FileTooLargeError, sha256Hex } from '.';
import { createS3Storage } from './s3';

/** A real S3-compatible server (s3rver) on loopback, with the credentials it accepts in the usual AWS variables. */
let server: S3rver;
let directory: string;
let endpoint: string;
const BUCKET = 'tool-files';

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  await client().send(new CreateBucketCommand({ Bucket: BUCKET }));
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(directory, { recursive: true, force: true });
});

const client = () => new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true });
const storageUrl = (prefix = '') => `s3://${BUCKET}${prefix}?endpoint=${endpoint}&region=us-east-1`;

describe('STORAGE_URL', () => {
  it('names a bucket, an optional prefix, the endpoint and the region', () => {
    expect(parseS3Url('s3://tools/prod/files?endpoint=https://minio.example:9000&region=ap-south-1')).toEqual(
      {
        bucket: 'tools',
        prefix: 'prod/files',
        region: 'ap-south-1',
        endpoint: 'https://minio.example:9000',
        forcePathStyle: true,
      },
    );
    expect(parseS3Url('s3://tools')).toMatchObject({ endpoint: undefined, forcePathStyle: false });
    const env = { NODE_ENV: 'test', SESSION_SECRET: 'x'.repeat(40) };
    expect(() => loadConfig({ ...env, STORAGE_URL: 'https://tools' })).toThrow(/STORAGE_URL/);
    expect(() => loadConfig({ ...env, STORAGE_URL: 's3://tools?endpoint=ftp://x' })).toThrow(/STORAGE_URL/);
    expect(loadConfig({ ...env, STORAGE_URL: storageUrl() }).storageUrl).toBe(storageUrl());
  });
});

describe('files in an S3-compatible bucket', () => {
  it('stores, streams, reads and removes a file under the prefix', async () => {
    const storage = createS3Storage(parseS3Url(storageUrl('/unit')));
    const data = Buffer.from('PK\u0003\u0004 a small zip stand-in');
    const stored = await storage.put('tools/sample.zip', data);
    expect(stored.size).toBe(data.length);

    const object = await client().send(
      new GetObjectCommand({ Bucket: BUCKET, Key: 'unit/tools/sample.zip' }),
    );
    expect(Buffer.from(await (object.Body?.transformToByteArray() ?? [])).equals(data)).toBe(true);

    const opened = await storage.open('tools/sample.zip');
    expect(opened?.size).toBe(data.length);
    const chunks: Buffer[] = [];
    for await (const chunk of opened?.stream ?? []) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(data)).toBe(true);
    expect((await storage.read('tools/sample.zip'))?.equals(data)).toBe(true);

    await storage.remove('tools/sample.zip');
    expect(await storage.open('tools/sample.zip')).toBeNull();
    expect(await storage.read('tools/missing.zip')).toBeNull();
    await expect(storage.put('../escape.zip', data)).rejects.toThrow(/invalid storage key/);
  });

  it('serves a buyer’s download from the bucket, with nothing written to DATA_DIR/files', async () => {
    const t = await createShopTestApp({ env: { STORAGE_URL: storageUrl('/shop') } });
    try {
      const catalogue = await catalogueRows(t);
      const { client: buyer } = await newBuyer(t);
      const bought = await buyTool(t, buyer, catalogue.windows.id);
      const mail = (await effectsOf(t, bought.order.id)).deliveries[0];
      if (!mail) throw new Error('no delivery email');

      const expected = await t.ctx.storage.read(catalogue.windows.fileKey ?? '');
      expect(expected?.length).toBeGreaterThan(0);
      const inBucket = await client().send(
        new GetObjectCommand({ Bucket: BUCKET, Key: `shop/${catalogue.windows.fileKey}` }),
      );
      expect(Number(inBucket.ContentLength)).toBe(expected?.length);

      const response = await fetch(downloadLinkIn(mail.text), { redirect: 'manual' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBe(String(expected?.length));
      expect(Buffer.from(await response.arrayBuffer()).equals(expected ?? Buffer.alloc(0))).toBe(true);
      const localFiles = path.join(t.dataDir, 'files');
      expect(existsSync(localFiles) ? readdirSync(localFiles) : []).toEqual([]);
    } finally {
      await t.close();
    }
  }, 120_000);
});

/** Chunks of a buffer as a stream, the way an upload arrives. */
const chunked = (data: Buffer) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < data.length; at += 64 * 1024) yield data.subarray(at, at + 64 * 1024);
    })(),
  );

describe.each([
  ['a local directory', () => createLocalStorage(mkdtempSync(path.join(os.tmpdir(), 'files-')))],
  ['an S3-compatible bucket', () => createS3Storage(parseS3Url(storageUrl('/streamed')))],
])('a streamed upload into %s', (_name, make: () => FileStorage) => {
  it('stores a file larger than one S3 part with its size and SHA-256', async () => {
    const storage = make();
    const data = randomBytes(6 * 1024 * 1024 + 123);
    const stored = await storage.putStream('tools/big.zip', chunked(data), 8 * 1024 * 1024);
    expect(stored).toEqual({ key: 'tools/big.zip', size: data.length, sha256: sha256Hex(data) });
    expect((await storage.read('tools/big.zip'))?.equals(data)).toBe(true);
    await storage.remove('tools/big.zip');
  }, 60_000);

  it('refuses a stream past the limit and leaves nothing behind', async () => {
    const storage = make();
    const data = randomBytes(300 * 1024);
    await expect(storage.putStream('tools/too-big.zip', chunked(data), 200 * 1024)).rejects.toBeInstanceOf(
      FileTooLargeError,
    );
    expect(await storage.open('tools/too-big.zip')).toBeNull();
  }, 60_000);
});
