import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseForProcesses } from '../../../test/support/database';
import { licensedPurchase } from '../../../test/support/license-fixtures';
import { type CliRun, runCli } from '../../../test/support/processes';
import { openDatabase } from '../db';
import { licenses } from '../db/schema/licenses';
import { auditLog } from '../db/schema/operator';

/** The operator sets a tool's activation limit from the command line, which the license API then applies. */
let dataDir: string;
let databaseUrl = '';
let dropDatabase: (() => Promise<void>) | undefined;
let toolId: string;
let licenseKey: string;
let licenseId: string;

function admin(...args: string[]): Promise<CliRun> {
  return runCli(args, {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
    },
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'license-admin-'));
  ({ databaseUrl, drop: dropDatabase } = await databaseForProcesses(dataDir));
  const database = await openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite') });
  await database.migrate();
  const purchase = await licensedPurchase(database.db);
  toolId = purchase.toolId;
  licenseKey = purchase.licenseKey ?? '';
  licenseId = purchase.licenseId;
  await database.close();
}, 120_000);
afterAll(async () => {
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('tools edit --activation-limit', () => {
  it('sets the limit, shows it, and refuses a limit below 1 without changing anything', {
    timeout: 180_000,
  }, async () => {
    const set = await admin('tools', 'edit', toolId, '--activation-limit', '3');
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/Activation limit\s+3 machines per license/);

    const refused = await admin('tools', 'edit', toolId, '--activation-limit', '0');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--activation-limit "0": A whole number from 1 to 100.');

    const listed = await admin('tools', 'list', '--json');
    const tools = JSON.parse(listed.stdout) as Array<{ _id: string; activationLimit: number }>;
    expect(tools.find((tool) => tool._id === toolId)?.activationLimit).toBe(3);
  });
});

describe('licenses reset-deactivations', () => {
  it('resets the buyer’s self-service allowance, audited, and refuses an unknown key', {
    timeout: 180_000,
  }, async () => {
    const done = await admin('licenses', 'reset-deactivations', licenseKey.toLowerCase(), '--json');
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ licenseKey });

    const unknown = await admin('licenses', 'reset-deactivations', 'NOPE-NOPE-NOPE-NOPE');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No license with that key.');

    const database = await openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite') });
    try {
      const [license] = await database.db.select().from(licenses).where(eq(licenses.id, licenseId));
      expect(license?.selfDeactivationsResetAt).toBeInstanceOf(Date);
      const entries = await database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'license.reset_deactivations'));
      expect(entries).toEqual([
        expect.objectContaining({ actor: `cli:${userInfo().username}`, target: `license:${license?.id}` }),
      ]);
    } finally {
      await database.close();
    }
  });
});
