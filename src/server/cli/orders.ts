import { z } from 'zod';
import { DOWNLOAD_LINK_VALID_MS } from '../../shared/constants';
import { REFUND_REASON_MAX } from '../../shared/dashboard';
import { ORDER_STATUSES } from '../../shared/orders';
import { DomainError } from '../kernel/domain-error';
import { toolLabel } from '../licenses/delivery-email';
import { resendDelivery } from '../orders/delivery';
import type { SeatsBeyondPaid } from '../orders/kinds/kind';
import { listOrders, type OrderDossier, orderDossier } from '../orders/read/operator';
import { reconcileOnce } from '../orders/reconciler';
import { refundOrder } from '../orders/refund';
import { details, formatMoney, formatTime, sections, shortId, table } from './format';
import { defineCommand, INVOCATION, parseCommandInput } from './framework';
import { FREE_BEYOND_PAID_COMMAND } from './licenses';
import { limitOption, namedOrder, oneOfWords, sinceOption } from './lookup';

const ORDER_ARG = {
  name: 'id',
  description:
    'the order: its id (or the start of it), its Razorpay order id (order_…) or payment id (pay_…)',
};

const listInput = z.object({
  status: oneOfWords(ORDER_STATUSES).optional(),
  email: z.string().trim().optional(),
  since: sinceOption,
  limit: limitOption(50),
});

const list = defineCommand({
  path: ['orders', 'list'],
  summary: 'List orders, newest first',
  options: {
    status: {
      type: 'string',
      value: '<created|paid|failed|refunded|cancelled>',
      description: 'Only orders in this state',
    },
    email: { type: 'string', value: '<address>', description: 'Only this customer’s orders' },
    since: { type: 'string', value: '<date|age>', description: 'Created since, e.g. 2026-06-01 or 7d' },
    limit: { type: 'string', value: '<n>', description: 'At most this many (default 50)' },
  },
  example: 'orders list --status paid --since 7d',
  async run(env, { options }) {
    const { status, email, since, limit } = parseCommandInput(listInput, { options });
    const query = { status, email, since, sort: 'createdAt', dir: 'desc', pageSize: limit } as const;
    const ctx = await env.open();
    const { rows } = await listOrders(ctx, query);
    return {
      data: rows,
      text: table(
        ['ORDER', 'CREATED', 'CUSTOMER', 'TOOL', 'AMOUNT', 'STATUS', 'RAZORPAY ORDER', 'PAYMENT'],
        rows.map((row) => [
          shortId(row.id),
          formatTime(row.createdAt),
          row.customerEmail,
          toolLabel(row.toolName, row.device),
          formatMoney(row.amount, row.currency),
          row.status,
          row.razorpayOrderId,
          row.razorpayPaymentId,
        ]),
        'No orders match.',
      ),
    };
  },
});

function dossierText(d: OrderDossier): string {
  const license = d.purchase?.license;
  const billing = d.billing;
  return sections([
    [
      null,
      details([
        ['Order', d.id],
        ['Status', d.failureReason ? `${d.status} (${d.failureReason})` : d.status],
        ['Amount', formatMoney(d.amount, d.currency)],
        ['Coupon', d.couponCode && `${d.couponCode} (−${formatMoney(d.discount ?? 0, d.currency)})`],
        ['Created', formatTime(d.createdAt)],
        ['Paid', formatTime(d.paidAt)],
        ['Razorpay order', d.razorpayOrderId],
        ['Razorpay payment', d.razorpayPaymentId],
        ['Customer', d.customer ? `${d.customer.name} <${d.customer.email}> ${d.customer.phone}` : 'missing'],
        ['Tool', d.tool ? `${toolLabel(d.tool.name, d.tool.device)} (${shortId(d.tool.id)})` : 'missing'],
        ['Invoice', d.invoice && `${d.invoice.number} of ${formatTime(d.invoice.issuedAt)}`],
        ['Credit note', d.creditNote && `${d.creditNote.number} of ${formatTime(d.creditNote.issuedAt)}`],
        [
          'TDS',
          d.tdsAmount > 0 ? `${formatMoney(d.tdsAmount, d.currency)} under s.194J, PAN ${d.buyerPan}` : null,
        ],
        [
          'Form 16A',
          d.tdsCertificate &&
            `${d.tdsCertificate.fileName}, received ${formatTime(d.tdsCertificate.uploadedAt)}${d.tdsCertificate.checkedAt ? `, checked ${formatTime(d.tdsCertificate.checkedAt)} by ${d.tdsCertificate.checkedBy}` : ', not checked yet'}`,
        ],
      ]),
    ],
    ...proformaSections(d),
    [
      'Billing:',
      details([
        ['Address', billing?.address],
        ['State', billing?.state],
        ['Country', billing?.country],
        ['GSTIN', billing?.gstin],
      ]),
    ],
    [
      'Purchase:',
      d.purchase
        ? details([
            ['Purchase', d.purchase.id],
            ['Since', formatTime(d.purchase.createdAt)],
            ['Refunded', formatTime(d.purchase.refundedAt)],
            ...(license?.licenseKey
              ? [['License key', license.licenseKey] as [string, string]]
              : [
                  ['Username', license?.username] as [string, unknown],
                  ['Password', license?.password] as [string, unknown],
                ]),
            ['Live download links', d.purchase.liveDownloadLinks],
          ])
        : 'None (the order was not fulfilled).',
    ],
    [
      'Licenses:',
      table(
        ['LICENSE', 'STATUS', 'DEVICES', 'SELF-DEACTIVATIONS LEFT'],
        d.licenses.map((license) => [
          shortId(license.id),
          license.status,
          `${license.devices.length} of ${license.activationLimit}`,
          license.selfDeactivationsLeft,
        ]),
        'None.',
      ),
    ],
    [
      'History:',
      table(
        ['AT', 'EVENT', 'DETAIL'],
        d.events.map((event) => [
          formatTime(event.at),
          event.kind,
          event.detail ? JSON.stringify(event.detail) : '',
        ]),
        'No events.',
      ),
    ],
    [
      'Emails:',
      table(
        ['MAIL', 'QUEUED', 'KIND', 'TO', 'STATUS', 'SENT', 'LAST ERROR'],
        d.emails.map((mail) => [
          mail.id,
          formatTime(mail.createdAt),
          mail.kind,
          mail.to,
          mail.status === 'pending' && mail.attempts > 0 ? `pending (tried ${mail.attempts}×)` : mail.status,
          formatTime(mail.sentAt),
          mail.lastError,
        ]),
        'None.',
      ),
    ],
  ]);
}

/** An order paid against a proforma: its terms, what is due and received, and each receipt. */
function proformaSections(d: OrderDossier): Array<[string | null, string]> {
  const p = d.proforma;
  if (!p) return [];
  return [
    [
      'Proforma invoice:',
      details([
        ['Number', `${p.number} of ${formatTime(p.issuedAt)}`],
        ['Valid until', formatTime(p.validUntil)],
        ['Expired', formatTime(p.expiredAt)],
        ['Payment link', p.paymentLinkUrl],
        ['Amount due', formatMoney(p.amountDue, d.currency)],
        ['Received', formatMoney(p.received, d.currency)],
        [
          'Decide',
          p.lateToDecide ? 'money came late: "orders settle-late" or "orders return-payment"' : null,
        ],
      ]),
    ],
    [
      'Payments received:',
      table(
        ['METHOD', 'AMOUNT', 'REFERENCE', 'RECEIVED ON', 'RECORDED BY', 'STATE'],
        p.receipts.map((receipt) => [
          receipt.method,
          formatMoney(receipt.amount, d.currency),
          receipt.reference,
          receipt.receivedOn,
          receipt.recordedBy,
          receipt.returnedAt
            ? `returned ${formatTime(receipt.returnedAt)} ${receipt.returnReference ?? ''}`.trim()
            : receipt.late
              ? 'late'
              : 'counted',
        ]),
        'None yet.',
      ),
    ],
  ];
}

const show = defineCommand({
  path: ['orders', 'show'],
  summary: 'Show an order: customer, amount, Razorpay ids, billing, history, license and emails',
  args: [ORDER_ARG],
  example: 'orders show pay_Q1w2E3r4T5y6U7',
  async run(env, input) {
    const { ctx, order } = await namedOrder(env, input);
    const dossier = await orderDossier(ctx, order.id);
    return { data: dossier, text: dossierText(dossier) };
  },
});

const resend = defineCommand({
  path: ['orders', 'resend'],
  summary: 'Email the customer their license or credentials again, with a fresh 3-hour download link',
  args: [ORDER_ARG],
  example: 'orders resend 9c8d7e6f',
  details: 'The same email as "Get Credentials" on My Tools; the running server’s mail worker sends it.',
  async run(env, input) {
    const { ctx, order } = await namedOrder(env, input);
    const outcome = await resendDelivery(ctx, { orderId: order.id }, 'admin', env.actor);
    if (outcome.result === 'no-purchase') {
      throw new DomainError(
        'refused',
        `Order ${shortId(order.id)} is ${order.status} and has no purchase: there is nothing to resend.`,
      );
    }
    if (outcome.result === 'refunded') {
      throw new DomainError(
        'refused',
        `Order ${shortId(order.id)} was refunded on ${formatTime(outcome.refundedAt)}: its license no longer works.`,
      );
    }
    if (outcome.result === 'no-license')
      throw new DomainError('refused', `Order ${shortId(order.id)} has no license to resend.`);
    const result = {
      orderId: order.id,
      outboxId: outcome.outboxId,
      to: outcome.to,
      tool: toolLabel(outcome.tool.name, outcome.tool.device),
      downloadLinkExpiresAt: outcome.tool.fileKey
        ? new Date(outcome.at.getTime() + DOWNLOAD_LINK_VALID_MS)
        : null,
    };
    const link = result.downloadLinkExpiresAt
      ? `with a download link valid until ${formatTime(result.downloadLinkExpiresAt)}`
      : 'without a download link (the tool has no file)';
    return {
      data: result,
      text: `Queued the ${result.tool} details for ${result.to} (mail ${result.outboxId}), ${link}.`,
    };
  },
});

const refundInput = z.object({
  reason: z
    .string()
    .trim()
    .max(REFUND_REASON_MAX, `too long (at most ${REFUND_REASON_MAX} characters).`)
    .optional()
    .transform((reason) => reason || null),
});

/** After a refund of added seats: who now stands beyond the seats still paid, and the command that frees them. */
function seatsBeyondPaidText(beyond: SeatsBeyondPaid | null): string {
  if (!beyond) return '';
  const people = beyond.used - beyond.seats;
  return (
    `\n${people} ${people === 1 ? 'person holds a seat or an invitation' : 'people hold seats or invitations'} ` +
    `beyond the ${beyond.seats} seats still paid for (${beyond.used} in use). Free them with:\n` +
    `  ${INVOCATION} ${FREE_BEYOND_PAID_COMMAND} ${beyond.teamLicenseId}`
  );
}

const refund = defineCommand({
  path: ['orders', 'refund'],
  summary: 'Refund a paid order in full through Razorpay; its license and downloads stop working',
  args: [ORDER_ARG],
  options: {
    reason: {
      type: 'string',
      value: '<text>',
      description: 'Why; kept on the order and told to the customer',
    },
  },
  example: 'orders refund 9c8d7e6f --reason "Bought the Windows edition by mistake"',
  details:
    'Razorpay is asked first; if it refuses, nothing changes. Then the order and purchase are marked refunded,\n' +
    'the download links deleted, "Get Credentials" refuses, and the customer is emailed.',
  async run(env, input) {
    const { reason } = parseCommandInput(refundInput, { options: input.options });
    const { ctx, order } = await namedOrder(env, input);
    const result = await refundOrder(ctx, { orderId: order.id, source: 'admin', reason, actor: env.actor });
    const how = result.refundedEarlier
      ? 'Razorpay already showed the payment refunded; recorded it'
      : `Razorpay refund ${result.refundId}`;
    return {
      data: result,
      text:
        `Refunded ${formatMoney(result.amount, result.currency)} for order ${shortId(order.id)} (${how}). ` +
        `${result.purchaseId ? `Purchase ended, ${result.downloadLinksRevoked} download link(s) deleted; ` : ''}` +
        `customer email queued (mail ${result.outboxId}).` +
        seatsBeyondPaidText(result.seatsBeyondPaid),
    };
  },
});

const reconcile = defineCommand({
  path: ['reconcile'],
  summary: 'Ask Razorpay about open orders once and fulfil the paid ones (what the server does every minute)',
  example: 'reconcile',
  details: 'Looks at orders between 2 minutes and 7 days old that are still waiting for payment.',
  async run(env) {
    const ctx = await env.open();
    const summary = await reconcileOnce(ctx);
    const lines = [
      `Checked ${summary.checked} open order(s): ${summary.fulfilled} fulfilled, ${summary.alreadyPaid} already paid, ` +
        `${summary.duplicates} duplicate payment(s) refunded, ${summary.unpaid} still unpaid.`,
      `Closed ${summary.abandoned} order(s) whose Razorpay order was never created.`,
    ];
    if (summary.errors.length > 0) {
      lines.push(
        '',
        'Problems:',
        table(
          ['ORDER', 'PROBLEM'],
          summary.errors.map((problem) => [shortId(problem.orderId), problem.message]),
          '',
        ),
      );
    }
    return { data: summary, text: lines.join('\n'), exitCode: summary.errors.length > 0 ? 1 : 0 };
  },
});

export const orderCommands = [list, show, resend, refund];
export const reconcileCommands = [reconcile];
