import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { auditLog } from '../db/schema/operator';

/**
 * Who did something: a signed-in operator on the dashboard, or the command line run by an OS user (the server's
 * own rights; the user is who ran `npm run admin`, also when the running server runs it for them).
 */
export type Actor =
  | { kind: 'operator'; userId: string; email: string }
  | { kind: 'cli'; osUser: string }
  /** A buyer acting on their own account (deleting it): named without personal data. */
  | { kind: 'buyer'; userId: string }
  /** The shop itself, by a background job's rule the operator set (a rollout halted when machines are stuck). */
  | { kind: 'system'; job: string };

export const cliActor = (osUser: string): Actor => ({ kind: 'cli', osUser });

/** How the audit log names an actor: the operator's email, `cli:<OS user>`, `buyer:self` or `system:<job>`. */
export function actorName(actor: Actor): string {
  switch (actor.kind) {
    case 'operator':
      return actor.email;
    case 'cli':
      return `cli:${actor.osUser}`;
    case 'buyer':
      return 'buyer:self';
    case 'system':
      return `system:${actor.job}`;
  }
}

/**
 * Records one operator action. Every operator operation calls it with the transaction that makes its change, so
 * the entry and the change commit or roll back together whoever asked (dashboard or command line).
 */
export async function recordAudit(
  db: DbOrTx,
  actor: Actor,
  entry: { action: string; target?: string; before?: unknown; after?: unknown },
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor.kind === 'operator' || actor.kind === 'buyer' ? actor.userId : null,
    actor: actorName(actor),
    action: entry.action,
    target: entry.target ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/**
 * Erasure (data-rights/erasure.ts): an address wherever the audit log wrote it down (an operator's own account, a
 * customer named by address) is replaced; the entries and what they record stay.
 */
export async function redactAuditLog(tx: DbOrTx, pattern: string, replacement: string): Promise<void> {
  const scrub = (column: string, json = false) => {
    const name = sql.identifier(column);
    return json
      ? sql`${name} = regexp_replace(${name}::text, ${pattern}, ${replacement}, 'gi')::jsonb`
      : sql`${name} = regexp_replace(${name}, ${pattern}, ${replacement}, 'gi')`;
  };
  await tx.execute(sql`
    update audit_log set ${scrub('actor')}, ${scrub('target')}, ${scrub('before', true)}, ${scrub('after', true)}
    where actor ~* ${pattern} or target ~* ${pattern} or before::text ~* ${pattern} or after::text ~* ${pattern}`);
}
