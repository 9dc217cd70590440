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
  | { kind: 'buyer'; userId: string };

export const cliActor = (osUser: string): Actor => ({ kind: 'cli', osUser });

/** How the audit log names an actor: the operator's email, `cli:<OS user>`, or `buyer:self`. */
export function actorName(actor: Actor): string {
  if (actor.kind === 'operator') return actor.email;
  return actor.kind === 'cli' ? `cli:${actor.osUser}` : 'buyer:self';
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
    actorId: actor.kind === 'cli' ? null : actor.userId,
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
