import { spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type RunningServer, startServer } from '../../e2e/support/server';
import { openDatabase } from '../../src/server/db';
import { licenseActivations, sessions, users } from '../../src/server/db/schema';
import { licensedPurchase } from '../../src/server/test-support/license-fixtures';

const root = path.resolve(import.meta.dirname, '../..');

/** Builds the site once if there is no build yet. */
export function ensureBuilt(): void {
  if (existsSync(path.join(root, 'dist/client/site-manifest.json'))) return;
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** A license activated on one machine: what a desktop tool sends to POST /api/licenses/validate. */
export type ActivatedLicense = { licenseKey: string; toolId: string; fingerprint: string };

export type ProductionServer = RunningServer & {
  sessionCookie: string;
  driver: 'pglite' | 'postgres';
  /** Many licenses of one tool, so a load test stays under the per-key limit of the license API. */
  licenses: ActivatedLicense[];
};

/** Licenses prepared for measuring the license API: each key may be validated 60 times a minute. */
const MEASURED_LICENSES = 600;

/**
 * Starts the server as production runs it (NODE_ENV=production: no emulator, no dev mailbox, HSTS, secure cookies)
 * on the embedded database, or on DATABASE_URL when given. A customer account with a live session is prepared
 * beforehand, so logged-in pages and APIs can be measured.
 */
export async function startProductionServer(databaseUrl?: string): Promise<ProductionServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'site-measure-'));
  const database = await openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite') });
  await database.migrate();
  const sessionId = randomBytes(32).toString('base64url');
  const email = `measure-${randomBytes(4).toString('hex')}@example.com`;
  const [user] = await database.db
    .insert(users)
    .values({ name: 'Measure Customer', email, phone: '+919876543210', passwordHash: 'unusable' })
    .returning({ id: users.id });
  if (!user) throw new Error('could not create the measuring user');
  await database.db.insert(sessions).values({
    idHash: createHash('sha256').update(sessionId).digest('hex'),
    userId: user.id,
    expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000),
  });
  const licenses: ActivatedLicense[] = [];
  let toolId: string | undefined;
  for (let index = 0; index < MEASURED_LICENSES; index++) {
    const purchase = await licensedPurchase(database.db, { toolId });
    toolId = purchase.toolId;
    const fingerprint = `measure-machine-${index.toString().padStart(8, '0')}`;
    await database.db.insert(licenseActivations).values({ licenseId: purchase.licenseId, fingerprint });
    licenses.push({ licenseKey: purchase.licenseKey ?? '', toolId, fingerprint });
  }
  await database.close();

  const server = await startServer(
    {
      NODE_ENV: 'production',
      FIRM_LEGAL_NAME: 'Pinkcity Advisors LLP',
      FIRM_ADDRESS: 'MI Road, Jaipur, Rajasthan 302001',
      FIRM_GSTIN: '08AAPFP1234A1ZK',
      PUBLIC_URL: 'https://measure.localhost',
      SMTP_URL: 'smtp://127.0.0.1:9',
      RAZORPAY_KEY_ID: 'rzp_test_measure',
      RAZORPAY_KEY_SECRET: 'measure_key_secret',
      RAZORPAY_WEBHOOK_SECRET: 'measure_webhook_secret',
      RAZORPAY_API_URL: 'http://127.0.0.1:9',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      LICENSE_SIGNING_KEY: generateKeyPairSync('ed25519')
        .privateKey.export({ format: 'pem', type: 'pkcs8' })
        .toString(),
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl ?? '',
    },
    { dataDir },
  );
  return {
    ...server,
    sessionCookie: `sessionid=${sessionId}`,
    driver: databaseUrl ? 'postgres' : 'pglite',
    licenses,
  };
}
