import { and, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import { type LicenseStatus, SUSPENSION_REASON_MAX } from '../../shared/licenses';
import { SITE } from '../../shared/site';
import type { Tx } from '../db';
import { users } from '../db/schema/accounts';
import { tools } from '../db/schema/catalogue';
import { licenseActivations, licenses } from '../db/schema/licenses';
import { purchases } from '../db/schema/orders';
import { findByTypedId } from '../db/typed-id';
import type { AppContext } from '../kernel/context';
import type { DataSecrets } from '../kernel/data-secrets';
import { DomainError } from '../kernel/domain-error';
import { renderEmail } from '../mail/layout';
import { enqueueMail } from '../mail/outbox';
import { type Actor, recordAudit } from '../operator/audit';
import { queueLicenseStatusEvent } from '../webhooks/events';
import { toolLabel } from './delivery-email';
import { seatsOfAll } from './devices';
import { effectiveStatus } from './lookup';
import { forgetLicenses } from './memory';
import { licenseKeyHashes, revealLicenseKey } from './secrets-at-rest';
import { seatMembersOf } from './team-seats';

/**
 * The operator's side of licenses (dashboard and command line): what a license of an order or a customer looks
 * like with its machines, freeing a machine, and resetting the buyer's self-service allowance. Each change writes
 * its audit entry in its transaction.
 */

export type OperatorLicense = {
  id: string;
  orderId: string;
  toolName: string;
  licenseKey: string | null;
  username: string | null;
  status: LicenseStatus;
  /** Why the operator suspended it by hand; null otherwise (a dispute's suspension has none). */
  suspendedReason: string | null;
  activationLimit: number;
  selfDeactivationsLeft: number;
  selfDeactivationsResetAt: Date | null;
  /** Its live machines; one activated without internet says when its response file ends (`offlineUntil`). */
  devices: Array<{
    id: string;
    name: string | null;
    activatedAt: Date;
    lastSeenAt: Date;
    offlineUntil: Date | null;
  }>;
  /** How many people may hold a seat (decision 051): 1 for a personal license, N for a team's own. */
  seats: number;
  /** A member's license: the team license it is a seat of; null for a buyer's own. */
  teamLicenseId: string | null;
  /** Who holds the seats of a team's own license (its owner first); a member's license lists only its holder. */
  members: OperatorSeatHolder[];
};

export type OperatorSeatHolder = {
  memberId: string;
  email: string;
  name: string;
  isOwner: boolean;
  licenseId: string;
  joinedAt: Date;
};

/** The seat holders of each license: its holder, and for a team's own license its members not taken back. */
async function seatHoldersOf(
  ctx: Pick<AppContext, 'db'>,
  rows: ReadonlyArray<{ id: string; teamLicenseId: string | null; holderId: string; createdAt: Date }>,
): Promise<Map<string, OperatorSeatHolder[]>> {
  const holders = new Map<string, OperatorSeatHolder[]>();
  if (rows.length === 0) return holders;
  const teams = rows.filter((row) => row.teamLicenseId === null).map((row) => row.id);
  const [people, members] = await Promise.all([
    ctx.db
      .select({ id: users.id, email: users.email, name: users.name })
      .from(users)
      .where(inArray(users.id, [...new Set(rows.map((row) => row.holderId))])),
    teams.length === 0 ? [] : seatMembersOf(ctx.db, teams),
  ]);
  for (const row of rows) {
    const person = people.find((each) => each.id === row.holderId);
    const own = person
      ? [
          {
            memberId: person.id,
            email: person.email,
            name: person.name,
            isOwner: row.teamLicenseId === null,
            licenseId: row.id,
            joinedAt: row.createdAt,
          },
        ]
      : [];
    const seated = members
      .filter((member) => member.teamLicenseId === row.id)
      .map(({ teamLicenseId: _, ...member }) => ({ ...member, isOwner: false }));
    holders.set(row.id, [...own, ...seated]);
  }
  return holders;
}

/** The licenses of one order, of one customer (their purchases, refunded ones too) or one key, newest first. */
export async function licensesOf(
  ctx: Pick<AppContext, 'db' | 'clock' | 'dataSecrets'>,
  of: { orderId: string } | { userId: string } | { licenseKey: string },
): Promise<OperatorLicense[]> {
  const where: SQL =
    'orderId' in of
      ? eq(purchases.orderId, of.orderId)
      : 'userId' in of
        ? eq(purchases.userId, of.userId)
        : inArray(
            licenses.licenseKeyHash,
            licenseKeyHashes(ctx.dataSecrets, of.licenseKey.trim().toUpperCase()),
          );
  const rows = await ctx.db
    .select({
      id: licenses.id,
      orderId: purchases.orderId,
      toolName: tools.name,
      licenseKeySealed: licenses.licenseKeySealed,
      username: licenses.username,
      status: licenses.status,
      suspendedReason: licenses.suspendedReason,
      refundedAt: purchases.refundedAt,
      resetAt: licenses.selfDeactivationsResetAt,
      activationLimit: tools.activationLimit,
      seats: licenses.seats,
      teamLicenseId: licenses.teamLicenseId,
      holderId: licenses.holderId,
      createdAt: licenses.createdAt,
    })
    .from(purchases)
    // A key finds a member's license too; an order or a customer lists the buyers' own (decision 051).
    .innerJoin(
      licenses,
      'licenseKey' in of
        ? eq(licenses.purchaseId, purchases.id)
        : and(eq(licenses.purchaseId, purchases.id), isNull(licenses.teamLicenseId)),
    )
    .innerJoin(tools, eq(tools.id, purchases.toolId))
    .where(where)
    .orderBy(desc(purchases.createdAt));
  const now = ctx.clock.now();
  const [seats, holders] = await Promise.all([seatsOfAll(ctx.db, rows, now), seatHoldersOf(ctx, rows)]);
  return rows.map((row) => {
    const { devices, selfDeactivationsLeft } = seats.get(row.id) ?? { devices: [], selfDeactivationsLeft: 0 };
    return {
      id: row.id,
      orderId: row.orderId,
      toolName: row.toolName,
      licenseKey: revealLicenseKey(ctx.dataSecrets, row),
      username: row.username,
      status: effectiveStatus(row),
      suspendedReason: row.suspendedReason,
      activationLimit: row.activationLimit,
      selfDeactivationsLeft,
      selfDeactivationsResetAt: row.resetAt,
      devices,
      seats: row.seats,
      teamLicenseId: row.teamLicenseId,
      members: holders.get(row.id) ?? [],
    };
  });
}

type LicenseRef = { licenseId: string } | { licenseKey: string };

const NO_LICENSE = 'No license with that key.';

async function lockedLicense(tx: Tx, secrets: DataSecrets, ref: LicenseRef) {
  const where =
    'licenseId' in ref
      ? eq(licenses.id, ref.licenseId)
      : inArray(licenses.licenseKeyHash, licenseKeyHashes(secrets, ref.licenseKey.toUpperCase()));
  const [license] = await tx.select().from(licenses).where(where).for('update').limit(1);
  if (!license) throw new DomainError('not_found', NO_LICENSE);
  return license;
}

/**
 * Lets the buyer free devices again from My Tools at once: self-service deactivations before now stop counting
 * against the 30-day allowance. The buyer's history of devices stays as it was.
 */
export async function resetSelfDeactivations(
  ctx: AppContext,
  ref: LicenseRef,
  actor: Actor,
): Promise<{ licenseId: string; licenseKey: string | null; resetAt: Date }> {
  return ctx.db.transaction(async (tx) => {
    const license = await lockedLicense(tx, ctx.dataSecrets, ref);
    const now = ctx.clock.now();
    await tx.update(licenses).set({ selfDeactivationsResetAt: now }).where(eq(licenses.id, license.id));
    await recordAudit(tx, actor, {
      action: 'license.reset_deactivations',
      target: `license:${license.id}`,
      before: { resetAt: license.selfDeactivationsResetAt },
      after: { resetAt: now },
    });
    return { licenseId: license.id, licenseKey: revealLicenseKey(ctx.dataSecrets, license), resetAt: now };
  });
}

const NOT_ACTIVE = 'This device is not active on this license.';

/** An active machine of the license by its id (or, from the command line, the start of it). */
async function activeDevice(tx: Tx, licenseId: string, typed: string) {
  const found = await findByTypedId({
    idColumn: licenseActivations.id,
    typed,
    noun: 'device',
    listCommand: 'licenses show',
    select: (where) =>
      tx
        .select({ id: licenseActivations.id, name: licenseActivations.name })
        .from(licenseActivations)
        .where(
          and(where, eq(licenseActivations.licenseId, licenseId), isNull(licenseActivations.deactivatedAt)),
        )
        .limit(2),
  }).catch((error: unknown) => {
    throw error instanceof DomainError && error.code === 'not_found'
      ? new DomainError('not_found', NOT_ACTIVE)
      : error;
  });
  return found;
}

/** Frees one machine of a license for the buyer; it does not count against their self-service allowance. */
export async function deactivateDeviceAsOperator(
  ctx: AppContext,
  input: { license: LicenseRef; device: string },
  actor: Actor,
): Promise<{ licenseId: string; id: string; name: string | null }> {
  const freed = await ctx.db.transaction(async (tx) => {
    const license = await lockedLicense(tx, ctx.dataSecrets, input.license);
    const device = await activeDevice(tx, license.id, input.device);
    await tx
      .update(licenseActivations)
      .set({ deactivatedAt: ctx.clock.now(), deactivatedBy: 'operator' })
      .where(eq(licenseActivations.id, device.id));
    await recordAudit(tx, actor, {
      action: 'license.deactivate_device',
      target: `license:${license.id}`,
      before: { device: device.id, name: device.name, active: true },
      after: { device: device.id, name: device.name, active: false },
    });
    return { licenseId: license.id, ...device };
  });
  // This instance answers validate from memory (decision 016): the freed machine must read NOT_ACTIVATED at once.
  forgetLicenses(ctx, freed.licenseId);
  return freed;
}

/**
 * The licenses a suspension by hand reaches: a personal or team license with every seat of its team (they share
 * the purchase), or one member's seat alone.
 */
function reachOf(license: typeof licenses.$inferSelect) {
  return license.teamLicenseId === null && license.purchaseId
    ? eq(licenses.purchaseId, license.purchaseId)
    : eq(licenses.id, license.id);
}

/**
 * Suspends a license by hand (a key shared on a forum, a payment reversed outside Razorpay; decision 059): every
 * instance answers SUSPENDED with the reason from this commit on (the change feed), its feeds and downloads stop, My
 * Tools shows why, and the buyer is emailed the reason and how to reach the firm. A team license takes its members'
 * seats with it. Reinstating undoes exactly this.
 */
export async function suspendLicense(
  ctx: AppContext,
  input: { license: LicenseRef; reason: string },
  actor: Actor,
): Promise<{ licenseId: string; suspended: number }> {
  const reason = input.reason.trim().replace(/\s+/g, ' ');
  if (!reason || reason.length > SUSPENSION_REASON_MAX)
    throw new DomainError(
      'invalid',
      `Give a reason of 1 to ${SUSPENSION_REASON_MAX} characters; the buyer reads it.`,
    );
  const result = await ctx.db.transaction(async (tx) => {
    const license = await lockedLicense(tx, ctx.dataSecrets, input.license);
    if (license.status === 'revoked')
      throw new DomainError('refused', 'This license is revoked: there is nothing to suspend.');
    if (license.status === 'trial')
      throw new DomainError('refused', 'A trial cannot be suspended; it ends by itself.');
    const now = ctx.clock.now();
    const changed = await tx
      .update(licenses)
      .set({ status: 'suspended', suspendedReason: reason, statusChangedAt: now })
      .where(and(reachOf(license), inArray(licenses.status, ['active', 'suspended'])))
      .returning({ licenseId: licenses.id, status: licenses.status, holderId: licenses.holderId });
    for (const { licenseId, status } of changed)
      if (licenseId !== license.id || license.status !== 'suspended')
        await queueLicenseStatusEvent(tx, { licenseId, status }, now);
    await recordAudit(tx, actor, {
      action: 'license.suspend',
      target: `license:${license.id}`,
      before: { status: license.status, reason: license.suspendedReason },
      after: { status: 'suspended', reason, seats: changed.length },
    });
    await queueSuspensionEmail(ctx, tx, { licenseId: license.id, holderId: license.holderId, reason }, now);
    return { licenseId: license.id, suspended: changed.length };
  });
  forgetLicenses(ctx);
  return result;
}

/** Lifts a suspension made by hand: the license and the seats it took along answer VALID again. */
export async function reinstateLicense(
  ctx: AppContext,
  input: { license: LicenseRef },
  actor: Actor,
): Promise<{ licenseId: string; reinstated: number }> {
  const result = await ctx.db.transaction(async (tx) => {
    const license = await lockedLicense(tx, ctx.dataSecrets, input.license);
    if (license.status !== 'suspended' || license.suspendedReason === null)
      throw new DomainError(
        'refused',
        license.status === 'suspended'
          ? 'This license is suspended by an open payment dispute: the dispute’s outcome decides it.'
          : 'This license is not suspended.',
      );
    const now = ctx.clock.now();
    const changed = await tx
      .update(licenses)
      .set({ status: 'active', suspendedReason: null, statusChangedAt: now })
      .where(and(reachOf(license), eq(licenses.status, 'suspended')))
      .returning({ licenseId: licenses.id, status: licenses.status });
    for (const each of changed) await queueLicenseStatusEvent(tx, each, now);
    await recordAudit(tx, actor, {
      action: 'license.reinstate',
      target: `license:${license.id}`,
      before: { status: 'suspended', reason: license.suspendedReason },
      after: { status: 'active', seats: changed.length },
    });
    return { licenseId: license.id, reinstated: changed.length };
  });
  forgetLicenses(ctx);
  return result;
}

/** Tells the license's holder it is suspended, why, and how to reach the firm. */
async function queueSuspensionEmail(
  ctx: AppContext,
  tx: Tx,
  suspended: { licenseId: string; holderId: string; reason: string },
  now: Date,
): Promise<void> {
  const [row] = await tx
    .select({ name: users.name, email: users.email, toolName: tools.name, device: tools.device })
    .from(licenses)
    .innerJoin(users, eq(users.id, licenses.holderId))
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .innerJoin(tools, eq(tools.id, purchases.toolId))
    .where(eq(licenses.id, suspended.licenseId));
  if (!row) return;
  const label = toolLabel(row.toolName, row.device);
  await enqueueMail(
    ctx,
    tx,
    {
      to: row.email,
      ...renderEmail({
        subject: `Your license for ${label} is suspended`,
        heading: 'Your license is suspended',
        blocks: [
          {
            kind: 'paragraph',
            text: `Hello ${row.name}, Pinkcity Advisors has suspended your license for ${label}. The tool stops at its next license check, and its updates and downloads are paused.`,
          },
          { kind: 'details', rows: [['Reason', suspended.reason]] },
          {
            kind: 'paragraph',
            text: `If you think this is a mistake, or to resolve it, reply to this email or write to ${SITE.supportEmail}; the license works again, on the same computers, as soon as it is reinstated.`,
          },
        ],
      }),
      kind: 'license-suspended',
      ref: `license:${suspended.licenseId}`,
    },
    now,
  );
}
