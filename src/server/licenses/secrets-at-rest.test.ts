import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eq, type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDriver } from '../../../test/support/database';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { fingerprint, licensedPurchase } from '../../../test/support/license-fixtures';
import { addTool, buyTool, effectsOf, newBuyer } from '../../../test/support/shop-fixtures';
import type { LicenseAnswer } from '../../shared/licenses';
import { licenses } from '../db/schema/licenses';
import { createDataSecrets } from '../kernel/data-secrets';
import { revealSecret, sealLicenseSecrets } from './secrets-at-rest';

/** License keys and credential passwords at rest (decision 032): hashed to be found, sealed to be shown. */
const t = shopTestAppForFile();

const PG_DUMP = '/usr/lib/postgresql/15/bin/pg_dump';

/**
 * Everything the database holds, as text, the mail outbox's rendered bodies included (they are sealed too). On
 * PostgreSQL the real `pg_dump`; on PGlite every text and JSON column of every table, read with SQL.
 */
async function databaseDump(): Promise<string> {
  const url = (t.database as { url?: string }).url;
  if (testDriver() === 'postgres') {
    if (!url) throw new Error('the PostgreSQL test database has no URL to dump');
    const { stdout } = await promisify(execFile)(PG_DUMP, ['--data-only', '--dbname', url], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  }
  const columns = await rowsOf<{ table_name: string; column_name: string }>(
    sql`select table_name, column_name from information_schema.columns
        where table_schema = 'public' and data_type in ('text', 'jsonb', 'json', 'character varying')`,
  );
  const parts: string[] = [];
  for (const { table_name, column_name } of columns) {
    const rows = await rowsOf<{ value: string | null }>(
      sql`select ${sql.identifier(column_name)}::text as value from ${sql.identifier(table_name)}`,
    );
    parts.push(...rows.map((row) => row.value ?? ''));
  }
  return parts.join('\n');
}

/** A raw query's rows, whichever driver runs it (both answer with `rows`). */
async function rowsOf<Row>(query: SQL): Promise<Row[]> {
  return ((await t.ctx.db.execute(query)) as unknown as { rows: Row[] }).rows;
}

async function call(action: 'activate' | 'validate', body: Record<string, string>) {
  const response = await t.app.inject({ method: 'POST', url: `/api/licenses/${action}`, payload: body });
  return response.json<LicenseAnswer>();
}

describe('secrets at rest', () => {
  it('keeps no license key or credential password of a sold tool in clear, and every channel still works', async () => {
    const keyTool = await addTool(t, { name: 'Key tool', delivery: 'license_key' });
    const credentialsTool = await addTool(t, { name: 'Credentials tool', delivery: 'credentials' });
    const buyer = await newBuyer(t);
    const keyOrder = (await buyTool(t, buyer.client, keyTool.id)).order;
    const credentialsOrder = (await buyTool(t, buyer.client, credentialsTool.id)).order;
    const keyMail = (await effectsOf(t, keyOrder.id)).deliveries[0]?.text ?? '';
    const credentialsMail = (await effectsOf(t, credentialsOrder.id)).deliveries[0]?.text ?? '';
    const licenseKey = /[A-Z0-9]{5}(?:-[A-Z0-9]{5}){3}/.exec(keyMail)?.[0] ?? '';
    const username = /pca-[a-z2-9]{8}/.exec(credentialsMail)?.[0] ?? '';
    const password = /Password\W+(\S{16})/.exec(credentialsMail)?.[1] ?? '';
    expect(licenseKey).not.toBe('');
    expect(password).toHaveLength(16);

    // Activate, validate (license key and credentials), My Tools and Get Credentials, from what is stored.
    const machine = fingerprint();
    expect(await call('activate', { licenseKey, toolId: keyTool.id, fingerprint: machine })).toMatchObject({
      code: 'VALID',
    });
    expect(await call('validate', { licenseKey, toolId: keyTool.id, fingerprint: machine })).toMatchObject({
      code: 'VALID',
    });
    const account = { username, password, toolId: credentialsTool.id, fingerprint: machine };
    expect(await call('activate', account)).toMatchObject({ code: 'VALID' });
    expect(await call('validate', { ...account, password: `${password.slice(1)}x` })).toMatchObject({
      code: 'INVALID_KEY',
    });
    const myLicenses = await buyer.client.get('/api/my-licenses/');
    expect(myLicenses.json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ toolId: keyTool.id, licenseKey })]),
    );
    const resent = await buyer.client.post('/api/send-tool-credentials/', { toolId: credentialsTool.id });
    expect(resent.statusCode).toBe(200);
    expect((await effectsOf(t, credentialsOrder.id)).resends[0]?.text).toContain(password);

    const dump = await databaseDump();
    // The dump is real and holds the outbox: the username is an account name, kept as it is; subjects stay in clear.
    expect(dump).toContain(username);
    expect(dump).toContain('Your Credentials tool sign-in details');
    expect(dump).not.toContain(licenseKey);
    expect(dump).not.toContain(password);
  });

  it('converts rows from before, at start, once; and re-seals them under a new key after a rotation', async () => {
    const purchase = await licensedPurchase(t.ctx.db, { delivery: 'credentials' });
    const keyed = await licensedPurchase(t.ctx.db);
    const [plain] = await t.ctx.db.select().from(licenses).where(eq(licenses.id, keyed.licenseId));
    expect(plain?.plainLicenseKey).toBe(keyed.licenseKey);

    expect(await sealLicenseSecrets(t.ctx.db, t.ctx.dataSecrets)).toBeGreaterThanOrEqual(2);
    expect(await sealLicenseSecrets(t.ctx.db, t.ctx.dataSecrets)).toBe(0);
    const [sealed] = await t.ctx.db.select().from(licenses).where(eq(licenses.id, purchase.licenseId));
    expect(sealed).toMatchObject({ plainLicenseKey: null, plainPassword: null, username: purchase.username });
    expect(sealed && revealSecret(t.ctx.dataSecrets, sealed)).toEqual({
      username: purchase.username,
      password: purchase.password,
    });
    const machine = fingerprint();
    const keyBody = { licenseKey: keyed.licenseKey ?? '', toolId: keyed.toolId, fingerprint: machine };
    expect(await call('activate', keyBody)).toMatchObject({ code: 'VALID' });

    // Rotation: the old key moves to the previous keys; start-up re-hashes and re-seals every row under the new.
    const rotated = createDataSecrets({
      dataDir: t.config.dataDir,
      dataSecret: { key: Buffer.alloc(32, 9), previousKeys: [t.config.dataSecret.key ?? Buffer.alloc(0)] },
    });
    expect(await sealLicenseSecrets(t.ctx.db, rotated)).toBeGreaterThanOrEqual(2);
    const newOnly = createDataSecrets({
      dataDir: t.config.dataDir,
      dataSecret: { key: Buffer.alloc(32, 9), previousKeys: [] },
    });
    const [resealed] = await t.ctx.db.select().from(licenses).where(eq(licenses.id, keyed.licenseId));
    expect(resealed && revealSecret(newOnly, resealed)).toEqual({ licenseKey: keyed.licenseKey });
    expect(resealed?.licenseKeyHash).toBe(newOnly.lookupHash('licenses.license_key', keyed.licenseKey ?? ''));
  });
});
