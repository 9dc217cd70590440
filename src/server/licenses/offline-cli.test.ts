import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfflineActivation, offlineStateFile } from '../../../packages/license-client/src/index';
import {
  openTestApp,
  TEST_DATA_SECRET_KEY,
  TEST_LICENSE_SIGNING_KEY,
  testConfig,
} from '../../../test/support/app';
import { databaseForProcesses } from '../../../test/support/database';
import { fingerprint, type LicensedPurchase, licensedPurchase } from '../../../test/support/license-fixtures';
import { type CliRun, runCli } from '../../../test/support/processes';
import { loginAs } from '../../../test/support/shop-fixtures';
import { OFFLINE_MESSAGES } from '../../shared/offline-activation';
import { openDatabase } from '../db';
import { createSigningKeys } from './signing';

/**
 * A request sent by email (issue 67): the operator answers it with `licenses offline-activate`, audited, and the
 * response is the one My Tools gives for the same request. The command line runs as its own process, on PGlite and
 * on PostgreSQL.
 */
let dataDir: string;
let workDir: string;
let databaseUrl = '';
let dropDatabase: (() => Promise<void>) | undefined;
let purchase: LicensedPurchase;
const publicKeys = createSigningKeys(testConfig()).published;

function admin(...args: string[]): Promise<CliRun> {
  return runCli(args, {
    cwd: workDir,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      // The keys of the test's own app (openTestApp below): both sign and seal alike.
      LICENSE_SIGNING_KEY: TEST_LICENSE_SIGNING_KEY,
      DATA_SECRET_KEY: TEST_DATA_SECRET_KEY,
      LOG_LEVEL: 'silent',
    },
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'offline-cli-'));
  workDir = mkdtempSync(path.join(tmpdir(), 'offline-cli-mail-'));
  ({ databaseUrl, drop: dropDatabase } = await databaseForProcesses(dataDir));
  const database = await openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite') });
  await database.migrate();
  purchase = await licensedPurchase(database.db);
  await database.close();
}, 120_000);
afterAll(async () => {
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(workDir, { recursive: true, force: true });
});

const payloadOf = (file: string) =>
  JSON.parse(Buffer.from(JSON.parse(file).payload, 'base64').toString('utf8'));

describe('licenses offline-activate', () => {
  it('answers an emailed request with the response My Tools gives, audited, and refuses what it cannot answer', {
    timeout: 300_000,
  }, async () => {
    const computer = new OfflineActivation({
      publicKeys,
      store: offlineStateFile(path.join(workDir, 'computer', 'state.json')),
    });
    const machine = fingerprint('emailed');
    const request = await computer.createOfflineRequest({
      toolId: purchase.toolId,
      fingerprint: machine,
      name: 'Accounts office',
    });
    // As it arrives by email: the line, and a line break after it.
    writeFileSync(path.join(workDir, 'request.txt'), `${request}\r\n`);

    const done = await admin(
      'licenses',
      'offline-activate',
      purchase.licenseKey?.toLowerCase() ?? '',
      '--request',
      'request.txt',
      '--out',
      'response.json',
    );
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(
      /^Accounts office \([0-9a-f]{8}\) is activated without internet until .+ IST\./,
    );
    const response = readFileSync(path.join(workDir, 'response.json'), 'utf8');
    expect(await computer.activateOffline(response)).toMatchObject({ valid: true, status: 'active' });

    // Nothing is written over a file, and no seat is taken for a response that could not be saved.
    const again = await admin(
      'licenses',
      'offline-activate',
      purchase.licenseKey ?? '',
      '--request',
      'request.txt',
      '--out',
      'response.json',
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('response.json exists; name a new file.');
    expect(readFileSync(path.join(workDir, 'response.json'), 'utf8')).toBe(response);
    writeFileSync(path.join(workDir, 'letter.txt'), 'Please activate our computer. Thanks!');
    const notARequest = await admin(
      'licenses',
      'offline-activate',
      purchase.licenseKey ?? '',
      '--request',
      'letter.txt',
      '--out',
      'other.json',
    );
    expect(notARequest.code).toBe(1);
    expect(notARequest.stderr).toContain(OFFLINE_MESSAGES.requestNotOne);
    const unknown = await admin(
      'licenses',
      'offline-activate',
      'NOPE1-NOPE2-NOPE3-NOPE4',
      '--request',
      'request.txt',
      '--out',
      'other.json',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No license with that key.');
    expect(() => readFileSync(path.join(workDir, 'other.json'))).toThrow();

    // The operator's license page shows the computer and when its file ends; Activity shows the action.
    const shown = await admin('licenses', 'show', purchase.licenseKey ?? '');
    expect(shown.stdout).toMatch(/OFFLINE FILE ENDS/);
    expect(shown.stdout).toMatch(/Accounts office\s+.+IST\s+.+IST\s+\d{4}-\d\d-\d\d \d\d:\d\d IST/);
    const activity = await admin('activity', '--search', 'offline_activate', '--json');
    expect(JSON.parse(activity.stdout)).toEqual([
      expect.objectContaining({
        action: 'license.offline_activate',
        target: `license:${purchase.licenseId}`,
        after: expect.objectContaining({ name: 'Accounts office' }),
      }),
    ]);

    // The same request uploaded on My Tools gets the same response: the same seat, nonce and deactivation key.
    const t = await openTestApp({ env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl } });
    try {
      const browser = await loginAs(t, { id: purchase.userId });
      const uploaded = await browser.post(`/api/my-licenses/${purchase.licenseId}/offline-activations`, {
        request,
      });
      expect(uploaded.statusCode).toBe(200);
      const { issuedAt: _a, refreshBefore: _b, ...fromMyTools } = payloadOf(uploaded.body);
      const { issuedAt: _c, refreshBefore: _d, ...fromOperator } = payloadOf(response);
      expect(fromMyTools).toEqual(fromOperator);
      expect(fromOperator).toMatchObject({ fingerprint: machine, licenseKey: purchase.licenseKey });
    } finally {
      await t.close();
    }
  });

  it('tools edit --offline-days sets the tool’s offline period, audited; a response then lasts that long', {
    timeout: 300_000,
  }, async () => {
    const refused = await admin('tools', 'edit', purchase.toolId, '--offline-days', '400');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--offline-days "400": A whole number of days from 1 to 365.');
    const set = await admin('tools', 'edit', purchase.toolId, '--offline-days', '30');
    expect(set.stderr).toBe('');
    expect(set.stdout).toMatch(/Offline activation\s+response files last 30 days/);
    const audited = await admin('activity', '--search', `tool:${purchase.toolId}`, '--json');
    expect(JSON.parse(audited.stdout)[0]).toMatchObject({
      action: 'tool.update',
      before: { offlineDays: 365 },
      after: { offlineDays: 30 },
    });

    const computer = new OfflineActivation({
      publicKeys,
      store: offlineStateFile(path.join(workDir, 'second', 'state.json')),
    });
    const request = await computer.createOfflineRequest({
      toolId: purchase.toolId,
      fingerprint: fingerprint(),
    });
    writeFileSync(path.join(workDir, 'second-request.txt'), request);
    const before = Date.now();
    const done = await admin(
      'licenses',
      'offline-activate',
      purchase.licenseKey ?? '',
      '--request',
      'second-request.txt',
      '--out',
      'second-response.json',
    );
    expect(done.code, done.stderr).toBe(0);
    const ends = Date.parse(
      payloadOf(readFileSync(path.join(workDir, 'second-response.json'), 'utf8')).refreshBefore,
    );
    expect(ends).toBeGreaterThanOrEqual(before + 30 * 24 * 60 * 60 * 1000);
    expect(ends).toBeLessThanOrEqual(Date.now() + 30 * 24 * 60 * 60 * 1000);
  });
});
