import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDriver } from '../../../test/support/database';
import { HttpClient, ServerProcess } from '../../../test/support/processes';

/**
 * Nothing under DATA_DIR is for another account on the machine: the real server, started on a DATA_DIR an older
 * version left world-readable and on a fresh one, leaves every folder 0700 and every file 0600 after it has
 * written secrets, its database (PGlite), mail and a backup, and says in its log what it repaired.
 */
const roots: string[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Every path under `dir` (itself included) whose mode lets group or others in, with that mode. */
function looseUnder(dir: string): string[] {
  const loose: string[] = [];
  const visit = (target: string) => {
    const stats = lstatSync(target);
    if (stats.isSymbolicLink()) return;
    if ((stats.mode & 0o077) !== 0)
      loose.push(`${path.relative(dir, target) || '.'} ${(stats.mode & 0o777).toString(8)}`);
    if (stats.isDirectory()) for (const name of readdirSync(target)) visit(path.join(target, name));
  };
  visit(dir);
  return loose;
}

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const filesIn = (dir: string, pattern: RegExp) =>
  existsSync(dir) ? readdirSync(dir).filter((name) => pattern.test(name)) : [];

/** A server on `dataDir` (PGlite inside it, or a fresh PostgreSQL database under TEST_DB=postgres). */
async function startServer(dataDir: string): Promise<ServerProcess> {
  const env: Record<string, string> = { DATA_DIR: dataDir };
  if (testDriver() === 'postgres') {
    const database = await createTestDatabase();
    cleanups.push(() => database.close());
    env.DATABASE_URL = database.url as string;
  }
  const server = await new ServerProcess(env).start();
  cleanups.unshift(() => server.stop());
  return server;
}

/** Signs a visitor up far enough that a code is mailed (dev mail is written to DATA_DIR/mail). */
async function createData(server: ServerProcess, dataDir: string): Promise<void> {
  const visitor = new HttpClient(server.url);
  await visitor.get('/api/csrf-token/');
  const sent = await visitor.post('/api/auth/send-otp/', { name: 'Asha Verma', email: 'asha@example.com' });
  expect(sent.status).toBe(200);
  await until(() => filesIn(path.join(dataDir, 'mail'), /\.eml$/).length > 0, 'the signup code mail');
  if (testDriver() === 'pglite')
    await until(() => filesIn(path.join(dataDir, 'backups'), /\.tar\.gz$/).length > 0, 'the start-up backup');
}

describe('DATA_DIR is owner-only', () => {
  it('repairs a DATA_DIR left readable by others, and says so in its log', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'data-dir-'));
    roots.push(root);
    const dataDir = path.join(root, 'data');
    // What an older version or a copy made under umask 022/000 left behind: 5 loose paths.
    mkdirSync(path.join(dataDir, 'files', 'tool'), { recursive: true });
    writeFileSync(path.join(dataDir, 'files', 'tool', 'setup.exe'), 'binary');
    mkdirSync(path.join(dataDir, 'mail'));
    chmodSync(dataDir, 0o755);
    chmodSync(path.join(dataDir, 'files'), 0o777);
    chmodSync(path.join(dataDir, 'files', 'tool'), 0o755);
    chmodSync(path.join(dataDir, 'files', 'tool', 'setup.exe'), 0o666);
    chmodSync(path.join(dataDir, 'mail'), 0o755);
    expect(looseUnder(dataDir)).toHaveLength(5);

    const server = await startServer(dataDir);
    expect(server.output).toMatch(/DATA_DIR permissions repaired: 5 paths made owner-only/);
    await createData(server, dataDir);
    expect(looseUnder(dataDir)).toEqual([]);
  }, 120_000);

  it('creates a fresh DATA_DIR owner-only, with everything the server writes into it', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'data-dir-'));
    roots.push(root);
    const dataDir = path.join(root, 'data');
    const server = await startServer(dataDir);
    await createData(server, dataDir);
    expect(existsSync(path.join(dataDir, 'license-signing-key.pem'))).toBe(true);
    if (testDriver() === 'pglite')
      expect(filesIn(path.join(dataDir, 'pglite'), /./).length).toBeGreaterThan(0);
    expect(looseUnder(dataDir)).toEqual([]);
    expect(server.output).not.toMatch(/permissions repaired/);
  }, 120_000);
});
