import { and, asc, count, eq, gt, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db';
import { users } from '../db/schema/accounts';
import { licenses } from '../db/schema/licenses';
import { teamInvitations } from '../db/schema/teams';

/** The license statuses that hold a seat of a team: a member whose key is revoked has given it back. */
export const SEAT_HOLDING = ['active', 'suspended'] as const;

/** The licenses this person holds as a seat of someone else's team, while the seat is not taken back. */
export function seatsHeldBy(userId: string) {
  return and(
    eq(licenses.holderId, userId),
    isNotNull(licenses.teamLicenseId),
    inArray(licenses.status, [...SEAT_HOLDING]),
  );
}

/**
 * The members holding a seat of these teams now (a seat taken back is gone), earliest first: each one's own license
 * and who holds it. The team's page and the operator's license view list them alike.
 */
export function seatMembersOf(db: DbOrTx, teamLicenseIds: readonly string[]) {
  return db
    .select({
      teamLicenseId: licenses.teamLicenseId,
      licenseId: licenses.id,
      memberId: users.id,
      email: users.email,
      name: users.name,
      joinedAt: licenses.createdAt,
    })
    .from(licenses)
    .innerJoin(users, eq(users.id, licenses.holderId))
    .where(
      and(inArray(licenses.teamLicenseId, [...teamLicenseIds]), inArray(licenses.status, [...SEAT_HOLDING])),
    )
    .orderBy(asc(licenses.createdAt));
}

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

/** Raises a team's seats when an "Add seats" order is paid, inside the fulfilment transaction. */
export async function addSeats(
  tx: Tx,
  licenseId: string,
  added: number,
): Promise<{ seats: number } | undefined> {
  const [row] = await tx
    .update(licenses)
    .set({ seats: sql`${licenses.seats} + ${added}` })
    .where(and(eq(licenses.id, licenseId), isNull(licenses.teamLicenseId), ne(licenses.status, 'revoked')))
    .returning({ seats: licenses.seats });
  return row;
}

/** Takes back the seats a refunded "Add seats" order gave (never below the owner's own); returns the seats left. */
export async function removeSeats(tx: Tx, licenseId: string, removed: number): Promise<number> {
  const [row] = await tx
    .update(licenses)
    .set({ seats: sql`greatest(1, ${licenses.seats} - ${removed})` })
    .where(eq(licenses.id, licenseId))
    .returning({ seats: licenses.seats });
  return row?.seats ?? 1;
}

/**
 * Takes a member's seat of a team back: their license is revoked (REVOKED at its next validate, its feeds gone).
 * Undefined when the person holds no live seat of it.
 */
export async function revokeMemberSeat(
  tx: Tx,
  seat: { teamLicenseId: string; memberId: string },
  now: Date,
): Promise<{ licenseId: string; status: 'revoked' } | undefined> {
  const [revoked] = await tx
    .update(licenses)
    .set({ status: 'revoked', statusChangedAt: now })
    .where(
      and(
        eq(licenses.teamLicenseId, seat.teamLicenseId),
        eq(licenses.holderId, seat.memberId),
        inArray(licenses.status, [...SEAT_HOLDING]),
      ),
    )
    .returning({ licenseId: licenses.id });
  return revoked && { licenseId: revoked.licenseId, status: 'revoked' };
}
