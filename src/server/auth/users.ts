import { and, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { orders, purchases, tools, users } from '../db/schema';
import { DomainError } from '../domain-error';

/** The operator's view of accounts: who signed up, and what each ordered and owns. */

/** `%` and `_` typed by the operator are matched literally. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** Accounts, newest first, with how many tools each owns (not refunded) and how many orders it made. */
export async function listAccounts(ctx: AppContext, options: { search?: string; limit: number }) {
  const { search, limit } = options;
  const where: SQL | undefined = search
    ? or(
        ilike(users.email, likePattern(search)),
        ilike(users.name, likePattern(search)),
        ilike(users.phone, likePattern(search)),
      )
    : undefined;
  const accounts = await ctx.db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      phone: users.phone,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit);
  const ids = accounts.map((account) => account.id);
  const owned = ids.length
    ? await ctx.db
        .select({ userId: purchases.userId, n: count() })
        .from(purchases)
        .where(and(inArray(purchases.userId, ids), isNull(purchases.refundedAt)))
        .groupBy(purchases.userId)
    : [];
  const ordered = ids.length
    ? await ctx.db
        .select({ userId: orders.userId, n: count() })
        .from(orders)
        .where(inArray(orders.userId, ids))
        .groupBy(orders.userId)
    : [];
  const countOf = (list: Array<{ userId: string; n: number }>, id: string) =>
    list.find((entry) => entry.userId === id)?.n ?? 0;
  return accounts.map((account) => ({
    ...account,
    tools: countOf(owned, account.id),
    orders: countOf(ordered, account.id),
  }));
}

/** One account by its email (any letter case) with its orders, newest first, and their purchases. */
export async function accountHistory(ctx: AppContext, email: string) {
  const [user] = await ctx.db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      phone: users.phone,
      createdAt: users.createdAt,
      passwordChangedAt: users.passwordChangedAt,
    })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  if (!user) throw new DomainError('not_found', `No account with email ${email}.`);

  const history = await ctx.db
    .select({
      orderId: orders.id,
      createdAt: orders.createdAt,
      toolId: tools.id,
      toolName: tools.name,
      device: tools.device,
      amount: orders.amount,
      currency: orders.currency,
      status: orders.status,
      razorpayPaymentId: orders.razorpayPaymentId,
      purchaseId: purchases.id,
      purchasedAt: purchases.createdAt,
      refundedAt: purchases.refundedAt,
    })
    .from(orders)
    .innerJoin(tools, eq(tools.id, orders.toolId))
    .leftJoin(purchases, eq(purchases.orderId, orders.id))
    .where(eq(orders.userId, user.id))
    .orderBy(desc(orders.createdAt));
  return { user, history };
}
