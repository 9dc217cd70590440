import { and, asc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Currency } from '../../shared/constants';
import { upgradePriceSubunits } from '../../shared/editions';
import {
  LICENSE_MESSAGES,
  type LicenseRenewal,
  type LicenseUpgrade,
  type MyLicense,
} from '../../shared/licenses';
import { licenseFileName } from '../../shared/offline-activation';
import { RENEWAL_OFFER_DAYS, renewalPriceSubunits } from '../../shared/update-periods';
import type { DbOrTx } from '../db';
import { toolEditions, tools } from '../db/schema/catalogue';
import { licenseActivations, licenses } from '../db/schema/licenses';
import { orders, purchases } from '../db/schema/orders';
import { trials } from '../db/schema/trials';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { deactivationsLeftOfAll, lockDeactivationsLeft } from './allowance';
import { issueLicenseFile } from './files';
import { effectiveStatus } from './lookup';
import { forgetLicenses } from './memory';
import { revealLicenseKey } from './secrets-at-rest';
import { seatsHeldBy } from './team-seats';

const DAY_MS = 24 * 60 * 60 * 1000;

type Seat = {
  id: string;
  name: string | null;
  activatedAt: Date;
  lastSeenAt: Date;
  /** Activated without internet (offline.ts): when its response file ends. */
  offlineUntil: Date | null;
};

/** The machines in use on these licenses (not deactivated), oldest first: My Tools' and a team's page list them. */
export function liveDevicesOf(db: DbOrTx, licenseIds: readonly string[]) {
  return db
    .select({
      licenseId: licenseActivations.licenseId,
      id: licenseActivations.id,
      name: licenseActivations.name,
      activatedAt: licenseActivations.activatedAt,
      lastSeenAt: licenseActivations.lastSeenAt,
      offlineUntil: licenseActivations.offlineUntil,
    })
    .from(licenseActivations)
    .where(
      and(inArray(licenseActivations.licenseId, [...licenseIds]), isNull(licenseActivations.deactivatedAt)),
    )
    .orderBy(asc(licenseActivations.activatedAt));
}

/**
 * The machines in use of each license, oldest first, and how many self-service deactivations its buyer has left:
 * two queries however many licenses there are (a firm may own fifty tools; a customer's page lists them all).
 */
export async function seatsOfAll(
  db: DbOrTx,
  owned: readonly { id: string; resetAt: Date | null }[],
  now: Date,
): Promise<Map<string, { devices: Seat[]; selfDeactivationsLeft: number }>> {
  if (owned.length === 0) return new Map();
  const [live, allowances] = await Promise.all([
    liveDevicesOf(
      db,
      owned.map((license) => license.id),
    ),
    deactivationsLeftOfAll(db, owned, now),
  ]);
  const seats = new Map(
    owned.map((license) => [
      license.id,
      { devices: [] as Seat[], selfDeactivationsLeft: allowances.get(license.id) ?? 0 },
    ]),
  );
  for (const { licenseId, ...device } of live) seats.get(licenseId)?.devices.push(device);
  return seats;
}

/**
 * The buyer's live licenses (refunded purchases are gone from My Tools) and the licenses of the free trials not
 * bought yet, running or ended (with their end), with the machines they run on.
 */
export async function myLicenses(ctx: AppContext, userId: string): Promise<MyLicense[]> {
  const now = ctx.clock.now();
  const columns = {
    id: licenses.id,
    licenseKeySealed: licenses.licenseKeySealed,
    username: licenses.username,
    status: licenses.status,
    resetAt: licenses.selfDeactivationsResetAt,
    activationLimit: sql<number>`coalesce(${toolEditions.deviceLimit}, ${tools.activationLimit})`,
    expiresAt: licenses.expiresAt,
    edition: { id: toolEditions.id, name: toolEditions.name, position: toolEditions.position },
    seats: licenses.seats,
    licenseModel: tools.licenseModel,
    offlineDays: tools.offlineDays,
    updatesUntil: licenses.updatesUntil,
    suspendedReason: licenses.suspendedReason,
    // The period that applies: the edition's, else the tool's (decision 059).
    period: {
      updatesMonths: sql<
        number | null
      >`case when ${toolEditions.id} is null then ${tools.updatesMonths} else ${toolEditions.updatesMonths} end`,
      renewalPriceInrPaise: sql<
        number | null
      >`case when ${toolEditions.id} is null then ${tools.renewalPriceInrPaise} else ${toolEditions.renewalPriceInrPaise} end`,
      renewalPriceUsdCents: sql<
        number | null
      >`case when ${toolEditions.id} is null then ${tools.renewalPriceUsdCents} else ${toolEditions.renewalPriceUsdCents} end`,
    },
  };
  const [bought, seated, trialled] = await Promise.all([
    ctx.db
      .select({
        ...columns,
        toolId: purchases.toolId,
        refundedAt: purchases.refundedAt,
        currency: orders.currency,
      })
      .from(purchases)
      .innerJoin(licenses, and(eq(licenses.purchaseId, purchases.id), isNull(licenses.teamLicenseId)))
      .innerJoin(orders, eq(orders.id, purchases.orderId))
      .innerJoin(tools, eq(tools.id, purchases.toolId))
      .leftJoin(toolEditions, eq(toolEditions.id, licenses.editionId))
      .where(and(eq(purchases.userId, userId), isNull(purchases.refundedAt))),
    // Seats of someone else's team (decision 051): the member's own license, until their seat is taken back.
    ctx.db
      .select({ ...columns, toolId: purchases.toolId, refundedAt: purchases.refundedAt })
      .from(licenses)
      .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
      .innerJoin(tools, eq(tools.id, purchases.toolId))
      .leftJoin(toolEditions, eq(toolEditions.id, licenses.editionId))
      .where(and(seatsHeldBy(userId), isNull(purchases.refundedAt))),
    ctx.db
      .select({ ...columns, toolId: trials.toolId })
      .from(trials)
      .innerJoin(licenses, eq(licenses.id, trials.licenseId))
      .innerJoin(tools, eq(tools.id, trials.toolId))
      .leftJoin(toolEditions, eq(toolEditions.id, licenses.editionId))
      .where(and(eq(trials.userId, userId), isNull(trials.convertedAt), eq(licenses.status, 'trial'))),
  ]);
  const boughtTools = new Set([...bought, ...seated].map((license) => license.toolId));
  const owned = [
    ...bought,
    ...seated,
    // A trial whose tool was bought outright after a refund is no longer a trial (as on GET /api/my-tools/).
    ...trialled
      .filter((license) => !boughtTools.has(license.toolId))
      .map((license) => ({ ...license, refundedAt: null })),
  ];
  const [seats, editions] = await Promise.all([
    seatsOfAll(ctx.db, owned, now),
    editionsOfTools(
      ctx.db,
      bought.filter((license) => license.edition?.id).map((license) => license.toolId),
    ),
  ]);
  /** A bought license below the top edition: what each higher one costs it now (decision 056). */
  const upgradesOf = (license: (typeof owned)[number]): LicenseUpgrade[] => {
    const from = license.edition;
    if (!from?.id || !('currency' in license) || effectiveStatus(license) !== 'active') return [];
    const currency = license.currency as Currency;
    const ofTool = editions.get(license.toolId) ?? [];
    const current = ofTool.find((edition) => edition.id === from.id);
    if (!current) return [];
    return ofTool
      .filter((edition) => edition.position > current.position)
      .map((edition) => ({
        editionId: edition.id,
        name: edition.name,
        amount: upgradePriceSubunits(current, edition, currency) * license.seats,
        currency,
        entitlements: edition.entitlements,
      }));
  };
  /** A bought license whose updates end within RENEWAL_OFFER_DAYS (or ended): what renewing costs it now. */
  const renewalOf = (license: (typeof owned)[number]): LicenseRenewal | null => {
    const until = license.updatesUntil;
    if (!until || !('currency' in license) || effectiveStatus(license) !== 'active') return null;
    if (now.getTime() < until.getTime() - RENEWAL_OFFER_DAYS * DAY_MS) return null;
    const currency = license.currency as Currency;
    const price = renewalPriceSubunits(license.period, currency);
    if (price === null || license.period.updatesMonths === null) return null;
    return { amount: price * license.seats, currency, months: license.period.updatesMonths };
  };
  return owned.map((license) => {
    const { devices, selfDeactivationsLeft } = seats.get(license.id) ?? {
      devices: [],
      selfDeactivationsLeft: 0,
    };
    const status = effectiveStatus(license);
    return {
      toolId: license.toolId,
      licenseKey: revealLicenseKey(ctx.dataSecrets, license),
      username: license.username,
      status,
      activationLimit: license.activationLimit,
      devices: devices.map((device) => ({
        id: device.id,
        name: device.name,
        activatedAt: device.activatedAt.toISOString(),
        lastSeenAt: device.lastSeenAt.toISOString(),
        offlineUntil: device.offlineUntil?.toISOString() ?? null,
      })),
      selfDeactivationsLeft,
      ...(status === 'trial' && license.expiresAt ? { expiresAt: license.expiresAt.toISOString() } : {}),
      licenseId: license.id,
      edition:
        license.edition?.id && license.edition.name
          ? { id: license.edition.id, name: license.edition.name }
          : null,
      upgrades: upgradesOf(license),
      updatesUntil: license.updatesUntil?.toISOString() ?? null,
      renewal: renewalOf(license),
      // A floating tool's seats are leases renewed online: no computer can hold one without internet.
      offlineDays: license.licenseModel === 'floating' ? null : license.offlineDays,
      ...(status === 'suspended' && license.suspendedReason
        ? { suspendedReason: license.suspendedReason }
        : {}),
    };
  });
}

/** The editions of these tools, lowest first (read here; the catalogue owns them). */
async function editionsOfTools(db: DbOrTx, toolIds: readonly string[]) {
  const byTool = new Map<string, (typeof toolEditions.$inferSelect)[]>();
  if (toolIds.length === 0) return byTool;
  const rows = await db
    .select()
    .from(toolEditions)
    .where(inArray(toolEditions.toolId, [...new Set(toolIds)]))
    .orderBy(asc(toolEditions.position));
  for (const row of rows) byTool.set(row.toolId, [...(byTool.get(row.toolId) ?? []), row]);
  return byTool;
}

/** A live device on a live purchase of this user; anyone else's device is simply not found. */
async function ownDevice(db: DbOrTx, userId: string, activationId: string) {
  const [device] = await db
    .select({
      activation: licenseActivations,
      license: licenses,
      refundedAt: purchases.refundedAt,
      toolId: tools.id,
      toolName: tools.name,
      edition: toolEditions,
    })
    .from(licenseActivations)
    .innerJoin(licenses, eq(licenses.id, licenseActivations.licenseId))
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .innerJoin(tools, eq(tools.id, purchases.toolId))
    .leftJoin(toolEditions, eq(toolEditions.id, licenses.editionId))
    .where(
      and(
        eq(licenseActivations.id, activationId),
        isNull(licenseActivations.deactivatedAt),
        // The buyer's own license, or their seat of a team (decision 051).
        eq(licenses.holderId, userId),
        or(eq(purchases.userId, userId), isNotNull(licenses.teamLicenseId)),
        isNull(purchases.refundedAt),
      ),
    );
  if (!device) throw new DomainError('not_found', LICENSE_MESSAGES.deviceNotFound);
  return device;
}

/**
 * Frees a device from My Tools. At most 3 per license in 30 days, shared with the tool's own deactivations
 * (allowance.ts): enough to replace a broken or sold computer, too few to pass one license around.
 */
export async function deactivateOwnDevice(
  ctx: AppContext,
  userId: string,
  activationId: string,
): Promise<{ selfDeactivationsLeft: number }> {
  const freed = await ctx.db.transaction(async (tx) => {
    const device = await ownDevice(tx, userId, activationId);
    const now = ctx.clock.now();
    const left = await lockDeactivationsLeft(tx, device.license.id, now);
    if (left <= 0) throw new DomainError('refused', LICENSE_MESSAGES.selfDeactivationLimit);
    const freed = await tx
      .update(licenseActivations)
      .set({ deactivatedAt: now, deactivatedBy: 'owner' })
      .where(and(eq(licenseActivations.id, activationId), isNull(licenseActivations.deactivatedAt)))
      .returning({ id: licenseActivations.id });
    if (freed.length === 0) throw new DomainError('not_found', LICENSE_MESSAGES.deviceNotFound);
    return { licenseId: device.license.id, selfDeactivationsLeft: left - 1 };
  });
  // The freed machine must hear NOT_ACTIVATED from this instance at once.
  forgetLicenses(ctx, freed.licenseId);
  return { selfDeactivationsLeft: freed.selfDeactivationsLeft };
}

/** A fresh license file for one of the buyer's devices; a suspended or revoked license gets none. */
export async function licenseFileForOwnDevice(
  ctx: AppContext,
  userId: string,
  activationId: string,
): Promise<{ fileName: string; text: string }> {
  const device = await ownDevice(ctx.db, userId, activationId);
  const status = effectiveStatus({ status: device.license.status, refundedAt: device.refundedAt });
  if (status !== 'active') {
    throw new DomainError(
      'refused',
      status === 'revoked' ? LICENSE_MESSAGES.licenseRevoked : LICENSE_MESSAGES.licenseSuspended,
    );
  }
  const text = issueLicenseFile(
    ctx.licenseSigning,
    {
      licenseKey: revealLicenseKey(ctx.dataSecrets, device.license),
      username: device.license.username,
      toolId: device.toolId,
      toolName: device.toolName,
      fingerprint: device.activation.fingerprint,
      activationId: device.activation.id,
      status,
      edition: device.edition ? { id: device.edition.id, name: device.edition.name } : null,
      entitlements: device.edition?.entitlements ?? [],
      updatesUntil: device.license.updatesUntil?.toISOString() ?? null,
    },
    ctx.clock.now(),
  );
  return { fileName: licenseFileName(device.toolName, 'license'), text };
}
