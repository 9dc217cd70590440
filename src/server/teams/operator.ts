import { and, inArray, isNull } from 'drizzle-orm';
import { normaliseEmail } from '../../shared/auth';
import type { PendingInvitation } from '../../shared/teams';
import { forgetOwnedTools } from '../catalogue/catalogue';
import type { Tx } from '../db';
import { licenses } from '../db/schema/licenses';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { forgetLicenses } from '../licenses/memory';
import { licenseKeyHashes } from '../licenses/secrets-at-rest';
import { type Actor, recordAudit } from '../operator/audit';
import {
  cancelNewestInvitations,
  describeTeam,
  inviteInTransaction,
  lockedTeam,
  revokeSeat,
  seatHolder,
} from './teams';

/**
 * The operator's seat operations on a team license (decision 051), for the command line and the dashboard alike:
 * each takes a member's seat back through the owner's own path (the member's license revoked, the member emailed)
 * and writes its audit entry in the same transaction.
 */

const NO_TEAM = 'No team license with that key.';

/** The team license a key names (the owner's key; a member's key names no team). */
async function teamOfKey(tx: Tx, ctx: AppContext, licenseKey: string) {
  const [row] = await tx
    .select({ id: licenses.id })
    .from(licenses)
    .where(
      and(
        inArray(licenses.licenseKeyHash, licenseKeyHashes(ctx.dataSecrets, licenseKey.trim().toUpperCase())),
        isNull(licenses.teamLicenseId),
      ),
    );
  if (!row) throw new DomainError('not_found', NO_TEAM);
  return lockedTeam(tx, row.id);
}

/** Frees a member's seat: their license is revoked, the seat is free for a new invitation. */
export async function freeSeatAsOperator(
  ctx: AppContext,
  input: { licenseKey: string; member: string },
  actor: Actor,
): Promise<{ teamLicenseId: string; memberId: string; memberLicenseId: string }> {
  const now = ctx.clock.now();
  const freed = await ctx.db.transaction(async (tx) => {
    const team = await teamOfKey(tx, ctx, input.licenseKey);
    const member = await seatHolder(tx, team, input.member);
    const seat = await revokeSeat(ctx, tx, team, member.id, now, 'operator');
    await recordAudit(tx, actor, {
      action: 'license.seat_free',
      target: `license:${team.license.id}`,
      before: { member: member.id, email: member.email, memberLicense: seat.licenseId },
      after: { member: null },
    });
    return { teamLicenseId: team.license.id, memberId: member.id, memberLicenseId: seat.licenseId };
  });
  forgetLicenses(ctx, freed.memberLicenseId);
  forgetOwnedTools(ctx, freed.memberId);
  return freed;
}

/** Moves a member's seat to someone else: their license is revoked and `to` is invited to the seat by email. */
export async function moveSeatAsOperator(
  ctx: AppContext,
  input: { licenseKey: string; member: string; to: string },
  actor: Actor,
): Promise<{
  teamLicenseId: string;
  memberId: string;
  memberLicenseId: string;
  invitation: PendingInvitation;
}> {
  const now = ctx.clock.now();
  const to = normaliseEmail(input.to);
  const moved = await ctx.db.transaction(async (tx) => {
    const team = await teamOfKey(tx, ctx, input.licenseKey);
    const member = await seatHolder(tx, team, input.member);
    const seat = await revokeSeat(ctx, tx, team, member.id, now, 'operator');
    const invitation = await inviteInTransaction(ctx, tx, team, to, now);
    await recordAudit(tx, actor, {
      action: 'license.seat_move',
      target: `license:${team.license.id}`,
      before: { member: member.id, email: member.email, memberLicense: seat.licenseId },
      after: { invited: to, invitation: invitation.id },
    });
    return {
      teamLicenseId: team.license.id,
      memberId: member.id,
      memberLicenseId: seat.licenseId,
      invitation,
    };
  });
  forgetLicenses(ctx, moved.memberLicenseId);
  forgetOwnedTools(ctx, moved.memberId);
  return moved;
}

/**
 * After seats were taken back (a refund of "Add seats"), frees what stands beyond the seats still paid for: pending
 * invitations first (newest first), then the newest members' seats (their licenses revoked, each emailed), one audit
 * entry for the lot. The owner's seat is never freed.
 */
export async function freeSeatsBeyondPaid(
  ctx: AppContext,
  input: { teamLicenseId: string },
  actor: Actor,
): Promise<{ invitationsCancelled: number; membersFreed: Array<{ memberId: string; email: string }> }> {
  const now = ctx.clock.now();
  const freed = await ctx.db.transaction(async (tx) => {
    const locked = await lockedTeam(tx, input.teamLicenseId);
    const team = await describeTeam(tx, locked, now);
    let beyond = team.seatsUsed - team.seats;
    if (beyond <= 0)
      throw new DomainError('refused', 'Every seat of this team is paid for: nothing stands beyond them.');
    const cancelled = await cancelNewestInvitations(tx, team.licenseId, beyond, now);
    beyond -= cancelled;
    const newest = team.members
      .filter((member) => !member.isOwner)
      .slice(-Math.max(0, beyond))
      .reverse();
    const membersFreed: Array<{ memberId: string; email: string; licenseId: string }> = [];
    for (const member of beyond > 0 ? newest : []) {
      const seat = await revokeSeat(ctx, tx, locked, member.memberId, now, 'operator');
      membersFreed.push({ memberId: member.memberId, email: member.email, licenseId: seat.licenseId });
    }
    await recordAudit(tx, actor, {
      action: 'license.seats_free_beyond_paid',
      target: `license:${team.licenseId}`,
      before: { seats: team.seats, used: team.seatsUsed },
      after: { invitationsCancelled: cancelled, membersFreed: membersFreed.map((member) => member.email) },
    });
    return { invitationsCancelled: cancelled, membersFreed };
  });
  for (const member of freed.membersFreed) {
    forgetLicenses(ctx, member.licenseId);
    forgetOwnedTools(ctx, member.memberId);
  }
  return {
    invitationsCancelled: freed.invitationsCancelled,
    membersFreed: freed.membersFreed.map(({ memberId, email }) => ({ memberId, email })),
  };
}
