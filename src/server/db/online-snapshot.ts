import { createWriteStream } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip, type Gzip } from 'node:zlib';

/**
 * A snapshot of the embedded database taken while it keeps serving (issue 35). PGlite's own `dumpDataDir` holds its
 * query lock and builds the whole archive in memory on the server's thread: on a shop of 300,000 orders the site
 * stood still for as long. This is PostgreSQL's online base backup instead, on PGlite's one connection:
 * `pg_backup_start` (a checkpoint), the data directory's files read and gzipped while queries go on (the reads and
 * the compression run on libuv's thread pool, a block at a time), `pg_backup_stop`, then the WAL written meanwhile
 * and the `backup_label` that makes the restored copy replay it. A page torn by a write during the copy is repaired
 * by that replay (full_page_writes is on), so the restore is the database as it was when the backup stopped.
 *
 * The archive is a gzipped tar in PGlite's own layout (`/PG_VERSION`, `/base/…` under the data directory), so
 * `restore` opens it with `PGlite.create({ loadDataDir })` like one from `dumpDataDir`.
 */

type Client = { query<T>(sql: string): Promise<{ rows: T[] }> };

/** Not copied: the server's own process files and a cache rebuilt at start. */
const SKIPPED = new Set(['postmaster.pid', 'postmaster.opts', 'pg_internal.init']);
/** Directories whose contents a base backup leaves out (PostgreSQL's docs on low-level backups); kept empty. */
const EMPTIED = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
]);
const BLOCK = 512;
const READ_SIZE = 1024 * 1024;

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, '0')}\0`;
}

/** A ustar header: name (with the 155-byte prefix field for long paths), mode, size, time, type. */
function header(
  name: string,
  entry: { size: number; mode: number; mtime: Date; directory: boolean },
): Buffer {
  const block = Buffer.alloc(BLOCK);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 154);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  block.write(base, 0, 100);
  block.write(octal(entry.mode & 0o7777, 8), 100);
  block.write(octal(0, 8), 108);
  block.write(octal(0, 8), 116);
  block.write(octal(entry.directory ? 0 : entry.size, 12), 124);
  block.write(octal(Math.floor(entry.mtime.getTime() / 1000), 12), 136);
  block.write('        ', 148);
  block.write(entry.directory ? '5' : '0', 156);
  block.write('ustar\0', 257);
  block.write('00', 263);
  block.write(prefix, 345, 155);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

async function write(gzip: Gzip, chunk: Buffer): Promise<void> {
  if (!gzip.write(chunk)) await new Promise((resolve) => gzip.once('drain', resolve));
}

/** One file as it is now: its size when listed, read to that size (a file cut short meanwhile is padded). */
async function addFile(gzip: Gzip, file: string, name: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const stat = await handle.stat();
    await write(
      gzip,
      header(name, { size: stat.size, mode: stat.mode, mtime: stat.mtime, directory: false }),
    );
    let offset = 0;
    while (offset < stat.size) {
      const buffer = Buffer.alloc(Math.min(READ_SIZE, stat.size - offset));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      if (bytesRead === 0) break;
      await write(gzip, bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
      offset += bytesRead;
    }
    if (offset < stat.size) await write(gzip, Buffer.alloc(stat.size - offset));
    const padding = (BLOCK - (stat.size % BLOCK)) % BLOCK;
    if (padding) await write(gzip, Buffer.alloc(padding));
  } finally {
    await handle.close();
  }
}

async function addTree(gzip: Gzip, dir: string, name: string, contents: boolean): Promise<void> {
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (SKIPPED.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    const inside = `${name}/${entry.name}`;
    if (entry.isDirectory()) {
      const stat = await lstat(full);
      await write(gzip, header(inside, { size: 0, mode: stat.mode, mtime: stat.mtime, directory: true }));
      if (contents) await addTree(gzip, full, inside, !EMPTIED.has(entry.name) || name !== '');
    } else if (entry.isFile() && contents) await addFile(gzip, full, inside);
  }
}

/** Writes the online snapshot of the PGlite data directory `dataDir` to `file` (a gzipped tar). */
export async function onlineSnapshot(client: Client, dataDir: string, file: string): Promise<void> {
  // The fastest level: a snapshot a day is worth more than its last few per cent of size.
  const gzip = createGzip({ level: 1 });
  const written = pipeline(gzip, createWriteStream(file, { mode: 0o600 }));
  await client.query(`select pg_backup_start('pinkcity snapshot', true)`);
  let stopped = false;
  try {
    await addTree(gzip, dataDir, '', true);
    const [stop] = (await client.query<{ labelfile: string }>('select labelfile from pg_backup_stop(false)'))
      .rows;
    stopped = true;
    if (!stop) throw new Error('pg_backup_stop returned no backup label');
    // The WAL from the backup's checkpoint to its end, read after the stop so that all of it is there.
    await addTree(gzip, path.join(dataDir, 'pg_wal'), '/pg_wal', true);
    const label = Buffer.from(stop.labelfile);
    await write(
      gzip,
      header('/backup_label', { size: label.length, mode: 0o600, mtime: new Date(), directory: false }),
    );
    await write(gzip, Buffer.concat([label, Buffer.alloc((BLOCK - (label.length % BLOCK)) % BLOCK)]));
    await write(gzip, Buffer.alloc(BLOCK * 2));
    gzip.end();
    await written;
  } catch (error) {
    if (!stopped) await client.query('select pg_backup_stop(false)').catch(() => undefined);
    gzip.destroy();
    await written.catch(() => undefined);
    throw error;
  }
}
