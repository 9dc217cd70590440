import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OfflineActivation,
  offlineStateFile,
  type PublicKey,
} from '../../../packages/license-client/src/index';
import { fingerprint, type LicensedPurchase, licensedPurchase } from '../../../test/support/license-fixtures';
import { createShopTestApp, loginAs, type ShopTestApp } from '../../../test/support/shop-fixtures';
import { OFFLINE_MESSAGES } from '../../shared/offline-activation';
import { type CommandLineEnv, runCommandLine } from '../cli/command-line';
import { cliActor } from '../operator/audit';

/**
 * A request sent by email (issue 67): the operator answers it with `npm run admin -- licenses offline-activate`,
 * audited, and the response is the one My Tools gives for the same request. The command line runs through its
 * dispatcher in this process, on the test's database (PGlite and PostgreSQL), in a folder of its own.
 */
let t: ShopTestApp;
let cli: CommandLineEnv;
let workDir: string;
let purchase: LicensedPurchase;
let publicKeys: PublicKey[];

beforeAll(async () => {
  t = await createShopTestApp();
  workDir = mkdtempSync(path.join(tmpdir(), 'offline-cli-mail-'));
  cli = { cwd: workDir, actor: cliActor('tester'), open: async () => t.ctx, snapshot: async () => undefined };
  purchase = await licensedPurchase(t.ctx);
  publicKeys = (await t.app.inject({ method: 'GET', url: '/api/licenses/public-keys' })).json().keys;
});
afterAll(async () => {
  await t.close();
  rmSync(workDir, { recursive: true, force: true });
});

const admin = (...args: string[]) => runCommandLine(args, cli);
const payloadOf = (file: string) =>
  JSON.parse(Buffer.from(JSON.parse(file).payload, 'base64').toString('utf8'));
const computerIn = (folder: string) =>
  new OfflineActivation({
    publicKeys,
    store: offlineStateFile(path.join(workDir, folder, 'state.json')),
    now: () => t.clock.now(),
  });

describe('licenses offline-activate', () => {
  it('answers an emailed request with the response My Tools gives, audited, and refuses what it cannot answer', async () => {
    const computer = computerIn('computer');
    const machine = fingerprint('emailed');
    const request = await computer.createOfflineRequest({
      toolId: purchase.toolId,
      fingerprint: machine,
      name: 'Accounts office',
    });
    // As it arrives by email: the line, and a line break after it.
    writeFileSync(path.join(workDir, 'request.txt'), `${request}\r\n`);
    const activate = (key: string, requestFile: string, out: string) =>
      admin('licenses', 'offline-activate', key, '--request', requestFile, '--out', out);

    const done = await activate(purchase.licenseKey?.toLowerCase() ?? '', 'request.txt', 'response.json');
    expect(done.stderr).toBe('');
    expect(done.exitCode).toBe(0);
    expect(done.stdout).toMatch(
      /^Accounts office \([0-9a-f]{8}\) is activated without internet until .+ IST\. Send .+response\.json to the buyer/,
    );
    const response = readFileSync(path.join(workDir, 'response.json'), 'utf8');
    expect(await computer.activateOffline(response)).toMatchObject({ valid: true, status: 'active' });

    // Nothing is written over a file, and no seat is taken for a response that could not be saved.
    const again = await activate(purchase.licenseKey ?? '', 'request.txt', 'response.json');
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('response.json exists; name a new file.');
    expect(readFileSync(path.join(workDir, 'response.json'), 'utf8')).toBe(response);
    writeFileSync(path.join(workDir, 'letter.txt'), 'Please activate our computer. Thanks!');
    const notARequest = await activate(purchase.licenseKey ?? '', 'letter.txt', 'other.json');
    expect(notARequest.exitCode).toBe(1);
    expect(notARequest.stderr).toContain(OFFLINE_MESSAGES.requestNotOne);
    const unknown = await activate('NOPE1-NOPE2-NOPE3-NOPE4', 'request.txt', 'other.json');
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('No license with that key.');
    expect(() => readFileSync(path.join(workDir, 'other.json'))).toThrow();

    // The operator's license page shows the computer and when its file ends; Activity shows the action.
    const shown = await admin('licenses', 'show', purchase.licenseKey ?? '');
    expect(shown.stdout).toMatch(/OFFLINE FILE ENDS/);
    expect(shown.stdout).toMatch(/Accounts office\s+.+IST\s+.+IST\s+\d{4}-\d\d-\d\d \d\d:\d\d IST/);
    const activity = await admin('activity', '--search', 'offline_activate', '--json');
    expect(JSON.parse(activity.stdout)).toEqual([
      expect.objectContaining({
        actor: 'cli:tester',
        action: 'license.offline_activate',
        target: `license:${purchase.licenseId}`,
        after: expect.objectContaining({ name: 'Accounts office' }),
      }),
    ]);

    // The same request uploaded on My Tools gets the same response: the same seat, nonce and deactivation key.
    const browser = await loginAs(t, { id: purchase.userId });
    const uploaded = await browser.post(`/api/my-licenses/${purchase.licenseId}/offline-activations`, {
      request,
    });
    expect(uploaded.statusCode).toBe(200);
    const { issuedAt: _a, refreshBefore: _b, ...fromMyTools } = payloadOf(uploaded.body);
    const { issuedAt: _c, refreshBefore: _d, ...fromOperator } = payloadOf(response);
    expect(fromMyTools).toEqual(fromOperator);
    expect(fromOperator).toMatchObject({ fingerprint: machine, licenseKey: purchase.licenseKey });
  });

  it('tools edit --offline-days sets the tool’s offline period, audited; a response then lasts that long', async () => {
    const refused = await admin('tools', 'edit', purchase.toolId, '--offline-days', '400');
    expect(refused.exitCode).toBe(1);
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

    const request = await computerIn('second').createOfflineRequest({
      toolId: purchase.toolId,
      fingerprint: fingerprint(),
    });
    writeFileSync(path.join(workDir, 'second-request.txt'), request);
    const done = await admin(
      'licenses',
      'offline-activate',
      purchase.licenseKey ?? '',
      '--request',
      'second-request.txt',
      '--out',
      'second-response.json',
    );
    expect(done.exitCode, done.stderr).toBe(0);
    const ends = Date.parse(
      payloadOf(readFileSync(path.join(workDir, 'second-response.json'), 'utf8')).refreshBefore,
    );
    expect(ends).toBe(t.clock.now().getTime() + 30 * 24 * 60 * 60 * 1000);
  });
});
