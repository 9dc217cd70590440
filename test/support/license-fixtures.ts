import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../src/server/db/index';
import { users } from '../../src/server/db/schema/accounts';
import { tools } from '../../src/server/db/schema/catalogue';
import { licenseActivations, licenses } from '../../src/server/db/schema/licenses';
import { orders, purchases } from '../../src/server/db/schema/orders';
import type { DataSecrets } from '../../src/server/kernel/data-secrets';
import { generateCredentials, generateLicenseKey } from '../../src/server/licenses/create';
import { storedSecret } from '../../src/server/licenses/secrets-at-rest';
import { updateTokenHash, updateTokenOf, updateUrlsOf } from '../../src/server/licenses/update-tokens';
import type { LicenseAnswer } from '../../src/shared/licenses';
import type { TestApp } from './app';

export type LicensedPurchase = {
  userId: string;
  toolId: string;
  orderId: string;
  purchaseId: string;
  licenseId: string;
  licenseKey: string | null;
  username: string | null;
  password: string | null;
};

/**
 * A paid purchase with its license, written straight into the database (buying through the emulator has its own
 * tests). Given an app context, the license's secrets are stored hashed and sealed as the app stores them; given
 * a bare database (one a separate server process will open), they are stored in clear, as before decision 032,
 * and that server seals them when it starts.
 */
export async function licensedPurchase(
  target: Database | { db: Database; dataSecrets: DataSecrets },
  options: {
    delivery?: 'license_key' | 'credentials';
    activationLimit?: number;
    userId?: string;
    toolId?: string;
  } = {},
): Promise<LicensedPurchase> {
  const db = 'dataSecrets' in target ? target.db : target;
  const tag = randomBytes(4).toString('hex');
  const userId =
    options.userId ??
    (
      await db
        .insert(users)
        .values({
          name: `Licensee ${tag}`,
          email: `licensee-${tag}@example.com`,
          phone: '+919876543210',
          passwordHash: 'fixture-user-cannot-log-in',
        })
        .returning({ id: users.id })
    )[0]?.id;
  const toolId =
    options.toolId ??
    (
      await db
        .insert(tools)
        .values({
          name: `Licensed tool ${tag}`,
          description: 'A tool created by a license test fixture.',
          device: 'Windows',
          priceInrPaise: 99_900,
          delivery: options.delivery ?? 'license_key',
          activationLimit: options.activationLimit ?? 2,
        })
        .returning({ id: tools.id })
    )[0]?.id;
  if (!userId || !toolId) throw new Error('fixture insert returned no row');
  const [order] = await db
    .insert(orders)
    .values({
      userId,
      toolId,
      razorpayOrderId: `order_${tag}${randomBytes(3).toString('hex')}`,
      razorpayPaymentId: `pay_${tag}${randomBytes(3).toString('hex')}`,
      amount: 99_900,
      currency: 'INR',
      billing: {
        address: 'Fixture address, Jaipur',
        state: 'Rajasthan',
        country: 'India',
        gstin: '',
        currency: 'INR',
      },
      status: 'paid',
      paidAt: new Date(),
    })
    .returning({ id: orders.id });
  if (!order) throw new Error('order insert returned no row');
  const [purchase] = await db
    .insert(purchases)
    .values({ userId, toolId, orderId: order.id })
    .returning({ id: purchases.id });
  if (!purchase) throw new Error('purchase insert returned no row');
  const [tool] = await db.select({ delivery: tools.delivery }).from(tools).where(eq(tools.id, toolId));
  const secret =
    tool?.delivery === 'credentials'
      ? { licenseKey: null, ...generateCredentials() }
      : { licenseKey: generateLicenseKey(), username: null, password: null };
  const stored =
    'dataSecrets' in target
      ? storedSecret(
          target.dataSecrets,
          secret.licenseKey === null
            ? { username: secret.username, password: secret.password }
            : { licenseKey: secret.licenseKey },
        )
      : // As a database from before decision 032 held it: the server seals it when it starts.
        { plainLicenseKey: secret.licenseKey, username: secret.username, plainPassword: secret.password };
  const [license] = await db
    .insert(licenses)
    .values({ holderId: userId, purchaseId: purchase.id, ...stored })
    .returning({ id: licenses.id });
  if (!license) throw new Error('license insert returned no row');
  return { userId, toolId, orderId: order.id, purchaseId: purchase.id, licenseId: license.id, ...secret };
}

/** A fingerprint of the allowed shape, different every call. */
/**
 * `POST /api/licenses/<action>` with `body` in JSON, as a desktop tool calls the license API (from `remoteAddress`
 * when given, so that a test's calls need not share one address's rate limit). The answer as it came back.
 */
export function licenseApiCall(
  t: Pick<TestApp, 'app'>,
  action: string,
  body: Record<string, unknown>,
  remoteAddress?: string,
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/licenses/${action}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** The update check a Windows x64 `machine` running `version` of `purchase`'s tool sends, as the reference client does. */
export function windowsUpdateCheck(
  t: Pick<TestApp, 'app'>,
  purchase: { licenseKey: string | null; toolId: string },
  machine: { fingerprint: string },
  version: string,
  remoteAddress?: string,
) {
  const body = {
    licenseKey: purchase.licenseKey,
    toolId: purchase.toolId,
    fingerprint: machine.fingerprint,
    platform: 'windows',
    arch: 'x64',
    version,
  };
  return licenseApiCall(t, 'update-check', body, remoteAddress);
}

export const fingerprint = (label = 'machine') => `${label}-${randomBytes(12).toString('hex')}`;

export type ActivatedMachine = {
  activationId: string;
  fingerprint: string;
  /** The machine's feeds, as its activate answer would give them. */
  appcastUrl: string;
  velopackUrl: string;
};

/**
 * `count` machines activated on one license, written straight into the database in bulk (activate has its own
 * tests), each with its update-feed token as activate stores it. For tests of many machines (rollouts).
 */
export async function activatedMachines(
  target: { db: Database; dataSecrets: DataSecrets; config: { publicUrl: string } },
  licenseId: string,
  count: number,
): Promise<ActivatedMachine[]> {
  const machines = Array.from({ length: count }, (_, index) => {
    const activationId = randomUUID();
    const token = updateTokenOf(target.dataSecrets, activationId);
    return {
      activationId,
      fingerprint: `${fingerprint(`fleet-${index}`)}`,
      token,
      ...updateUrlsOf(target.config.publicUrl, token),
    };
  });
  for (let start = 0; start < machines.length; start += 500) {
    await target.db.insert(licenseActivations).values(
      machines.slice(start, start + 500).map((machine) => ({
        id: machine.activationId,
        licenseId,
        fingerprint: machine.fingerprint,
        updateTokenHash: updateTokenHash(target.dataSecrets, machine.token),
      })),
    );
  }
  return machines.map(({ token: _token, ...machine }) => machine);
}

/** `POST /api/licenses/<action>` over real HTTP to the server at `baseUrl`, as a desktop tool calls it. */
export function licenseApiOverHttp(baseUrl: string, action: string, body: Record<string, unknown>) {
  return fetch(`${baseUrl}/api/licenses/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/**
 * Activates `purchase` on `machine` over real HTTP at `baseUrl`, as the desktop tool does (the updaters that follow
 * read the same server). The machine and the update feeds its answer named.
 */
export async function activateOverHttp(
  baseUrl: string,
  purchase: { licenseKey: string | null; toolId: string },
  machine = fingerprint(),
) {
  const response = await licenseApiOverHttp(baseUrl, 'activate', {
    licenseKey: purchase.licenseKey,
    toolId: purchase.toolId,
    fingerprint: machine,
  });
  const answer = (await response.json()) as LicenseAnswer;
  if (!answer.updates) throw new Error(`activate answered ${JSON.stringify(answer)}`);
  return { machine, ...answer.updates };
}
