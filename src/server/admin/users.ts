import { and, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { orders, purchases, tools, users } from '../db/schema';
import { toolLabel } from '../shop/delivery-email';
import { details, formatMoney, formatTime, sections, shortId, table } from './format';
import { argument, CommandError, defineCommand } from './framework';
import { parseLimit } from './lookup';

/** `%` and `_` typed by the operator are matched literally. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

const list = defineCommand({
  path: ['users', 'list'],
  summary: 'List accounts, newest first, with how many tools each owns',
  options: {
    search: {
      type: 'string',
      value: '<text>',
      description: 'Only accounts whose email, name or phone contains it',
    },
    limit: { type: 'string', value: '<n>', description: 'At most this many (default 50)' },
  },
  example: 'users list --search gmail.com',
  async run(env, { options }) {
    const limit = parseLimit(options.limit, 50);
    const search = options.search?.trim();
    const where: SQL | undefined = search
      ? or(
          ilike(users.email, likePattern(search)),
          ilike(users.name, likePattern(search)),
          ilike(users.phone, likePattern(search)),
        )
      : undefined;
    const ctx = await env.open();
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
    const rows = accounts.map((account) => ({
      ...account,
      tools: countOf(owned, account.id),
      orders: countOf(ordered, account.id),
    }));
    return {
      data: rows,
      text: table(
        ['EMAIL', 'NAME', 'PHONE', 'SIGNED UP', 'TOOLS', 'ORDERS'],
        rows.map((row) => [row.email, row.name, row.phone, formatTime(row.createdAt), row.tools, row.orders]),
        search ? `No accounts match "${search}".` : 'No accounts yet.',
      ),
    };
  },
});

const show = defineCommand({
  path: ['users', 'show'],
  summary: 'Show an account with its orders and purchases',
  args: [{ name: 'email', description: 'the account’s email address (any letter case)' }],
  example: 'users show asha@example.com',
  async run(env, input) {
    const email = argument(input, 0).trim();
    if (!email.includes('@')) throw new CommandError(`"${email}" is not an email address.`);
    const ctx = await env.open();
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
    if (!user) throw new CommandError(`No account with email ${email}.`);

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
    const owned = history.filter((row) => row.purchaseId && !row.refundedAt);

    return {
      data: {
        ...user,
        purchases: history
          .filter((row) => row.purchaseId)
          .map((row) => ({
            id: row.purchaseId,
            orderId: row.orderId,
            toolId: row.toolId,
            toolName: row.toolName,
            device: row.device,
            purchasedAt: row.purchasedAt,
            refundedAt: row.refundedAt,
          })),
        orders: history.map((row) => ({
          id: row.orderId,
          createdAt: row.createdAt,
          toolId: row.toolId,
          toolName: row.toolName,
          amount: row.amount,
          currency: row.currency,
          status: row.status,
          razorpayPaymentId: row.razorpayPaymentId,
        })),
      },
      text: sections([
        [
          null,
          details([
            ['ID', user.id],
            ['Name', user.name],
            ['Email', user.email],
            ['Phone', user.phone],
            ['Signed up', formatTime(user.createdAt)],
            ['Password changed', formatTime(user.passwordChangedAt)],
            ['Tools owned', owned.length],
          ]),
        ],
        [
          'Orders:',
          table(
            ['ORDER', 'CREATED', 'TOOL', 'AMOUNT', 'STATUS', 'PURCHASE'],
            history.map((row) => [
              shortId(row.orderId),
              formatTime(row.createdAt),
              toolLabel(row.toolName, row.device),
              formatMoney(row.amount, row.currency),
              row.status,
              row.purchaseId
                ? row.refundedAt
                  ? `refunded ${formatTime(row.refundedAt)}`
                  : `owned since ${formatTime(row.purchasedAt)}`
                : '—',
            ]),
            'No orders.',
          ),
        ],
      ]),
    };
  },
});

export const userCommands = [list, show];
