import { createHash, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import { normaliseEmail } from '../../shared/auth';
import {
  INVITATION_DAYS,
  type InvitationAccepted,
  type InvitationPreview,
  type PendingInvitation,
  TEAM_INVITATION_PATH,
  TEAM_MESSAGES,
  type Team,
} from '../../shared/teams';
import { forgetOwnedTools } from '../catalogue/catalogue';
import type { DbOrTx, Tx } from '../db';
import { users } from '../db/schema/accounts';
import { tools } from '../db/schema/catalogue';
import { licenses } from '../db/schema/licenses';
import { purchases } from '../db/schema/orders';
import { teamInvitations } from '../db/schema/teams';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { insertLicense } from '../licenses/create';
import { liveDevicesOf } from '../licenses/devices';
import { heldPurchaseOf } from '../licenses/lookup';
import { forgetLicenses } from '../licenses/memory';
import { revokeMemberSeat, SEAT_HOLDING, seatMembersOf, seatsUsedOf } from '../licenses/team-seats';
import { enqueueMail } from '../mail/outbox';
import { queueLicenseStatusEvent } from '../webhooks/events';
import {
  renderAcceptedEmail,
  renderInvitationEmail,
  renderRemovedEmail,
  renderSeatsAddedEmail,
} from './team-email';

/**
 * Team licenses (docs/decisions/051-team-licenses.md). The buyer's license of an order of N seats is the team: it
 * holds N seats, one of them the owner's own (their key works as any bought key). The others go to members by
 * emailed invitation; a member's license is a row of its own (own key or credentials, the tool's device limit) that
 * shares the team's purchase, so a refund or dispute of the order reaches it. Taking a seat back revokes the
 * member's license: validate answers REVOKED and its update feeds 404 from that commit on.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Invitation mail goes to strangers' mailboxes: an owner's sends and an address's receipts are budgeted (issue 63). */
export const INVITATIONS_PER_OWNER_HOUR = 10;
export const INVITATIONS_PER_ADDRESS_DAY = 3;
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

type TeamRow = {
  license: typeof licenses.$inferSelect;
  purchaseId: string;
  toolId: string;
  toolName: string;
  platform: 'Windows' | 'macOS' | null;
  delivery: 'license_key' | 'credentials';
  ownerId: string;
  ownerName: string;
  ownerEmail: string;
};

/** A team license (the owner's, not a member's) with its tool and owner, locked when `lock`. */
async function findTeam(db: DbOrTx, licenseId: string, lock = false): Promise<TeamRow | undefined> {
  const query = db
    .select({
      license: licenses,
      purchaseId: purchases.id,
      refundedAt: purchases.refundedAt,
      toolId: tools.id,
      toolName: tools.name,
      platform: tools.device,
      delivery: tools.delivery,
      ownerId: users.id,
      ownerName: users.name,
      ownerEmail: users.email,
    })
    .from(licenses)
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .innerJoin(tools, eq(tools.id, purchases.toolId))
    .innerJoin(users, eq(users.id, licenses.holderId))
    .where(and(eq(licenses.id, licenseId), isNull(licenses.teamLicenseId)))
    .$dynamic();
  const [row] = await (lock ? query.for('update', { of: licenses }) : query);
  if (!row || row.refundedAt) return undefined;
  const { refundedAt: _, ...team } = row;
  return team;
}

/** The caller's own team license, or not found (someone else's team is not found either). */
async function ownTeam(db: DbOrTx, userId: string, licenseId: string, lock = false): Promise<TeamRow> {
  const team = await findTeam(db, licenseId, lock);
  if (!team || team.ownerId !== userId || team.license.status === 'revoked')
    throw new DomainError('not_found', TEAM_MESSAGES.teamNotFound);
  return team;
}

/** "Add seats" may only add to a live license of this tool that the buyer bought. */
export async function assertOwnTeam(
  db: DbOrTx,
  userId: string,
  target: { licenseId: string; toolId: string },
): Promise<void> {
  const team = await findTeam(db, target.licenseId);
  if (!team || team.ownerId !== userId || team.toolId !== target.toolId)
    throw new DomainError('not_found', TEAM_MESSAGES.teamNotFound);
  if (team.license.status !== 'active') throw new DomainError('refused', TEAM_MESSAGES.teamClosed);
}

/** Tells the owner their team grew, with the "Add seats" order's tax invoice attached. */
export async function queueSeatsAddedEmail(
  ctx: AppContext,
  tx: Tx,
  parts: {
    order: { id: string; userId: string; toolId: string; seats: number };
    seats: number;
    invoice: { id: string; number: string } | null;
  },
  now: Date,
): Promise<void> {
  const [row] = await tx
    .select({ name: users.name, email: users.email, toolName: tools.name })
    .from(users)
    .innerJoin(tools, eq(tools.id, parts.order.toolId))
    .where(eq(users.id, parts.order.userId));
  if (!row) throw new Error(`order ${parts.order.id} refers to a missing user or tool`);
  await enqueueMail(
    ctx,
    tx,
    {
      to: row.email,
      ...renderSeatsAddedEmail({
        ownerName: row.name,
        toolName: row.toolName,
        added: parts.order.seats,
        seats: parts.seats,
        invoiceNumber: parts.invoice?.number ?? null,
      }),
      kind: 'team-seats-added',
      ref: `order:${parts.order.id}`,
      attachments: parts.invoice ? [{ kind: 'invoice', id: parts.invoice.id }] : [],
    },
    now,
  );
}

/** The members of a team (the owner first), with their devices; members whose seat was taken back are gone. */
async function membersOf(db: DbOrTx, team: TeamRow): Promise<Team['members']> {
  const members = await seatMembersOf(db, [team.license.id]);
  const all = [
    {
      licenseId: team.license.id,
      memberId: team.ownerId,
      email: team.ownerEmail,
      name: team.ownerName,
      joinedAt: team.license.createdAt,
      isOwner: true,
    },
    ...members.map(({ teamLicenseId: _, ...member }) => ({ ...member, isOwner: false })),
  ];
  const devices = await liveDevicesOf(
    db,
    all.map((member) => member.licenseId),
  );
  return all.map((member) => ({
    memberId: member.memberId,
    email: member.email,
    name: member.name,
    isOwner: member.isOwner,
    licenseId: member.licenseId,
    joinedAt: member.joinedAt.toISOString(),
    devices: devices
      .filter((device) => device.licenseId === member.licenseId)
      .map((device) => ({ id: device.id, name: device.name, lastSeenAt: device.lastSeenAt.toISOString() })),
  }));
}

const pendingInvitations = (teamLicenseId: string, now: Date) =>
  and(
    eq(teamInvitations.teamLicenseId, teamLicenseId),
    isNull(teamInvitations.acceptedAt),
    isNull(teamInvitations.cancelledAt),
    gt(teamInvitations.expiresAt, now),
  );

const invitationAnswer = (row: typeof teamInvitations.$inferSelect): PendingInvitation => ({
  id: row.id,
  email: row.email,
  invitedAt: row.invitedAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
});

export async function describeTeam(db: DbOrTx, team: TeamRow, now: Date): Promise<Team> {
  const [members, invitations, used] = await Promise.all([
    membersOf(db, team),
    db
      .select()
      .from(teamInvitations)
      .where(pendingInvitations(team.license.id, now))
      .orderBy(asc(teamInvitations.invitedAt)),
    seatsUsedOf(db, [team.license.id], now),
  ]);
  return {
    licenseId: team.license.id,
    toolId: team.toolId,
    toolName: team.toolName,
    seats: team.license.seats,
    seatsUsed: used.get(team.license.id) ?? 1,
    invitations: invitations.map(invitationAnswer),
    members,
  };
}

/** GET /api/teams/:licenseId */
export async function teamOf(ctx: AppContext, userId: string, licenseId: string): Promise<Team> {
  return describeTeam(ctx.db, await ownTeam(ctx.db, userId, licenseId), ctx.clock.now());
}

/** Refuses an email that already holds a seat of the team or has a pending invitation to it. */
async function assertNotSeated(tx: Tx, team: TeamRow, email: string, now: Date): Promise<void> {
  const members = await membersOf(tx, team);
  if (members.some((member) => normaliseEmail(member.email) === email))
    throw new DomainError('refused', TEAM_MESSAGES.alreadyMember);
  const [invited] = await tx
    .select({ id: teamInvitations.id })
    .from(teamInvitations)
    .where(and(pendingInvitations(team.license.id, now), eq(teamInvitations.email, email)));
  if (invited) throw new DomainError('refused', TEAM_MESSAGES.alreadyInvited);
}

/** Writes a pending invitation and queues its email, in the caller's transaction (the team row locked). */
async function invite(
  ctx: AppContext,
  tx: Tx,
  team: TeamRow,
  email: string,
  now: Date,
): Promise<PendingInvitation> {
  const used = (await seatsUsedOf(tx, [team.license.id], now)).get(team.license.id) ?? 1;
  if (used >= team.license.seats) throw new DomainError('refused', TEAM_MESSAGES.noFreeSeat);
  await assertNotSeated(tx, team, email, now);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * DAY_MS);
  const [row] = await tx
    .insert(teamInvitations)
    .values({ teamLicenseId: team.license.id, email, tokenHash: tokenHash(token), invitedAt: now, expiresAt })
    .returning();
  if (!row) throw new Error('invitation insert returned no row');
  await enqueueMail(
    ctx,
    tx,
    {
      to: email,
      ...renderInvitationEmail({
        ownerName: team.ownerName,
        toolName: team.toolName,
        platform: team.platform,
        link: `${ctx.config.publicUrl}${TEAM_INVITATION_PATH}${token}`,
        expiresOn: expiresAt.toISOString().slice(0, 10),
      }),
      kind: 'team-invitation',
      ref: `license:${team.license.id}`,
    },
    now,
  );
  return invitationAnswer(row);
}

/**
 * Counts one invitation against the owner's hourly budget and the address's daily one (across every owner, so a
 * cancel-and-invite-again loop or many small teams cannot fill a stranger's mailbox). Counted before the invitation
 * is judged, like the code sends of auth/codes.ts: a refused attempt spends budget too.
 */
async function limitInvitations(ctx: AppContext, userId: string, email: string): Promise<void> {
  await ctx.limiter.consume({
    key: `team-invite-owner:${userId}`,
    limit: INVITATIONS_PER_OWNER_HOUR,
    windowMs: HOUR_MS,
    message: TEAM_MESSAGES.tooManyInvitations,
  });
  // Keyed on the address last, as every address-keyed counter is, so erasure finds it (account/erasure.ts).
  await ctx.limiter.consume({
    key: `team-invite-to:${email}`,
    limit: INVITATIONS_PER_ADDRESS_DAY,
    windowMs: DAY_MS,
    message: TEAM_MESSAGES.addressInvitedEnough,
  });
}

/** POST /api/teams/:licenseId/invitations: one seat, held by the invitation until it is accepted or cancelled. */
export async function inviteToTeam(
  ctx: AppContext,
  userId: string,
  licenseId: string,
  rawEmail: string,
): Promise<PendingInvitation> {
  const email = normaliseEmail(rawEmail);
  const now = ctx.clock.now();
  await ownTeam(ctx.db, userId, licenseId);
  await limitInvitations(ctx, userId, email);
  return ctx.db.transaction(async (tx) => {
    const team = await ownTeam(tx, userId, licenseId, true);
    if (team.license.status !== 'active') throw new DomainError('refused', TEAM_MESSAGES.teamClosed);
    return invite(ctx, tx, team, email, now);
  });
}

/** DELETE /api/teams/:licenseId/invitations/:invitationId: the seat is free again. */
export async function cancelInvitation(
  ctx: AppContext,
  userId: string,
  licenseId: string,
  invitationId: string,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await ownTeam(tx, userId, licenseId, true);
    const [cancelled] = await tx
      .update(teamInvitations)
      .set({ cancelledAt: now })
      .where(and(eq(teamInvitations.id, invitationId), pendingInvitations(licenseId, now)))
      .returning({ id: teamInvitations.id });
    if (!cancelled) throw new DomainError('not_found', TEAM_MESSAGES.invitationNotFound);
  });
}

/** A pending, unexpired invitation by its link's token, with its team. */
async function invitationByToken(db: DbOrTx, token: string, now: Date, lock = false) {
  const query = db
    .select()
    .from(teamInvitations)
    .where(
      and(
        eq(teamInvitations.tokenHash, tokenHash(token)),
        isNull(teamInvitations.acceptedAt),
        isNull(teamInvitations.cancelledAt),
        gt(teamInvitations.expiresAt, now),
      ),
    )
    .$dynamic();
  const [invitation] = await (lock ? query.for('update') : query);
  const team = invitation && (await findTeam(db, invitation.teamLicenseId, lock));
  if (!invitation || !team || team.license.status !== 'active')
    throw new DomainError('not_found', TEAM_MESSAGES.invitationNotFound);
  return { invitation, team };
}

/** GET /api/team-invitations/:token: anyone holding the link may see what it offers. */
export async function previewInvitation(ctx: AppContext, token: string): Promise<InvitationPreview> {
  const { invitation, team } = await invitationByToken(ctx.db, token, ctx.clock.now());
  return {
    toolName: team.toolName,
    ownerName: team.ownerName,
    email: invitation.email,
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

/**
 * POST /api/team-invitations/:token/accept: the signed-in account takes the seat, whatever its address (the link
 * reached the invited mailbox; decision 051), and gets its own license. The owner hears of it by email.
 */
export async function acceptInvitation(
  ctx: AppContext,
  member: { id: string; name: string; email: string },
  token: string,
): Promise<InvitationAccepted> {
  const now = ctx.clock.now();
  const accepted = await ctx.db.transaction(async (tx) => {
    const { invitation, team } = await invitationByToken(tx, token, now, true);
    // Bought already, or a seat of any team: a second seat would be wasted.
    if (
      team.ownerId === member.id ||
      (await heldPurchaseOf(tx, { userId: member.id, toolId: team.toolId }, SEAT_HOLDING))
    )
      throw new DomainError('refused', TEAM_MESSAGES.alreadyHasTool);
    // The member's own license of the team's tool.
    const { id: licenseId } = await insertLicense(ctx, tx, team.delivery, {
      holderId: member.id,
      purchaseId: team.purchaseId,
      teamLicenseId: team.license.id,
      // A seat runs as the team's edition with the team's updates, and moves with them (an upgrade, a renewal).
      editionId: team.license.editionId,
      updatesUntil: team.license.updatesUntil,
      createdAt: now,
    });
    await tx
      .update(teamInvitations)
      .set({ acceptedAt: now, memberLicenseId: licenseId })
      .where(eq(teamInvitations.id, invitation.id));
    const used = (await seatsUsedOf(tx, [team.license.id], now)).get(team.license.id) ?? 1;
    await enqueueMail(
      ctx,
      tx,
      {
        to: team.ownerEmail,
        ...renderAcceptedEmail({
          ownerName: team.ownerName,
          memberName: member.name,
          memberEmail: member.email,
          toolName: team.toolName,
          seatsUsed: used,
          seats: team.license.seats,
        }),
        kind: 'team-accepted',
        ref: `license:${team.license.id}`,
      },
      now,
    );
    return { licenseId, toolId: team.toolId };
  });
  forgetOwnedTools(ctx, member.id);
  return accepted;
}

/**
 * Takes a member's seat back, in the caller's transaction (the team row locked): the member's license is revoked
 * (REVOKED at its next validate, its feeds gone) and the member is emailed. The owner's seat is not a member's.
 */
export async function revokeSeat(
  ctx: AppContext,
  tx: Tx,
  team: TeamRow,
  memberId: string,
  now: Date,
  by: 'owner' | 'operator',
): Promise<{ licenseId: string; email: string }> {
  if (memberId === team.ownerId) throw new DomainError('refused', TEAM_MESSAGES.ownerSeat);
  const seat = await revokeMemberSeat(tx, { teamLicenseId: team.license.id, memberId }, now);
  if (!seat) throw new DomainError('not_found', TEAM_MESSAGES.memberNotFound);
  await queueLicenseStatusEvent(tx, seat, now);
  const [member] = await tx
    .select({ name: users.name, email: users.email, erasedAt: users.erasedAt })
    .from(users)
    .where(eq(users.id, memberId));
  if (member && !member.erasedAt)
    await enqueueMail(
      ctx,
      tx,
      {
        to: member.email,
        ...renderRemovedEmail({
          memberName: member.name,
          ownerName: team.ownerName,
          toolName: team.toolName,
          byOperator: by === 'operator',
        }),
        kind: 'team-removed',
        ref: `license:${seat.licenseId}`,
      },
      now,
    );
  return { licenseId: seat.licenseId, email: member?.email ?? '' };
}

/** DELETE /api/teams/:licenseId/members/:memberId */
export async function removeMember(
  ctx: AppContext,
  userId: string,
  licenseId: string,
  memberId: string,
): Promise<void> {
  const now = ctx.clock.now();
  const removed = await ctx.db.transaction(async (tx) => {
    const team = await ownTeam(tx, userId, licenseId, true);
    return revokeSeat(ctx, tx, team, memberId, now, 'owner');
  });
  forgetLicenses(ctx, removed.licenseId);
  forgetOwnedTools(ctx, memberId);
}

/** For the operator's seat operations: the team, locked, whoever owns it. */
export async function lockedTeam(tx: Tx, licenseId: string): Promise<TeamRow> {
  const team = await findTeam(tx, licenseId, true);
  if (!team || team.license.status === 'revoked')
    throw new DomainError('not_found', TEAM_MESSAGES.teamNotFound);
  return team;
}

/** The member of a team an operator names by account id or email; the owner too (refused by what follows). */
export async function seatHolder(
  tx: Tx,
  team: TeamRow,
  typed: string,
): Promise<{ id: string; email: string }> {
  const members = await membersOf(tx, team);
  const wanted = typed.trim().toLowerCase();
  const found = members.find((member) => member.memberId === wanted || member.email.toLowerCase() === wanted);
  if (!found) throw new DomainError('not_found', TEAM_MESSAGES.memberNotFound);
  return { id: found.memberId, email: found.email };
}

export { invite as inviteInTransaction };

/**
 * Erasure: the pending invitations of the person's teams (they name other people's addresses and go with the team),
 * and every invitation sent to the person's addresses, by anyone's team (the seat it held is free again).
 */
export async function dropInvitations(
  tx: Tx,
  of: { teamLicenseIds: readonly string[]; emails: readonly string[] },
): Promise<void> {
  if (of.teamLicenseIds.length)
    await tx.delete(teamInvitations).where(inArray(teamInvitations.teamLicenseId, [...of.teamLicenseIds]));
  if (of.emails.length)
    await tx.delete(teamInvitations).where(inArray(teamInvitations.email, [...of.emails]));
}

/** Cancels up to `count` of a team's pending invitations, the newest first; returns how many it cancelled. */
export async function cancelNewestInvitations(
  tx: Tx,
  teamLicenseId: string,
  count: number,
  now: Date,
): Promise<number> {
  if (count <= 0) return 0;
  const newest = await tx
    .select({ id: teamInvitations.id })
    .from(teamInvitations)
    .where(pendingInvitations(teamLicenseId, now))
    .orderBy(desc(teamInvitations.invitedAt))
    .limit(count);
  if (newest.length === 0) return 0;
  await tx
    .update(teamInvitations)
    .set({ cancelledAt: now })
    .where(
      inArray(
        teamInvitations.id,
        newest.map((row) => row.id),
      ),
    );
  return newest.length;
}
