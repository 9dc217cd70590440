import { z } from 'zod';
import { type CouponSummary, describeCouponValue, newCouponSchema } from '../../shared/coupons';
import { couponDetail, createCoupon, disableCoupon, listCoupons } from '../coupons/operator';
import { findTool } from '../operator/tool-lookup';
import { details, formatMoney, formatTime, sections, shortId, table } from './format';
import { argument, defineCommand, parseCommandInput } from './framework';

const amount = z
  .string()
  .trim()
  .refine((typed) => typed !== '' && Number.isFinite(Number(typed)), 'not an amount.')
  .transform(Number)
  .nullable()
  .default(null);
const whole = z.string().trim().regex(/^\d+$/, 'a whole number.').transform(Number).nullable().default(null);

/**
 * `coupons add`: the command line's words (amounts and counts as typed, tools as typed ids) and then the coupon as
 * the dashboard's form gives it, parsed by the same schema (`newCouponSchema`) in the one pass. The tools are looked
 * up afterwards, in the database.
 */
const addInput = z
  .object({
    code: z.string(),
    percent: whole,
    'amount-inr': amount,
    'amount-usd': amount,
    tools: z
      .string()
      .default('')
      .transform((typed) =>
        typed
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean),
      ),
    starts: z.string().nullable().default(null),
    ends: z.string().nullable().default(null),
    'max-uses': whole,
    reusable: z.boolean().default(false),
  })
  .transform((typed, check) => {
    const coupon = newCouponSchema.safeParse({
      code: typed.code,
      percent: typed.percent,
      amountInr: typed['amount-inr'],
      amountUsd: typed['amount-usd'],
      startsAt: typed.starts,
      endsAt: typed.ends,
      maxUses: typed['max-uses'],
      reusable: typed.reusable,
    });
    if (coupon.success) return { coupon: coupon.data, tools: typed.tools };
    for (const issue of coupon.error.issues)
      check.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  });

/** The option each of the coupon's fields comes from, for a refusal's name. */
const OPTION_OF_FIELD = {
  amountInr: 'amount-inr',
  amountUsd: 'amount-usd',
  startsAt: 'starts',
  endsAt: 'ends',
  maxUses: 'max-uses',
};

const when = (iso: string | null) => (iso ? formatTime(new Date(iso)) : '—');
const usesText = (coupon: CouponSummary) =>
  `${coupon.used} used${coupon.reserved ? ` + ${coupon.reserved} held` : ''}${coupon.maxUses === null ? '' : ` of ${coupon.maxUses}`}`;

function couponRows(coupon: CouponSummary): Array<[string, unknown]> {
  return [
    ['Code', coupon.code],
    ['Discount', describeCouponValue(coupon)],
    ['Tools', coupon.toolIds.length === 0 ? 'all' : coupon.toolIds.join(', ')],
    ['Starts', when(coupon.startsAt)],
    ['Ends', when(coupon.endsAt)],
    ['Uses', usesText(coupon)],
    ['Per buyer', coupon.reusable ? 'reusable' : 'once'],
    ['State', coupon.state],
    ['Created', `${when(coupon.createdAt)} by ${coupon.createdBy}`],
  ];
}

const add = defineCommand({
  path: ['coupons', 'add'],
  summary: 'Create a coupon code: a percentage or a fixed INR (and USD) amount off',
  args: [{ name: 'code', description: 'letters, digits and -, matched without regard to case' }],
  options: {
    percent: { type: 'string', value: '<1-100>', description: 'Percentage off (100: the tool is free)' },
    'amount-inr': { type: 'string', value: '<rupees>', description: 'Fixed amount off INR prices' },
    'amount-usd': {
      type: 'string',
      value: '<dollars>',
      description: 'Fixed amount off USD prices (default: the INR amount / 75)',
    },
    tools: { type: 'string', value: '<id,id>', description: 'Only these tools (default: all)' },
    starts: { type: 'string', value: '<date>', description: 'Valid from, e.g. 2026-12-01 (India time)' },
    ends: { type: 'string', value: '<date>', description: 'Valid through, e.g. 2026-12-31 (India time)' },
    'max-uses': { type: 'string', value: '<n>', description: 'Uses allowed in all (default: no limit)' },
    reusable: { type: 'boolean', description: 'A buyer may use it more than once (default: once per buyer)' },
  },
  example: 'coupons add DIWALI-20 --percent 20 --ends 2026-11-15 --max-uses 100',
  details:
    'A use is reserved when a buyer creates an order with the code and counted when the order is paid; an\n' +
    'unpaid order holds it for 30 minutes. A discounted price never goes below ₹1 / $1, except with --percent 100.',
  async run(env, input) {
    const { coupon, tools } = parseCommandInput(
      addInput,
      { options: input.options, args: { code: argument(input, 0) } },
      OPTION_OF_FIELD,
    );
    const ctx = await env.open();
    const toolIds = [];
    for (const typed of tools) toolIds.push((await findTool(ctx.db, typed)).id);
    const created = await createCoupon(ctx, env.actor, { ...coupon, toolIds });
    return { data: created, text: `Coupon ${created.code} created: ${describeCouponValue(created)}.` };
  },
});

const list = defineCommand({
  path: ['coupons', 'list'],
  summary: 'List coupons, newest first, with their uses',
  example: 'coupons list',
  async run(env) {
    const ctx = await env.open();
    const rows = await listCoupons(ctx);
    return {
      data: rows,
      text: table(
        ['CODE', 'DISCOUNT', 'TOOLS', 'ENDS', 'USES', 'STATE'],
        rows.map((row) => [
          row.code,
          describeCouponValue(row),
          row.toolIds.length === 0 ? 'all' : row.toolIds.map(shortId).join(','),
          when(row.endsAt),
          usesText(row),
          row.state,
        ]),
        'No coupons.',
      ),
    };
  },
});

const show = defineCommand({
  path: ['coupons', 'show'],
  summary: 'Show a coupon, its uses and the revenue it brought',
  args: [{ name: 'code', description: 'the coupon code' }],
  example: 'coupons show DIWALI-20',
  async run(env, input) {
    const ctx = await env.open();
    const detail = await couponDetail(ctx, argument(input, 0));
    const revenue = detail.revenue.map(
      (entry) =>
        `${entry.orders} paid ${entry.orders === 1 ? 'order' : 'orders'}: ${formatMoney(entry.paid, entry.currency)} received, ${formatMoney(entry.discount, entry.currency)} discounted`,
    );
    return {
      data: detail,
      text: sections([
        [null, details([...couponRows(detail), ['Revenue', revenue.join('; ') || 'none yet']])],
        [
          'Uses',
          table(
            ['ORDER', 'WHEN', 'BUYER', 'TOOL', 'STATE', 'LIST PRICE', 'DISCOUNT', 'PAID'],
            detail.uses.map((use) => [
              shortId(use.orderId),
              when(use.createdAt),
              use.email,
              use.toolName,
              use.state,
              formatMoney(use.listPrice, use.currency),
              formatMoney(use.discount, use.currency),
              formatMoney(use.paid, use.currency),
            ]),
            'Not used yet.',
          ),
        ],
      ]),
    };
  },
});

const disable = defineCommand({
  path: ['coupons', 'disable'],
  summary: 'Stop a coupon at once (orders already holding a use may still be paid)',
  args: [{ name: 'code', description: 'the coupon code' }],
  example: 'coupons disable DIWALI-20',
  async run(env, input) {
    const ctx = await env.open();
    const disabled = await disableCoupon(ctx, env.actor, argument(input, 0));
    return { data: disabled, text: `Coupon ${disabled.code} is disabled.` };
  },
});

export const couponCommands = [add, list, show, disable];
