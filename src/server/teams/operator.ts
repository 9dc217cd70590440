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
import { inviteInTransaction, lockedTeam, revokeSeat, seatHolder } from './teams';

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
