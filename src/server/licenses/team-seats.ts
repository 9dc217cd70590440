import { and, count, gt, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { licenses } from '../db/schema/licenses';
import { teamInvitations } from '../db/schema/teams';

/** The license statuses that hold a seat of a team: a member whose key is revoked has given it back. */
export const SEAT_HOLDING = ['active', 'suspended'] as const;

/**
 * How many seats of each team license are taken (decision 051): the owner's own, each member's license that is not
 * revoked, and each pending invitation that has not expired. Two queries however many teams.
 */
export async function seatsUsedOf(
  db: DbOrTx,
  teamLicenseIds: readonly string[],
  now: Date,
): Promise<Map<string, number>> {
  const used = new Map(teamLicenseIds.map((id) => [id, 1]));
  if (teamLicenseIds.length === 0) return used;
  const [members, invited] = await Promise.all([
    db
      .select({ id: licenses.teamLicenseId, n: count() })
      .from(licenses)
      .where(
        and(
          inArray(licenses.teamLicenseId, [...teamLicenseIds]),
          inArray(licenses.status, [...SEAT_HOLDING]),
        ),
      )
      .groupBy(licenses.teamLicenseId),
    db
      .select({ id: teamInvitations.teamLicenseId, n: count() })
      .from(teamInvitations)
      .where(
        and(
          inArray(teamInvitations.teamLicenseId, [...teamLicenseIds]),
          isNull(teamInvitations.acceptedAt),
          isNull(teamInvitations.cancelledAt),
          gt(teamInvitations.expiresAt, now),
        ),
      )
      .groupBy(teamInvitations.teamLicenseId),
  ]);
  for (const row of [...members, ...invited])
    if (row.id) used.set(row.id, (used.get(row.id) ?? 1) + Number(row.n));
  return used;
}
