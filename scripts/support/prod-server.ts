import { spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type RunningServer, startServer } from '../../e2e/support/server';
import { type Database, openDatabase } from '../../src/server/db';
import { sessions, users } from '../../src/server/db/schema/accounts';
import { tools } from '../../src/server/db/schema/catalogue';
import { licenseActivations, licenses as licenseRows } from '../../src/server/db/schema/licenses';
import { orders, purchases } from '../../src/server/db/schema/orders';
import { createDataSecrets, type DataSecrets } from '../../src/server/kernel/data-secrets';
import { generateLicenseKey } from '../../src/server/licenses/create';
import { storedSecret } from '../../src/server/licenses/secrets-at-rest';
import { updateTokenHash, updateTokenOf } from '../../src/server/licenses/update-tokens';
import { licensedPurchase } from '../../test/support/license-fixtures';

const root = path.resolve(import.meta.dirname, '../..');

/** Builds the server and the site once if there is no build yet. */
export function ensureBuilt(): void {
  const built = ['dist/client/site-manifest.json', 'dist/server/main.js'];
  if (built.every((file) => existsSync(path.join(root, file)))) return;
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** A license activated on one machine: what a desktop tool sends to POST /api/licenses/validate. */
export type ActivatedLicense = { licenseKey: string; toolId: string; fingerprint: string };
/** What `startProductionServer`'s `seed` is given: the database before the server starts, and its data folder. */
export type SeedTarget = { db: Database; secrets: DataSecrets; dataDir: string };

/**
 * The same with the machine's update-feed token (`/api/updates/<token>/`), as its activate answer gives it, and
 * the license's own id and holder (My Tools' address of it, the buyer who may change it).
 */
export type FleetMachine = ActivatedLicense & { token: string; licenseId: string; holderId: string };

/**
 * What the tool sends to the license API, and nothing else: its schemas are strict, so a machine's feed token in
 * the body is a 400 (the bench measured refusals for a week when the fleet's tokens were passed along with it).
 */
export const licenseBody = ({ licenseKey, toolId, fingerprint }: ActivatedLicense): ActivatedLicense => ({
  licenseKey,
  toolId,
  fingerprint,
});

export type ProductionServer = RunningServer & {
  sessionCookie: string;
  driver: 'pglite' | 'postgres';
  /** Many licenses of one tool, so a load test stays under the per-key limit of the license API. */
  licenses: ActivatedLicense[];
  /** The signed-in customer's paid order (with its license), when one was asked for: the order page's address. */
  paidOrderId?: string;
  /**
   * Licenses of a floating tool (decision 049), one machine each, when asked for. Their activations hold no lease
   * yet (a lapsed one): each machine activates before it sends heartbeats, as the reference client does.
   */
  floatingLicenses: ActivatedLicense[];
};

/**
 * Licenses prepared for measuring the license API. Each key may be validated 60 times a minute per instance, so a
 * run of validate (2 s warm-up and the measured seconds) at up to 72,000 req/s needs this many to stay under it.
 */
const MEASURED_LICENSES = 12_000;
const INSERT_BATCH = 500;

/**
 * Many buyers of one tool, each with a license activated on one machine seen just now, as a tool that starts often
 * is (so validate has no "last seen" to write for 5 minutes). Inserted in batches: one purchase at a time would
 * take minutes.
 */
export async function activatedLicenses(
  db: Database,
  secrets: DataSecrets,
  count: number,
  {
    licenseModel = 'per-device',
    name,
    toolId,
    license,
  }: {
    licenseModel?: 'per-device' | 'floating';
    name?: string;
    /** A tool seeded already (the soak's tool with editions) instead of a new one. */
    toolId?: string;
    /** More of each license row (its edition, its end of updates). */
    license?: Pick<typeof licenseRows.$inferInsert, 'editionId' | 'updatesUntil'>;
  } = {},
): Promise<FleetMachine[]> {
  const tag = randomBytes(4).toString('hex');
  const [tool] = toolId
    ? [{ id: toolId }]
    : await db
        .insert(tools)
        .values({
          name: name ?? `Measured ${licenseModel === 'floating' ? 'floating ' : ''}tool ${tag}`,
          description: 'A tool whose licenses the bench validates.',
          device: 'Windows',
          priceInrPaise: 99_900,
          delivery: 'license_key',
          licenseModel,
        })
        .returning({ id: tools.id });
  if (!tool) throw new Error('could not create the measured tool');
  const prepared: FleetMachine[] = [];
  for (let start = 0; start < count; start += INSERT_BATCH) {
    const batch = Array.from({ length: Math.min(INSERT_BATCH, count - start) }, (_, offset) => {
      const index = start + offset;
      const activationId = randomUUID();
      return {
        index,
        activationId,
        token: updateTokenOf(secrets, activationId),
        userId: randomUUID(),
        orderId: randomUUID(),
        purchaseId: randomUUID(),
        licenseId: randomUUID(),
        licenseKey: generateLicenseKey(),
        fingerprint: `measure-machine-${index.toString().padStart(8, '0')}`,
      };
    });
    await db.insert(users).values(
      batch.map((row) => ({
        id: row.userId,
        name: `Licensee ${row.index}`,
        email: `licensee-${tag}-${row.index}@example.com`,
        phone: '+919876543210',
        passwordHash: 'unusable',
      })),
    );
    await db.insert(orders).values(
      batch.map((row) => ({
        id: row.orderId,
        userId: row.userId,
        toolId: tool.id,
        razorpayOrderId: `order_${tag}${row.index}`,
        razorpayPaymentId: `pay_${tag}${row.index}`,
        amount: 99_900,
        currency: 'INR' as const,
        billing: {
          address: 'Bench address, Jaipur',
          state: 'Rajasthan',
          country: 'India',
          gstin: '',
          currency: 'INR' as const,
        },
        status: 'paid' as const,
        paidAt: new Date(),
      })),
    );
    await db.insert(purchases).values(
      batch.map((row) => ({
        id: row.purchaseId,
        userId: row.userId,
        toolId: tool.id,
        orderId: row.orderId,
      })),
    );
    await db.insert(licenseRows).values(
      batch.map((row) => ({
        id: row.licenseId,
        holderId: row.userId,
        purchaseId: row.purchaseId,
        ...storedSecret(secrets, { licenseKey: row.licenseKey }),
        ...license,
      })),
    );
    await db.insert(licenseActivations).values(
      batch.map((row) => ({
        id: row.activationId,
        licenseId: row.licenseId,
        fingerprint: row.fingerprint,
        updateTokenHash: updateTokenHash(secrets, row.token),
      })),
    );
    for (const row of batch) {
      prepared.push({
        licenseKey: row.licenseKey,
        toolId: tool.id,
        fingerprint: row.fingerprint,
        token: row.token,
        licenseId: row.licenseId,
        holderId: row.userId,
      });
    }
  }
  return prepared;
}

/**
 * A live session for each of `userIds`, written straight in as signing in writes one (a day long): the cookie each
 * browser sends, in the same order.
 */
export async function signedIn(db: Database, userIds: readonly string[]): Promise<string[]> {
  const sessionIds = userIds.map(() => randomBytes(32).toString('base64url'));
  const expiresAt = new Date(Date.now() + 24 * 60 * 60 * 1000);
  for (let start = 0; start < userIds.length; start += INSERT_BATCH)
    await db.insert(sessions).values(
      userIds.slice(start, start + INSERT_BATCH).map((userId, offset) => ({
        idHash: createHash('sha256')
          .update(sessionIds[start + offset] ?? '')
          .digest('hex'),
        userId,
        expiresAt,
      })),
    );
  return sessionIds.map((sessionId) => `sessionid=${sessionId}`);
}

/**
 * A new embedded database takes its first daily snapshot as the server starts (jobs.ts); measuring during it would
 * measure that once-a-day job (bench --scale measures the site during a snapshot on purpose). Waits for it.
 */
async function firstSnapshotWritten(dataDir: string, timeoutMs = 180_000): Promise<void> {
  const backups = path.join(dataDir, 'backups');
  for (const started = Date.now(); Date.now() - started < timeoutMs; ) {
    if (existsSync(backups) && readdirSync(backups).some((name) => name.endsWith('.tar.gz'))) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server's first snapshot was not written within ${timeoutMs / 1000} s`);
}

/**
 * Starts the server as production runs it (the built JavaScript, NODE_ENV=production: no emulator, no dev mailbox,
 * HSTS, secure cookies) on the embedded database, or on `databaseUrl` when given. A customer account with a live
 * session is prepared beforehand, so logged-in pages and APIs can be measured, and a tool with `licenses` licenses
 * (the bench's 12,000 by default; the page audit needs none). `env` overrides the server's settings (the soak points
 * mail and Razorpay at real local peers).
 */
export async function startProductionServer(
  options: {
    databaseUrl?: string;
    licenses?: number;
    env?: Record<string, string>;
    /** Gives the signed-in customer a paid order with its license (the page audit measures its order page). */
    paidOrder?: boolean;
    /** How many licenses of a floating tool to prepare (the soak's heartbeats); none by default. */
    floatingLicenses?: number;
    /** More of the shop to seed before the server starts (the release-day bench's fleet and releases). */
    seed?: (target: SeedTarget) => Promise<void>;
  } = {},
): Promise<ProductionServer> {
  const { databaseUrl, licenses: licenseCount = MEASURED_LICENSES } = options;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'site-measure-'));
  const database = await openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite') });
  await database.migrate();
  const email = `measure-${randomBytes(4).toString('hex')}@example.com`;
  const [user] = await database.db
    .insert(users)
    .values({ name: 'Measure Customer', email, phone: '+919876543210', passwordHash: 'unusable' })
    .returning({ id: users.id });
  if (!user) throw new Error('could not create the measuring user');
  const [sessionCookie = ''] = await signedIn(database.db, [user.id]);
  // Sealed with the key the server is given, as fulfilment seals them (decision 032).
  // One key for every run: a PostgreSQL bench database keeps the licenses of earlier runs, and the server refuses
  // to start beside sealed values it cannot open.
  const dataSecretKey = createHash('sha256').update('npm run bench: a throwaway database').digest('hex');
  const secrets = createDataSecrets({
    dataSecret: { key: Buffer.from(dataSecretKey, 'hex'), previousKeys: [] },
    dataDir,
  });
  const licenses = (await activatedLicenses(database.db, secrets, licenseCount)).map(licenseBody);
  const floatingLicenses = options.floatingLicenses
    ? (
        await activatedLicenses(database.db, secrets, options.floatingLicenses, { licenseModel: 'floating' })
      ).map(licenseBody)
    : [];
  const paidOrderId = options.paidOrder
    ? (await licensedPurchase({ db: database.db, dataSecrets: secrets }, { userId: user.id })).orderId
    : undefined;
  await options.seed?.({ db: database.db, secrets, dataDir });
  // Settled as a database in steady use is: PostgreSQL's autovacuum would otherwise vacuum and analyse the tables
  // just filled while the routes are measured, a core busy for seconds in some turns and not in others.
  await database.db.execute(sql`VACUUM ANALYZE`);
  // And its write-ahead log folded in: a fleet's worth of inserts left hundreds of MB of it, which the embedded
  // database's first snapshot would otherwise copy.
  await database.db.execute(sql`CHECKPOINT`);
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
      DATA_SECRET_KEY: dataSecretKey,
      LICENSE_SIGNING_KEY: generateKeyPairSync('ed25519')
        .privateKey.export({ format: 'pem', type: 'pkcs8' })
        .toString(),
      RELEASE_SIGNING_KEY: generateKeyPairSync('ed25519')
        .privateKey.export({ format: 'pem', type: 'pkcs8' })
        .toString(),
      TRUST_PROXY: '1',
      // No load balancer to leave: the server stops at once instead of draining for 5 s.
      SHUTDOWN_DRAIN_SECONDS: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl ?? '',
      // Production's own tuning (README: NODE_OPTIONS) or a profiler's flags, for the server alone.
      NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS ?? '',
      // The soak's real mail sink and payment emulator, a metrics token (scripts/soak.ts).
      ...options.env,
    },
    {
      dataDir,
      built: true,
      // A profiler's flags, which NODE_OPTIONS refuses: BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=reports/prof".
      nodeArgs: process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean),
      // A seeded fleet of 100,000 machines opens in minutes on a busy machine.
      startTimeoutMs: options.seed ? 900_000 : undefined,
    },
  );
  // A seeded fleet's first snapshot takes minutes on a busy 2-core machine.
  if (!databaseUrl) await firstSnapshotWritten(dataDir, options.seed ? 900_000 : undefined);
  return {
    ...server,
    sessionCookie,
    driver: databaseUrl ? 'postgres' : 'pglite',
    licenses,
    paidOrderId,
    floatingLicenses,
  };
}
