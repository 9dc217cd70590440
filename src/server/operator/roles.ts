import { asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../db';
import { users } from '../db/schema/accounts';
import { adminSessions, operators } from '../db/schema/operator';
import type { AppContext } from '../kernel/context';
import { type Actor, recordAudit } from './audit';

/** Operator role management: only the command line calls these (docs/product.md §12). */

export class OperatorError extends Error {
  constructor(
    readonly code: 'unknown_user' | 'already_operator' | 'not_operator',
    message: string,
  ) {
    super(message);
    this.name = 'OperatorError';
  }
}

async function userByEmail(ctx: AppContext, email: string) {
  const [user] = await ctx.db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .limit(1);
  if (!user) throw new OperatorError('unknown_user', `No account with the email ${email.trim()}.`);
  return user;
}

/**
 * A grant or a revocation: the account by its email, the role's row changed and its Activity entry written in one
 * transaction, or the refusal when the change finds nothing to do (already an operator, or not one).
 */
async function changeRole(
  ctx: AppContext,
  email: string,
  actor: Actor,
  operator: boolean,
  change: (tx: Tx, user: { id: string; email: string }) => Promise<boolean>,
): Promise<{ email: string }> {
  const user = await userByEmail(ctx, email);
  await ctx.db.transaction(async (tx) => {
    if (!(await change(tx, user))) {
      throw operator
        ? new OperatorError('already_operator', `${user.email} is already an operator.`)
        : new OperatorError('not_operator', `${user.email} is not an operator.`);
    }
    await recordAudit(tx, actor, {
      action: operator ? 'operator.grant' : 'operator.revoke',
      target: `user:${user.email}`,
      before: { operator: !operator },
      after: { operator },
    });
  });
  return { email: user.email };
}

/** Gives an existing account the operator role; it must still enrol a second factor before seeing anything. */
export function grantOperator(ctx: AppContext, email: string, actor: Actor): Promise<{ email: string }> {
  return changeRole(ctx, email, actor, true, async (tx, user) => {
    const inserted = await tx
      .insert(operators)
      .values({ userId: user.id, grantedAt: ctx.clock.now() })
      .onConflictDoNothing()
      .returning({ userId: operators.userId });
    return inserted.length > 0;
  });
}

/**
 * Takes the role away, together with the second factor and every dashboard session: granting it again means
 * enrolling afresh.
 */
export function revokeOperator(ctx: AppContext, email: string, actor: Actor): Promise<{ email: string }> {
  return changeRole(ctx, email, actor, false, async (tx, user) => {
    await tx.delete(adminSessions).where(eq(adminSessions.userId, user.id));
    const removed = await tx
      .delete(operators)
      .where(eq(operators.userId, user.id))
      .returning({ userId: operators.userId });
    return removed.length > 0;
  });
}

export type OperatorSummary = { email: string; name: string; grantedAt: Date; enrolled: boolean };

export async function listOperators(ctx: AppContext): Promise<OperatorSummary[]> {
  const rows = await ctx.db
    .select({
      email: users.email,
      name: users.name,
      grantedAt: operators.grantedAt,
      enrolledAt: operators.totpEnrolledAt,
    })
    .from(operators)
    .innerJoin(users, eq(users.id, operators.userId))
    .orderBy(asc(users.email));
  return rows.map(({ enrolledAt, ...row }) => ({ ...row, enrolled: enrolledAt !== null }));
}
