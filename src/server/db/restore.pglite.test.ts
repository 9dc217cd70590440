import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpClient, runCli, ServerProcess } from '../../../test/support/processes';

/**
 * Issue 50's must-show: the README's Backups procedure, followed as written, moves a development shop (keys made in
 * its DATA_DIR) to a fresh DATA_DIR: it starts, signs the buyer in, lists the purchase, and signs the next license
 * file with the key the installed tools already trust. Without the keys, `restore` refuses, naming them, and leaves
 * nothing behind.
 */

/** Settings of a development install: every key made in DATA_DIR on first use. */
const DEVELOPMENT = { NODE_ENV: 'development', DATA_SECRET_KEY: '', SESSION_SECRET: '', LOG_LEVEL: 'warn' };
const PASSWORD = 'Restore drill 2026';
const servers: ServerProcess[] = [];
const folders: string[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const cliEnv = (dataDir: string) => ({ ...process.env, ...DEVELOPMENT, DATA_DIR: dataDir, DATABASE_URL: '' });

async function started(dataDir?: string) {
  const server = new ServerProcess(DEVELOPMENT, 0, dataDir ? { dataDir } : { migrated: true });
  servers.push(server);
  await server.start(120_000);
  return server;
}

async function codeFor(dataDir: string, email: string): Promise<string> {
  const folder = path.join(dataDir, 'mail');
  for (let tries = 0; tries < 100; tries++) {
    const mails = existsSync(folder)
      ? readdirSync(folder)
          .filter((name) => name.endsWith('-signup-code.json'))
          .map(
            (name) =>
              JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as { to: string; text: string },
          )
          .filter((mail) => mail.to === email)
      : [];
    const code = /^\s+(\d{4})\s*$/m.exec(mails.at(-1)?.text ?? '')?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no signup code to ${email}`);
}

describe('backup and restore as the README says', () => {
  it('moves the shop to a fresh DATA_DIR that starts, signs in, lists the purchase and keeps the signing key', async () => {
    const old = await started();
    const buyer = new HttpClient(old.url);
    await buyer.get('/api/csrf-token/');
    const email = `restore.${Date.now().toString(36)}@example.com`;
    expect((await buyer.post('/api/auth/send-otp/', { name: 'Restore Buyer', email })).status).toBe(200);
    const otp = await codeFor(old.dataDir, email);
    const signup = { name: 'Restore Buyer', email, phone: '+919876543210', password: PASSWORD, otp };
    expect((await buyer.post('/api/auth/initiate-signup/', signup)).status).toBe(200);
    const tools = (await (await buyer.get('/api/alltools/')).json()) as Array<{
      _id: string;
      comingSoon: boolean;
    }>;
    const toolId = tools.find((tool) => !tool.comingSoon)?._id ?? '';
    const created = await buyer.postJson('/api/create-payment/', {
      toolId,
      currency: 'INR',
      billingDetails: {
        address: 'MI Road, Jaipur',
        state: 'Rajasthan',
        country: 'India',
        gstin: '',
        currency: 'INR',
      },
    });
    expect(created.status, await created.clone().text()).toBe(200);
    const { order_id: orderId } = (await created.json()) as { order_id: string };
    const { keyId } = (await (await buyer.get('/api/payments/config/')).json()) as { keyId: string };
    const paid = await fetch(`${old.url}/emulator/razorpay/checkout/${orderId}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key_id: keyId }),
    });
    expect((await buyer.postJson('/api/verify-payment/', await paid.json())).status).toBe(200);
    const oldKeys = (await (await fetch(`${old.url}/api/licenses/public-keys`)).json()) as {
      keys: Array<{ kid: string; publicKey: string }>;
    };

    // The README: a snapshot, and beside it the files of DATA_DIR it lists.
    const backup = await runCli(['backup'], { env: cliEnv(old.dataDir) });
    expect(backup.code, backup.stderr).toBe(0);
    // The newest: the server also wrote one when it started, before the purchase.
    const snapshotName = readdirSync(path.join(old.dataDir, 'backups')).sort().at(-1);
    const offsite = mkdtempSync(path.join(tmpdir(), 'offsite-'));
    folders.push(offsite);
    const snapshot = path.join(offsite, snapshotName ?? '');
    cpSync(path.join(old.dataDir, 'backups', snapshotName ?? ''), snapshot);
    const kept = ['data-secret-key', 'license-signing-key.pem', 'release-signing-key.pem', 'session-secret'];
    for (const name of kept) cpSync(path.join(old.dataDir, name), path.join(offsite, name));
    await old.stop();

    // Without the keys: refused, naming them, and the fresh DATA_DIR is left as it was (not there).
    const bare = path.join(mkdtempSync(path.join(tmpdir(), 'bare-')), 'data');
    folders.push(path.dirname(bare));
    const refused = await runCli(['restore', snapshot], { env: cliEnv(bare) });
    expect(refused.code).toBe(1);
    for (const name of [
      'data-secret-key',
      'license-signing-key.pem',
      'DATA_SECRET_KEY',
      'LICENSE_SIGNING_KEY',
    ])
      expect(refused.stderr).toContain(name);
    expect(existsSync(bare)).toBe(false);

    /** A DATA_DIR with the kept files, but in `file` a signing key other than the one the snapshot's shop used. */
    const withOtherKey = (prefix: string, file: string) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
      folders.push(dataDir);
      for (const name of kept) cpSync(path.join(offsite, name), path.join(dataDir, name));
      writeFileSync(
        path.join(dataDir, file),
        generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }),
        { mode: 0o600 },
      );
      return dataDir;
    };

    // With a release signing key other than the one that signed its releases (the sample tools' 1.0.0): refused,
    // naming the key id the snapshot needs, and no database is written.
    const rekeyed = withOtherKey('rekeyed-', 'release-signing-key.pem');
    const wrongKey = await runCli(['restore', snapshot], { env: cliEnv(rekeyed) });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain('the release signing key that signed this snapshot');
    expect(existsSync(path.join(rekeyed, 'pglite'))).toBe(false);

    // The same for the license signing key (issue 63): one other than the key the shop signed its licenses with is
    // refused, naming the key id the snapshot needs, and no database is written.
    const relicensed = withOtherKey('relicensed-', 'license-signing-key.pem');
    const wrongLicenseKey = await runCli(['restore', snapshot], { env: cliEnv(relicensed) });
    expect(wrongLicenseKey.code, wrongLicenseKey.stdout).toBe(1);
    expect(wrongLicenseKey.stderr).toContain('the license signing key that signed this snapshot');
    expect(wrongLicenseKey.stderr).toContain(oldKeys.keys[0]?.kid ?? 'no key id');
    expect(existsSync(path.join(relicensed, 'pglite'))).toBe(false);

    // With them copied into the new DATA_DIR first: restored, and the shop starts on it.
    const fresh = mkdtempSync(path.join(tmpdir(), 'restored-'));
    for (const name of kept) cpSync(path.join(offsite, name), path.join(fresh, name));
    const restored = await runCli(['restore', snapshot], { env: cliEnv(fresh) });
    expect(restored.code, restored.stderr).toBe(0);
    const again = await started(fresh);
    const client = new HttpClient(again.url);
    await client.get('/api/csrf-token/');
    expect((await client.post('/api/auth/login/', { email, password: PASSWORD })).status).toBe(200);
    const orders = (await (await client.get('/api/orders/')).json()) as Array<{ status: string }>;
    expect(orders.map((order) => order.status)).toEqual(['paid']);
    const [license] = (await (await client.get('/api/my-licenses/')).json()) as Array<{ licenseKey: string }>;
    const activated = (await (
      await client.postJson('/api/licenses/activate', {
        licenseKey: license?.licenseKey,
        toolId,
        fingerprint: 'restored-machine-0001',
      })
    ).json()) as { code: string; licenseFile: string };
    expect(activated.code).toBe('VALID');
    const file = JSON.parse(activated.licenseFile) as { kid: string; payload: string; signature: string };
    const trusted = oldKeys.keys.find((key) => key.kid === file.kid);
    expect(trusted).toBeDefined();
    expect(
      verify(
        null,
        Buffer.from(file.payload, 'base64'),
        createPublicKey(trusted?.publicKey ?? ''),
        Buffer.from(file.signature, 'base64'),
      ),
    ).toBe(true);
  }, 400_000);
});
