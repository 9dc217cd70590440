import { recordTransferSchema } from '../../shared/dashboard';
import { formatSubunits, toSubunits } from '../../shared/money';
import { indiaDate } from '../invoices/numbering';
import {
  type ReceiptOutcome,
  recordTransfer,
  returnLatePayment,
  settleLatePayment,
} from '../orders/receipts';
import { markTdsCertificateChecked } from '../orders/tds';
import { formatTime, shortId } from './format';
import { defineCommand, parseCommandInput } from './framework';
import { namedOrder } from './lookup';

/**
 * Orders paid against a proforma invoice (issue 68, docs/decisions/062): bank transfers recorded as the bank
 * shows them, the decision on money that came after a proforma expired, and the buyer's Form 16A checked. Each is
 * one audited operation (orders/receipts.ts, orders/tds.ts), as the dashboard's order page runs it.
 */

const ORDER_ARG = {
  name: 'order',
  description:
    'the order: its id (or the start of it), its proforma number (PCAP/26-27/00001) or Razorpay ids',
};

/** The dashboard's transfer, with the value date left to today when it is not given. */
const transferInputSchema = recordTransferSchema.extend({ date: recordTransferSchema.shape.date.optional() });

function receiptText(outcome: ReceiptOutcome, orderId: string): string {
  const money = (paise: number) => formatSubunits(paise, 'INR');
  const status = `${money(outcome.received)} of ${money(outcome.due)} received`;
  switch (outcome.result) {
    case 'settled':
      return outcome.fulfilment.result === 'fulfilled'
        ? `Order ${shortId(orderId)} is paid (${status}): its tax invoice is issued and the license delivered.`
        : `Order ${shortId(orderId)} could not be given (${outcome.fulfilment.result}); see "orders show".`;
    case 'late':
      return `Order ${shortId(orderId)} can no longer be paid this way (its proforma expired, or it is paid): the money is a late payment. Settle the order with it ("orders settle-late") or return it ("orders return-payment").`;
    default:
      return `Recorded for order ${shortId(orderId)}: ${status}; it settles when the rest arrives.`;
  }
}

const recordTransferCommand = defineCommand({
  path: ['orders', 'record-transfer'],
  summary: 'Record a bank transfer (NEFT/RTGS) received against an order’s proforma invoice',
  args: [ORDER_ARG],
  options: {
    amount: {
      type: 'string',
      value: '<rupees>',
      description: 'The amount credited, e.g. 5000.00 (required)',
    },
    utr: {
      type: 'string',
      value: '<reference>',
      description: 'The transfer’s UTR as the bank statement shows it (required)',
    },
    date: {
      type: 'string',
      value: '<YYYY-MM-DD>',
      description: 'The value date, India time (default: today)',
    },
  },
  example:
    'orders record-transfer PCAP/26-27/00012 --amount 5000.00 --utr HDFCN52026120112345 --date 2026-12-01',
  details:
    'The order settles (tax invoice, license, email) once what was received covers what is due: the total, less TDS\n' +
    'when the buyer deducts it. A UTR is recorded once. Audited as order.record-transfer.',
  async run(env, input) {
    const { amount, utr, date } = input.options;
    const typed = parseCommandInput(transferInputSchema, { options: { amount, utr, date } });
    const { ctx, order } = await namedOrder(env, input);
    const outcome = await recordTransfer(ctx, {
      orderId: order.id,
      amount: toSubunits(Number(typed.amount)),
      utr: typed.utr,
      date: typed.date ?? indiaDate(ctx.clock.now()),
      actor: env.actor,
      source: 'admin',
    });
    return { data: outcome, text: receiptText(outcome, order.id) };
  },
});

const settleLate = defineCommand({
  path: ['orders', 'settle-late'],
  summary: 'Settle an order whose proforma expired with the payment that came after it',
  args: [ORDER_ARG],
  example: 'orders settle-late 9c8d7e6f',
  details: 'The tax invoice is issued today and the license delivered, as if paid in time. Audited.',
  async run(env, input) {
    const { ctx, order } = await namedOrder(env, input);
    const outcome = await settleLatePayment(ctx, { orderId: order.id, actor: env.actor, source: 'admin' });
    return { data: outcome, text: receiptText(outcome, order.id) };
  },
});

const returnPayment = defineCommand({
  path: ['orders', 'return-payment'],
  summary:
    'Return a late payment: refund a payment link’s payment, record the transfer that sent a transfer back',
  args: [ORDER_ARG],
  options: {
    utr: {
      type: 'string',
      value: '<reference>',
      description: 'The UTR of your transfer back (needed when a bank transfer is returned)',
    },
  },
  example: 'orders return-payment 9c8d7e6f --utr HDFCN52026121012345',
  details: 'The order stays cancelled. Audited as order.return-late-payment.',
  async run(env, input) {
    const { ctx, order } = await namedOrder(env, input);
    const result = await returnLatePayment(ctx, {
      orderId: order.id,
      returnReference: input.options.utr,
      actor: env.actor,
    });
    return {
      data: result,
      text: `Returned ${formatSubunits(result.returned, 'INR')} for order ${shortId(order.id)}${result.refunds.length ? ` (Razorpay refund ${result.refunds.join(', ')})` : ''}.`,
    };
  },
});

const tdsChecked = defineCommand({
  path: ['orders', 'tds-checked'],
  summary: 'Mark the buyer’s TDS certificate (Form 16A) of an order as checked',
  args: [ORDER_ARG],
  example: 'orders tds-checked 9c8d7e6f',
  details: 'Check the PAN, the amount and the section against "orders show" first. Audited.',
  async run(env, input) {
    const { ctx, order } = await namedOrder(env, input);
    const result = await markTdsCertificateChecked(ctx, { orderId: order.id, actor: env.actor });
    return {
      data: result,
      text: `Form 16A of order ${shortId(order.id)} marked checked on ${formatTime(result.checkedAt)}.`,
    };
  },
});

export const proformaCommands = [recordTransferCommand, settleLate, returnPayment, tdsChecked];
