import { z } from 'zod';
import { REFUND_REQUEST_STATUSES } from '../../shared/refund-requests';
import { approveRefundRequest, declineRefundRequest, listRefundRequests } from '../orders/refund-requests';
import { formatMoney, formatTime, shortId, table } from './format';
import { argument, defineCommand, parseCommandInput } from './framework';
import { oneOfWords } from './lookup';

const listInput = z.object({
  status: oneOfWords([...REFUND_REQUEST_STATUSES, 'all']).default('open'),
});
const declineInput = z.object({
  reason: z
    .string({ error: 'required: the buyer is told why.' })
    .trim()
    .min(1, 'required: the buyer is told why.'),
});

const REQUEST_ARG = { name: 'id', description: 'the refund request: its id or the start of it' };

const list = defineCommand({
  path: ['refunds', 'requests', 'list'],
  summary: 'Buyers’ refund requests, newest first (open ones unless --status says otherwise)',
  options: {
    status: {
      type: 'string',
      value: '<open|approved|declined|all>',
      description: 'Which requests (default open)',
    },
  },
  example: 'refunds requests list --json',
  async run(env, { options }) {
    const { status } = parseCommandInput(listInput, { options });
    const ctx = await env.open();
    const rows = await listRefundRequests(ctx, status === 'all' ? {} : { status });
    return {
      data: rows,
      text: table(
        ['REQUEST', 'ASKED', 'CUSTOMER', 'TOOL', 'AMOUNT', 'REASON', 'STATUS', 'ORDER'],
        rows.map((row) => [
          row.id,
          formatTime(new Date(row.createdAt)),
          row.email,
          row.tool,
          formatMoney(row.amount, row.currency),
          row.reason,
          row.status,
          shortId(row.orderId),
        ]),
        'No refund requests.',
      ),
    };
  },
});

const approve = defineCommand({
  path: ['refunds', 'requests', 'approve'],
  summary: 'Approve a refund request: refunds the order in full (as "orders refund" does) and closes it',
  args: [REQUEST_ARG],
  example: 'refunds requests approve 3f2a9c1b',
  async run(env, input) {
    const ctx = await env.open();
    const result = await approveRefundRequest(ctx, env.actor, argument(input, 0));
    const refund = result.refund
      ? `Refunded ${formatMoney(result.refund.amount, result.refund.currency)} (Razorpay refund ${result.refund.refundId ?? 'recorded'}); customer email queued (mail ${result.refund.outboxId}).`
      : 'The order was already refunded.';
    return { data: result, text: `Refund request ${shortId(result.id)} approved. ${refund}` };
  },
});

const decline = defineCommand({
  path: ['refunds', 'requests', 'decline'],
  summary: 'Decline a refund request; the buyer is emailed the reason',
  args: [REQUEST_ARG],
  options: {
    reason: { type: 'string', value: '<text>', description: 'Why, as the buyer will read it (required)' },
  },
  example: 'refunds requests decline 3f2a9c1b --reason "The tool works on Windows 10; see our reply"',
  async run(env, input) {
    const { reason } = parseCommandInput(declineInput, { options: input.options });
    const ctx = await env.open();
    const result = await declineRefundRequest(ctx, env.actor, argument(input, 0), reason);
    return {
      data: result,
      text: `Refund request ${shortId(result.id)} declined; the buyer is emailed the reason.`,
    };
  },
});

export const refundCommands = [list, approve, decline];
