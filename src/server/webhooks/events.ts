import { and, eq, isNull, sql } from 'drizzle-orm';
import type { WebhookEvent } from '../../shared/webhooks';
import type { DbOrTx } from '../db';
import { users } from '../db/schema/accounts';
import { tools } from '../db/schema/catalogue';
import { licenses } from '../db/schema/licenses';
import { orders, purchases } from '../db/schema/orders';
import { releases } from '../db/schema/releases';
import { trials } from '../db/schema/trials';
import { webhookDeliveries, webhookEndpoints } from '../db/schema/webhooks';
import { newMessageId } from './signing';

/**
 * Queuing webhook events (decision 046). Each helper is called with the transaction that makes the change it
 * reports, so a delivery exists exactly when the change does: a rolled-back change sends nothing. Payloads carry
 * ids and the facts a receiver needs, never a password, license key or token; the buyer's address only where a
 * receiver needs it (customer.created, order.paid), and erasure removes it from every stored payload.
 */

type EventOptions = { at: Date; customerId?: string | null };

/** Queues one event for every enabled endpoint that asked for it; nothing when none did. */
export async function enqueueWebhookEvent(
  db: DbOrTx,
  event: WebhookEvent,
  data: Record<string, unknown>,
  options: EventOptions,
): Promise<number> {
  const endpoints = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.enabled, true),
        sql`${webhookEndpoints.events} @> ${JSON.stringify([event])}::jsonb`,
      ),
    );
  if (endpoints.length === 0) return 0;
  const messageId = newMessageId();
  const payload = { type: event, timestamp: options.at.toISOString(), data };
  await db.insert(webhookDeliveries).values(
    endpoints.map((endpoint) => ({
      endpointId: endpoint.id,
      messageId,
      event,
      payload,
      customerId: options.customerId ?? null,
      createdAt: options.at,
      nextAttemptAt: options.at,
    })),
  );
  return endpoints.length;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The order and the customer's id and address, as order events carry them. */
async function orderFacts(db: DbOrTx, orderId: string) {
  const [row] = await db
    .select({
      order: {
        id: orders.id,
        status: orders.status,
        toolId: orders.toolId,
        amount: orders.amount,
        currency: orders.currency,
        couponCode: orders.couponCode,
        discount: orders.discount,
        razorpayPaymentId: orders.razorpayPaymentId,
        paidAt: orders.paidAt,
      },
      toolName: tools.name,
      customer: { id: users.id, email: users.email },
    })
    .from(orders)
    .innerJoin(tools, eq(tools.id, orders.toolId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!row) throw new Error(`webhook event for a missing order ${orderId}`);
  return {
    order: { ...row.order, toolName: row.toolName, paidAt: iso(row.order.paidAt) },
    customer: row.customer,
  };
}

/** `order.paid` and `license.created` for a fulfilled purchase (fulfilment, in its transaction). */
export async function queuePurchaseEvents(
  db: DbOrTx,
  purchase: { orderId: string; purchaseId: string },
  at: Date,
): Promise<void> {
  const facts = await orderFacts(db, purchase.orderId);
  const [license] = await db
    .select({ id: licenses.id, status: licenses.status })
    .from(licenses)
    .where(and(eq(licenses.purchaseId, purchase.purchaseId), isNull(licenses.teamLicenseId)));
  const customerId = facts.customer.id;
  await enqueueWebhookEvent(
    db,
    'order.paid',
    { ...facts, purchaseId: purchase.purchaseId, licenseId: license?.id ?? null },
    { at, customerId },
  );
  if (license) {
    await enqueueWebhookEvent(
      db,
      'license.created',
      {
        license: { ...license, purchaseId: purchase.purchaseId },
        orderId: purchase.orderId,
        toolId: facts.order.toolId,
        customerId,
      },
      { at, customerId },
    );
  }
}

/** `order.refunded` (a refund's database side, in its transaction). */
export async function queueRefundEvent(
  db: DbOrTx,
  refund: { orderId: string; refundId: string | null; amount: number; reason: string | null },
  at: Date,
): Promise<void> {
  const { order, customer } = await orderFacts(db, refund.orderId);
  await enqueueWebhookEvent(
    db,
    'order.refunded',
    {
      order,
      customer: { id: customer.id },
      refund: { id: refund.refundId, amount: refund.amount, currency: order.currency, reason: refund.reason },
    },
    { at, customerId: customer.id },
  );
}

const LICENSE_EVENT: Record<string, WebhookEvent> = {
  revoked: 'license.revoked',
  suspended: 'license.suspended',
  active: 'license.reinstated',
};

/** `license.revoked`, `.suspended` or `.reinstated` after a license changed status (refund, dispute, erasure). */
export async function queueLicenseStatusEvent(
  db: DbOrTx,
  changed: { licenseId: string; status: string } | undefined,
  at: Date,
): Promise<void> {
  const event = changed && LICENSE_EVENT[changed.status];
  if (!changed || !event) return;
  const [row] = await db
    .select({
      purchaseId: purchases.id,
      orderId: purchases.orderId,
      toolId: purchases.toolId,
      customerId: purchases.userId,
    })
    .from(licenses)
    .leftJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .where(eq(licenses.id, changed.licenseId));
  await enqueueWebhookEvent(
    db,
    event,
    { license: { id: changed.licenseId, status: changed.status }, ...row },
    { at, customerId: row?.customerId ?? null },
  );
}

/** `trial.started`, `trial.converted` or `trial.expired` for one trial. */
export async function queueTrialEvent(
  db: DbOrTx,
  event: 'trial.started' | 'trial.converted' | 'trial.expired',
  trialId: string,
  at: Date,
): Promise<void> {
  const [row] = await db
    .select({
      id: trials.id,
      toolId: trials.toolId,
      customerId: trials.userId,
      licenseId: trials.licenseId,
      startedAt: trials.startedAt,
      expiresAt: licenses.expiresAt,
      purchaseId: licenses.purchaseId,
    })
    .from(trials)
    .innerJoin(licenses, eq(licenses.id, trials.licenseId))
    .where(eq(trials.id, trialId));
  if (!row) throw new Error(`webhook event for a missing trial ${trialId}`);
  const { customerId, ...trial } = row;
  await enqueueWebhookEvent(
    db,
    event,
    { trial: { ...trial, startedAt: iso(trial.startedAt), expiresAt: iso(trial.expiresAt) }, customerId },
    { at, customerId },
  );
}

/** `release.published` (publishing a release, in its transaction). */
export async function queueReleaseEvent(db: DbOrTx, releaseId: string, at: Date): Promise<void> {
  const [release] = await db
    .select({
      id: releases.id,
      toolId: releases.toolId,
      toolName: tools.name,
      version: releases.version,
      buildNumber: releases.buildNumber,
      channel: releases.channel,
      critical: releases.critical,
      minimumMacosVersion: releases.minimumMacosVersion,
      minimumWindowsVersion: releases.minimumWindowsVersion,
      rollout: { percent: releases.rolloutPercent, state: releases.rolloutState },
    })
    .from(releases)
    .innerJoin(tools, eq(tools.id, releases.toolId))
    .where(eq(releases.id, releaseId));
  if (!release) throw new Error(`webhook event for a missing release ${releaseId}`);
  await enqueueWebhookEvent(
    db,
    'release.published',
    { release: { ...release, publishedAt: at.toISOString() } },
    { at },
  );
}

/**
 * `release.rollout_changed` (a rollout raised, halted, resumed or completed, by the operator or the rollout watch,
 * in its transaction): `{releaseId, percent, state}`, with the release's tool and version.
 */
export async function queueRolloutChanged(
  db: DbOrTx,
  release: { id: string; toolId: string; version: string; rolloutPercent: number; rolloutState: string },
  at: Date,
): Promise<void> {
  await enqueueWebhookEvent(
    db,
    'release.rollout_changed',
    {
      releaseId: release.id,
      percent: release.rolloutPercent,
      state: release.rolloutState,
      toolId: release.toolId,
      version: release.version,
    },
    { at },
  );
}

/** `customer.created` (sign-up, in the transaction that makes the account). */
export async function queueCustomerCreated(
  db: DbOrTx,
  customer: { id: string; email: string; createdAt: Date },
  at: Date,
): Promise<void> {
  await enqueueWebhookEvent(
    db,
    'customer.created',
    { customer: { id: customer.id, email: customer.email, createdAt: customer.createdAt.toISOString() } },
    { at, customerId: customer.id },
  );
}

/**
 * `customer.erased` (erasure, in its transaction), and the customer's address out of every stored payload about
 * them, sent or not: after erasure no delivery holds their personal data, and the receiver is told to erase too.
 */
export async function queueCustomerErased(db: DbOrTx, customerId: string, at: Date): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({
      payload: sql`jsonb_set(${webhookDeliveries.payload}, '{data,customer}', jsonb_build_object('id', ${customerId}::text, 'erased', true))`,
    })
    .where(
      and(
        eq(webhookDeliveries.customerId, customerId),
        sql`${webhookDeliveries.payload} #> '{data,customer}' is not null`,
      ),
    );
  await enqueueWebhookEvent(
    db,
    'customer.erased',
    { customer: { id: customerId, erasedAt: at.toISOString() } },
    { at, customerId },
  );
}

/** The tool, customer and purchase a license was bought with, as a license event reports them. */
async function purchaseOfLicense(db: DbOrTx, licenseId: string) {
  const [row] = await db
    .select({ toolId: purchases.toolId, customerId: purchases.userId, purchaseId: purchases.id })
    .from(licenses)
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .where(eq(licenses.id, licenseId));
  return row;
}

/** `license.upgraded`: a license (a team's with its seats) moved to a higher edition by a paid upgrade order. */
export async function queueUpgradeEvent(
  db: DbOrTx,
  upgrade: { licenseId: string; orderId: string; from: string; to: string; entitlements: string[] },
  at: Date,
): Promise<void> {
  const row = await purchaseOfLicense(db, upgrade.licenseId);
  await enqueueWebhookEvent(
    db,
    'license.upgraded',
    {
      license: { id: upgrade.licenseId, edition: upgrade.to, entitlements: upgrade.entitlements },
      previousEdition: upgrade.from,
      orderId: upgrade.orderId,
      ...row,
    },
    { at, customerId: row?.customerId ?? null },
  );
}

/** `license.renewed`: a license's updates (a team's with its seats) now run until a later day. */
export async function queueRenewalEvent(
  db: DbOrTx,
  renewal: { licenseId: string; orderId: string; updatesUntil: Date },
  at: Date,
): Promise<void> {
  const row = await purchaseOfLicense(db, renewal.licenseId);
  await enqueueWebhookEvent(
    db,
    'license.renewed',
    {
      license: { id: renewal.licenseId, updatesUntil: renewal.updatesUntil.toISOString() },
      orderId: renewal.orderId,
      ...row,
    },
    { at, customerId: row?.customerId ?? null },
  );
}
