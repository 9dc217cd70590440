import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp } from '../../../test/support/app';
import { licenseApiOverHttp } from '../../../test/support/license-fixtures';
import { freePort, runCli, ServerProcess } from '../../../test/support/processes';
import { addTool, buyTool, newBuyer } from '../../../test/support/shop-fixtures';
import type { MyLicense } from '../../shared/licenses';

/**
 * `npm run admin -- move-to-postgres` as the operator runs it: a process of its own, from a seeded embedded
 * database in DATA_DIR into an empty database on the test's PostgreSQL server; then the real server starts on the
 * printed DATABASE_URL and serves what was moved.
 */

const DATA_SECRET_KEY = 'a5'.repeat(32);

type Run = { code: number; stdout: string; stderr: string };

function admin(env: Record<string, string>, ...args: string[]): Promise<Run> {
  // Only what the operator's shell would set: no DATABASE_URL leaks in from the test's environment.
  return runCli(args, {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_SECRET_KEY, ...env },
  });
}

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('npm run admin -- move-to-postgres', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'move-cli-'));
  const adminUrl = process.env.TEST_DATABASE_URL as string;
  const name = `move_cli_${Math.random().toString(16).slice(2, 10)}`;
  const targetUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  let licenseKey: string;
  let toolId: string;

  beforeAll(async () => {
    await query(adminUrl, `create database ${name}`);
    // A shop on embedded PGlite files with two paid orders, closed again as a stopped server leaves it.
    const port = await freePort();
    const shop = await openTestApp({
      env: { DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_SECRET_KEY },
    });
    try {
      await shop.app.listen({ port, host: '127.0.0.1' });
      const { client } = await newBuyer(shop);
      const tool = await addTool(shop, { name: 'Ledger Helper' });
      toolId = tool.id;
      await buyTool(shop, client, tool.id);
      await buyTool(shop, client, (await addTool(shop, { name: 'GST Helper' })).id);
      const licenses = (await client.get('/api/my-licenses/')).json<MyLicense[]>();
      licenseKey = licenses.find((license) => license.toolId === toolId)?.licenseKey as string;
    } finally {
      await shop.close();
    }
  });

  afterAll(async () => {
    await query(adminUrl, `drop database if exists ${name} with (force)`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses with DATABASE_URL set (exit 2) and while a server holds the embedded database (exit 1)', async () => {
    const withUrl = await admin(
      { DATA_DIR: dataDir, DATABASE_URL: targetUrl },
      'move-to-postgres',
      targetUrl,
    );
    expect(withUrl.code).toBe(2);
    expect(withUrl.stdout).toBe('');
    expect(withUrl.stderr).toMatch(/^admin: DATABASE_URL is set: .*unset DATABASE_URL/);

    const running = await openTestApp({ env: { DATA_DIR: dataDir, DATA_SECRET_KEY } });
    try {
      const held = await admin({ DATA_DIR: dataDir }, 'move-to-postgres', targetUrl);
      expect(held.code).toBe(1);
      expect(held.stdout).toBe('');
      expect(held.stderr).toMatch(/in use by a running server \(pid \d+\): stop the server first/);
    } finally {
      await running.close();
    }
    // Nothing was written: the target has no tables yet.
    const tables = await query(
      targetUrl,
      `select 1 from information_schema.tables where table_schema = 'public'`,
    );
    expect(tables).toHaveLength(0);
  });

  it('copies every table, prints the rows of each and the DATABASE_URL line, and records who did it', async () => {
    const run = await admin({ DATA_DIR: dataDir }, 'move-to-postgres', targetUrl);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toContain('orders: 2 rows');
    expect(lines).toContain('invoices: 2 rows');
    expect(lines).toContain('licenses: 2 rows');
    expect(lines.at(-1)).toBe(`DATABASE_URL=${targetUrl}`);

    const audit = await query<{ actor: string; target: string | null }>(
      targetUrl,
      `select actor, target from audit_log where action = 'database.move_to_postgres'`,
    );
    expect(audit).toEqual([{ actor: `cli:${userInfo().username}`, target: null }]);

    const again = await admin({ DATA_DIR: dataDir }, 'move-to-postgres', targetUrl);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/^admin: The target database is not empty/);
  });

  it('then the server starts on DATABASE_URL and serves what was moved', async () => {
    const server = await new ServerProcess({ DATABASE_URL: targetUrl, DATA_SECRET_KEY }).start();
    try {
      const answer = await licenseApiOverHttp(server.url, 'activate', {
        licenseKey,
        toolId,
        fingerprint: 'moved-machine-0001',
      });
      expect(await answer.json()).toMatchObject({ valid: true, code: 'VALID' });
      const catalogue = (await (await fetch(`${server.url}/api/alltools/`)).json()) as Array<{
        name: string;
      }>;
      expect(catalogue.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['Ledger Helper', 'GST Helper']),
      );
    } finally {
      await server.stop();
    }
  });
});
