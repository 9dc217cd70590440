import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../db';
import { licenseActivations, licenses } from '../db/schema/licenses';

/**
 * Erasure (data-rights/erasure.ts): every license the person holds (bought, trial, or a seat: found by its holder) is
 * revoked, so the license API answers REVOKED, and with a team license its members' seats (decision 051; an erased
 * member's own seat is revoked like any license it holds, which gives it back to the team). Their machines go, with
 * their names and update-feed tokens. Returns the licenses' ids.
 */
export async function revokeLicensesHeldBy(tx: Tx, userId: string, now: Date): Promise<string[]> {
  const held = await tx.select({ id: licenses.id }).from(licenses).where(eq(licenses.holderId, userId));
  const seated =
    held.length === 0
      ? []
      : await tx
          .select({ id: licenses.id })
          .from(licenses)
          .where(
            inArray(
              licenses.teamLicenseId,
              held.map((license) => license.id),
            ),
          );
  const ids = [...held, ...seated].map((license) => license.id);
  if (ids.length === 0) return ids;
  await tx
    .update(licenses)
    .set({ status: 'revoked', statusChangedAt: now })
    .where(and(inArray(licenses.id, ids), sql`${licenses.status} <> 'revoked'`));
  await tx.delete(licenseActivations).where(inArray(licenseActivations.licenseId, ids));
  return ids;
}

/** The teams the person has a seat in: mail of those teams may speak of them to others. */
export async function teamsSeatedIn(tx: Tx, userId: string): Promise<string[]> {
  const seats = await tx
    .select({ teamLicenseId: licenses.teamLicenseId })
    .from(licenses)
    .where(eq(licenses.holderId, userId));
  return seats.flatMap((seat) => seat.teamLicenseId ?? []);
}
