import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activateOverHttp, licensedPurchase } from '../../../test/support/license-fixtures';
import { ServerProcess } from '../../../test/support/processes';
import { addRelease } from '../../../test/support/release-fixtures';
import { openDatabase } from '../db';
import { createLocalStorage } from '../storage';

const SIZE = 200 * 1024 * 1024;
let server: ServerProcess;
let fileUrl: string;
let feedsUrl: string;
let expectedSha256: string;
let workDir: string;

/**
 * A 200 MB file: sparse zeros with random blocks spread through it, so a byte out of place shows in the hash.
 * Its SHA-256 is taken as it is written.
 */
function bigFile(file: string): string {
  const fd = openSync(file, 'w');
  const hash = createHash('sha256');
  const block = 4 * 1024 * 1024;
  for (let offset = 0; offset < SIZE; offset += block) {
    const chunk = offset % (16 * block) === 0 ? randomBytes(block) : Buffer.alloc(block);
    writeSync(fd, chunk, 0, chunk.length, offset);
    hash.update(chunk);
  }
  closeSync(fd);
  return hash.digest('hex');
}

/** The real server process on a database holding a licensed tool with a published 200 MB installer. */
beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'release-downloads-'));
  const dataDir = path.join(workDir, 'data');
  const source = path.join(workDir, 'setup.exe');
  expectedSha256 = bigFile(source);
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  await database.migrate();
  const purchase = await licensedPurchase(database.db);
  const { artifacts } = await addRelease(
    { db: database.db, storage: createLocalStorage(path.join(dataDir, 'files')) },
    {
      toolId: purchase.toolId,
      version: '2.0.0',
      artifacts: [
        { platform: 'windows', kind: 'installer', fileName: 'Setup 2.0.0.exe', content: { path: source } },
      ],
    },
  );
  await database.close();
  rmSync(source);
  server = await new ServerProcess({}, 0, { dataDir }).start();

  feedsUrl = (await activateOverHttp(server.url, purchase, 'range-test-machine-01')).velopackUrl;
  const artifact = artifacts[0];
  if (!artifact) throw new Error('no artifact');
  fileUrl = `${feedsUrl}files/${artifact.id}/${encodeURIComponent(artifact.fileName)}`;
}, 180_000);
afterAll(async () => {
  await server?.stop();
  rmSync(workDir, { recursive: true, force: true });
});

/** Reads a response body through a hash, chunk by chunk, as a downloader writing to disk would. */
async function drain(
  response: Response,
  hash = createHash('sha256'),
): Promise<{ bytes: number; hash: typeof hash }> {
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    hash.update(chunk);
  }
  return { bytes, hash };
}

/** The server process's resident memory, as the kernel counts it. */
function rssMb(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? 0) / 1024;
}

/** curl as a downloader runs it: status, bytes received and the headers, the body into `output`. */
function curl(
  url: string,
  headers: string[],
  output = '/dev/null',
): { status: number; size: number; headers: string } {
  const headerFile = path.join(workDir, `headers-${randomBytes(4).toString('hex')}`);
  const written = execFileSync(
    'curl',
    [
      '-s',
      '-o',
      output,
      '-D',
      headerFile,
      '-w',
      '%{http_code} %{size_download}',
      ...headers.flatMap((h) => ['-H', h]),
      url,
    ],
    { encoding: 'utf8' },
  );
  const [status, size] = written.trim().split(' ').map(Number);
  const received = readFileSync(headerFile, 'utf8');
  rmSync(headerFile);
  return { status: status ?? 0, size: size ?? 0, headers: received };
}

describe('validators (RFC 9110) with curl', () => {
  it('a stale If-Range gets 200 and the whole file; the current ETag gets the range; If-None-Match gets 304', async () => {
    const whole = path.join(workDir, 'whole.bin');
    const stale = curl(fileUrl, ['Range: bytes=0-99', 'If-Range: "an-older-build-of-this-file"'], whole);
    expect(stale.status).toBe(200);
    expect(stale.size).toBe(SIZE);
    expect(createHash('sha256').update(readFileSync(whole)).digest('hex')).toBe(expectedSha256);
    rmSync(whole);
    // A date is no validator of ours (no Last-Modified is sent): the whole file too.
    expect(curl(fileUrl, ['Range: bytes=0-99', 'If-Range: Wed, 21 Oct 2015 07:28:00 GMT']).status).toBe(200);
    const resumed = curl(fileUrl, ['Range: bytes=0-99', `If-Range: "${expectedSha256}"`]);
    expect([resumed.status, resumed.size]).toEqual([206, 100]);
    const unchanged = curl(fileUrl, [`If-None-Match: "${expectedSha256}"`]);
    expect([unchanged.status, unchanged.size]).toEqual([304, 0]);
    expect(unchanged.headers).toMatch(new RegExp(`^etag: "${expectedSha256}"`, 'im'));
  }, 120_000);

  it('a feed fetched twice with If-None-Match gets 304 the second time, and 200 to another tag', async () => {
    for (const feed of ['appcast.xml', 'appcast.xml?channel=beta', 'releases.win.json', 'RELEASES']) {
      const first = curl(`${feedsUrl}${feed}`, []);
      expect(first.status, feed).toBe(200);
      const etag = /^etag: (".+")\r?$/im.exec(first.headers)?.[1];
      expect(etag, feed).toBeDefined();
      expect(first.headers).toMatch(/^cache-control: private, no-cache/im);
      const second = curl(`${feedsUrl}${feed}`, [`If-None-Match: ${etag}`]);
      expect([second.status, second.size], feed).toEqual([304, 0]);
      expect(curl(`${feedsUrl}${feed}`, ['If-None-Match: "something-else"']).status, feed).toBe(200);
    }
  });
});

describe('artifact downloads', () => {
  it('arrive byte-identical in two halves with Range, and a range past the end is 416', async () => {
    const half = SIZE / 2;
    const first = await fetch(fileUrl, { headers: { range: `bytes=0-${half - 1}` } });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-${half - 1}/${SIZE}`);
    expect(first.headers.get('content-length')).toBe(String(half));
    expect(first.headers.get('etag')).toBe(`"${expectedSha256}"`);
    expect(first.headers.get('accept-ranges')).toBe('bytes');
    const hash = createHash('sha256');
    expect((await drain(first, hash)).bytes).toBe(half);

    const second = await fetch(fileUrl, { headers: { range: `bytes=${half}-` } });
    expect(second.status).toBe(206);
    expect(second.headers.get('content-range')).toBe(`bytes ${half}-${SIZE - 1}/${SIZE}`);
    expect((await drain(second, hash)).bytes).toBe(half);
    expect(hash.digest('hex')).toBe(expectedSha256);

    const past = await fetch(fileUrl, { headers: { range: `bytes=${SIZE}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${SIZE}`);
    expect((await fetch(fileUrl, { headers: { range: 'bytes=9-3' } })).status).toBe(416);
  }, 120_000);

  it('streams five concurrent whole downloads without the server holding them in memory', async () => {
    const before = rssMb(server.pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.pid));
    }, 50);
    try {
      const downloads = await Promise.all(
        Array.from({ length: 5 }, async () => {
          const response = await fetch(fileUrl);
          expect(response.status).toBe(200);
          expect(response.headers.get('content-length')).toBe(String(SIZE));
          const { bytes, hash } = await drain(response);
          return { bytes, sha256: hash.digest('hex') };
        }),
      );
      expect(downloads).toEqual(Array.from({ length: 5 }, () => ({ bytes: SIZE, sha256: expectedSha256 })));
    } finally {
      clearInterval(sampler);
    }
    const growth = peak - before;
    console.info(
      `server RSS ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at peak during 5 × 200 MB downloads`,
    );
    // 1 GB went through; held in memory it would be 200 MB or more.
    expect(growth).toBeLessThan(60);
  }, 180_000);
});
