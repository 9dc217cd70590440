import { z } from 'zod';
import { findUserByEmail } from '../auth/accounts';
import { listAccounts } from '../auth/users';
import { exportAccountAsOperator } from '../data-rights/data-export';
import { toolLabel } from '../licenses/delivery-email';
import { customerDossier } from '../orders/read/operator';
import { details, formatMoney, formatTime, sections, shortId, table } from './format';
import { argument, CommandError, defineCommand, parseCommandInput } from './framework';
import { emailArgument, limitOption } from './lookup';

const listInput = z.object({ search: z.string().trim().optional(), limit: limitOption(50) });
const accountInput = z.object({ email: emailArgument });

const list = defineCommand({
  path: ['users', 'list'],
  summary: 'List accounts, newest first, with how many tools each owns',
  options: {
    search: {
      type: 'string',
      value: '<text>',
      description:
        'Only accounts whose email starts or ends with it, whose name starts with it, or whose phone ends with it',
    },
    limit: { type: 'string', value: '<n>', description: 'At most this many (default 50)' },
  },
  example: 'users list --search gmail.com',
  async run(env, { options }) {
    const { search, limit } = parseCommandInput(listInput, { options });
    const ctx = await env.open();
    const query = { search, sort: 'createdAt', dir: 'desc', pageSize: limit } as const;
    const { rows } = await listAccounts(ctx, query);
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
    const { email } = parseCommandInput(accountInput, { args: { email: argument(input, 0) } });
    const ctx = await env.open();
    const { account, orders } = await customerDossier(ctx, { email });
    const owned = orders.filter((order) => order.purchase && !order.purchase.refundedAt);
    const { tools: _tools, orders: _orders, ...user } = account;

    return {
      data: {
        ...user,
        purchases: orders.flatMap(({ purchase, ...order }) =>
          purchase
            ? [
                {
                  id: purchase.id,
                  orderId: order.id,
                  toolId: order.toolId,
                  toolName: order.toolName,
                  device: order.device,
                  purchasedAt: purchase.createdAt,
                  refundedAt: purchase.refundedAt,
                },
              ]
            : [],
        ),
        orders: orders.map((order) => ({
          id: order.id,
          createdAt: order.createdAt,
          toolId: order.toolId,
          toolName: order.toolName,
          amount: order.amount,
          currency: order.currency,
          status: order.status,
          razorpayPaymentId: order.razorpayPaymentId,
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
            orders.map((order) => [
              shortId(order.id),
              formatTime(order.createdAt),
              toolLabel(order.toolName, order.device),
              formatMoney(order.amount, order.currency),
              order.status,
              order.purchase
                ? order.purchase.refundedAt
                  ? `refunded ${formatTime(order.purchase.refundedAt)}`
                  : `owned since ${formatTime(order.purchase.createdAt)}`
                : '—',
            ]),
            'No orders.',
          ),
        ],
      ]),
    };
  },
});

const exportData = defineCommand({
  path: ['users', 'export'],
  summary: 'Write everything the shop holds about an account as JSON (a data request by email or post)',
  args: [{ name: 'email', description: 'the account’s email address (any letter case)' }],
  example: 'users export asha@example.com > asha-data.json',
  async run(env, input) {
    const { email } = parseCommandInput(accountInput, { args: { email: argument(input, 0) } });
    const ctx = await env.open();
    const user = await findUserByEmail(ctx.db, email);
    if (!user) throw new CommandError(`No account with email ${email}.`);
    const data = await exportAccountAsOperator(ctx, user.id, env.actor);
    return { data, text: JSON.stringify(data, null, 2) };
  },
});

export const userCommands = [list, show, exportData];
