import { and, count, eq, gt, inArray } from 'drizzle-orm';
import { SELF_DEACTIVATION_LIMIT, SELF_DEACTIVATION_WINDOW_DAYS } from '../../shared/licenses';
import type { DbOrTx } from '../db';
import { licenseActivations, licenses } from '../db/schema/licenses';

/**
 * One allowance for freeing machines, whatever the channel: a buyer's deactivations from My Tools ('owner') and a
 * tool's through `POST /api/licenses/deactivate` ('tool') count together, at most 3 per license in 30 days, so
 * seats cannot be cycled to hand out more offline license files than the license has seats. The operator's own
 * deactivations do not count, and the operator's reset starts the count afresh.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** The channels a buyer frees machines through; the operator's frees are not the buyer's allowance. */
const BUYER_CHANNELS = ['owner', 'tool'] as const;

/** Deactivations count from the later of 30 days ago and the operator's last reset. */
function windowStart(now: Date, resetAt: Date | null): Date {
  const rolling = new Date(now.getTime() - SELF_DEACTIVATION_WINDOW_DAYS * DAY_MS);
  return resetAt && resetAt > rolling ? resetAt : rolling;
}

async function deactivationsSince(db: DbOrTx, licenseId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(licenseActivations)
    .where(
      and(
        eq(licenseActivations.licenseId, licenseId),
        inArray(licenseActivations.deactivatedBy, [...BUYER_CHANNELS]),
        gt(licenseActivations.deactivatedAt, since),
      ),
    );
  return row?.n ?? 0;
}

/** How many more machines the buyer may free now. */
async function deactivationsLeft(
  db: DbOrTx,
  license: { id: string; resetAt: Date | null },
  now: Date,
): Promise<number> {
  const used = await deactivationsSince(db, license.id, windowStart(now, license.resetAt));
  return Math.max(0, SELF_DEACTIVATION_LIMIT - used);
}

/** `deactivationsLeft` of many licenses in one query (My Tools lists them all): by license id. */
export async function deactivationsLeftOfAll(
  db: DbOrTx,
  owned: ReadonlyArray<{ id: string; resetAt: Date | null }>,
  now: Date,
): Promise<Map<string, number>> {
  const rolling = windowStart(now, null);
  const freed = owned.length
    ? await db
        .select({ licenseId: licenseActivations.licenseId, at: licenseActivations.deactivatedAt })
        .from(licenseActivations)
        .where(
          and(
            inArray(
              licenseActivations.licenseId,
              owned.map((license) => license.id),
            ),
            inArray(licenseActivations.deactivatedBy, [...BUYER_CHANNELS]),
            gt(licenseActivations.deactivatedAt, rolling),
          ),
        )
    : [];
  return new Map(
    owned.map((license) => {
      const since = windowStart(now, license.resetAt);
      const used = freed.filter((row) => row.licenseId === license.id && row.at && row.at > since).length;
      return [license.id, Math.max(0, SELF_DEACTIVATION_LIMIT - used)];
    }),
  );
}

/**
 * Locks the license row and says how many machines the buyer may still free, the one about to be freed included.
 * Call it inside the transaction that frees the machine: parallel frees through any channel then wait for each
 * other, and cannot exceed the allowance.
 */
export async function lockDeactivationsLeft(tx: DbOrTx, licenseId: string, now: Date): Promise<number> {
  const [license] = await tx
    .select({ resetAt: licenses.selfDeactivationsResetAt })
    .from(licenses)
    .where(eq(licenses.id, licenseId))
    .for('update');
  return deactivationsLeft(tx, { id: licenseId, resetAt: license?.resetAt ?? null }, now);
}
