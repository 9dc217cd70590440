import type { DbOrTx } from '../db';
import { auditLog } from '../db/schema';

/** Who did something: a signed-in operator, or the command line (which runs with the server's own rights). */
export type Actor = { kind: 'operator'; userId: string; email: string } | { kind: 'cli' };

export const CLI_ACTOR: Actor = { kind: 'cli' };

/**
 * Records one operator action. Call it with the transaction that makes the change, so the entry and the change
 * commit or roll back together; the dashboard only ever reads this table.
 */
export async function recordAudit(
  db: DbOrTx,
  actor: Actor,
  entry: { action: string; target?: string; before?: unknown; after?: unknown },
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor.kind === 'operator' ? actor.userId : null,
    actor: actor.kind === 'operator' ? actor.email : 'command line',
    action: entry.action,
    target: entry.target ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
