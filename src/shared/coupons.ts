import { z } from 'zod';
import type { Currency } from './constants';
import { CURRENCIES } from './constants';
import { formatPrice, formatSubunits, toSubunits, usdCentsFromInrPaise } from './money';

/**
 * Coupon codes (docs/decisions/036-coupons.md): what a code may look like, the reasons a code is refused, and the
 * one pricing rule the server applies (the browser only shows what the server answered).
 */

/** The reasons shown to a buyer, word for word. An unknown code, a disabled one and one not yet started read alike. */
export const COUPON_MESSAGES = {
  expired: 'This code has expired.',
  wrongTool: 'This code does not apply to this tool.',
  usedUp: 'This code has been used up.',
  alreadyUsed: 'You have already used this code.',
  invalid: 'This code is not valid.',
  tooMany: 'Too many coupon attempts. Please wait a minute and try again.',
} as const;

export const COUPON_CODE_MAX_LENGTH = 32;
const CODE_PATTERN = /^[A-Za-z0-9-]+$/;

/** Codes are matched without regard to case: stored and looked up upper case. */
export const normaliseCouponCode = (code: string) => code.trim().toUpperCase();

/** A code as a buyer types it: any case, surrounding spaces ignored; anything else is simply not a valid code. */
export const couponCodeSchema = z
  .string({ error: COUPON_MESSAGES.invalid })
  .trim()
  .min(1, { error: COUPON_MESSAGES.invalid })
  .max(COUPON_CODE_MAX_LENGTH, { error: COUPON_MESSAGES.invalid })
  .regex(CODE_PATTERN, { error: COUPON_MESSAGES.invalid })
  .transform(normaliseCouponCode);

/** POST /api/coupons/check body. */
export const couponCheckSchema = z.strictObject({
  toolId: z.uuid({ error: 'Unknown tool' }),
  currency: z.enum(CURRENCIES),
  code: couponCodeSchema,
});

/** POST /api/coupons/check answer: amounts in the currency's units, as the catalogue shows prices. */
export type CouponCheckResponse = { code: string; price: number; discount: number; currency: Currency };

/** Razorpay's smallest payment, in subunits (₹1, $1): a discount never takes a paid price below it. */
export const MINIMUM_PAID_SUBUNITS = 100;

export type CouponValue = {
  percent: number | null;
  amountInrPaise: number | null;
  amountUsdCents: number | null;
};

/**
 * The discount of a coupon on a list price, in subunits. A 100 % code makes the order free; any other discount
 * leaves at least Razorpay's minimum to pay. A fixed code without a USD amount takes its INR amount / 75 in USD,
 * as prices do.
 */
export function couponDiscount(listPrice: number, coupon: CouponValue, currency: Currency): number {
  if (coupon.percent === 100) return listPrice;
  let discount: number;
  if (coupon.percent !== null) discount = Math.floor((listPrice * coupon.percent + 50) / 100);
  else if (currency === 'INR') discount = coupon.amountInrPaise ?? 0;
  else discount = coupon.amountUsdCents ?? usdCentsFromInrPaise(coupon.amountInrPaise ?? 0);
  const floor = Math.min(listPrice, MINIMUM_PAID_SUBUNITS);
  return Math.max(0, Math.min(discount, listPrice - floor));
}

/** "20 % off", "₹100.00 off (USD $1.33)": a coupon's terms in words, for the operator's lists. */
export function describeCouponValue(coupon: {
  percent: number | null;
  amountInr: number | null;
  amountUsd: number | null;
}): string {
  if (coupon.percent !== null) return coupon.percent === 100 ? '100 % off (free)' : `${coupon.percent} % off`;
  const inr = formatPrice(coupon.amountInr ?? 0, 'INR');
  const usd =
    coupon.amountUsd !== null
      ? formatPrice(coupon.amountUsd, 'USD')
      : formatSubunits(usdCentsFromInrPaise(toSubunits(coupon.amountInr ?? 0)), 'USD');
  return `${inr} off (${usd} in USD)`;
}

// ── The operator's side ─────────────────────────────────────────────────────────────────────────────────────

/** Whether `value` (2026-12-31, or with a time) names a day and time that exist. */
function isRealMoment(value: string): boolean {
  const [year = 0, month = 0, day = 0] = value.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  const sameDay =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  const time = /T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(value);
  const sameTime = !time || (Number(time[1]) < 24 && Number(time[2]) < 60 && Number(time[3] ?? 0) < 60);
  return (
    sameDay &&
    sameTime &&
    !Number.isNaN(new Date(value.includes('T') ? value : `${value}T00:00:00Z`).getTime())
  );
}

const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?$/, {
    error: 'Use a date such as 2026-12-31',
  })
  // A date the calendar has (no 30 February, no month 13) and a time the clock has: JavaScript would roll
  // 2026-02-30 over to 2 March, and an impossible time makes no date at all.
  .refine(isRealMoment, { error: 'No such date: use a date such as 2026-12-31' });
const majorAmount = z
  .number({ error: 'Enter an amount' })
  .positive({ error: 'The amount must be more than 0' })
  .max(10_000_000, { error: 'The amount is too large' })
  .refine(
    (value) =>
      Number.isInteger(Math.round(value * 100)) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6,
    {
      error: 'At most two decimals',
    },
  );

/**
 * A new coupon as the dashboard's form and the command line give it: amounts in rupees / dollars, dates as
 * YYYY-MM-DD (a date alone means the start of that day in India for a start, the end of it for an end).
 */
export const newCouponSchema = z
  .strictObject({
    code: z
      .string()
      .trim()
      .min(1, { error: 'Enter a code' })
      .max(COUPON_CODE_MAX_LENGTH, { error: `At most ${COUPON_CODE_MAX_LENGTH} characters` })
      .regex(CODE_PATTERN, { error: 'Letters, digits and - only' })
      .transform(normaliseCouponCode),
    percent: z
      .number()
      .int({ error: 'A whole percentage' })
      .min(1, { error: 'Between 1 and 100' })
      .max(100, { error: 'Between 1 and 100' })
      .nullable()
      .default(null),
    amountInr: majorAmount.nullable().default(null),
    amountUsd: majorAmount.nullable().default(null),
    toolIds: z
      .array(z.uuid({ error: 'Unknown tool' }))
      .max(200)
      .default([]),
    startsAt: isoDate.nullable().default(null),
    endsAt: isoDate.nullable().default(null),
    maxUses: z
      .number()
      .int({ error: 'A whole number' })
      .min(1, { error: 'At least 1' })
      .max(1_000_000)
      .nullable()
      .default(null),
    reusable: z.boolean().default(false),
  })
  .superRefine((value, check) => {
    const fixed = value.amountInr !== null || value.amountUsd !== null;
    if (value.percent === null && !fixed)
      check.addIssue({ code: 'custom', path: ['percent'], message: 'Give a percentage or an amount' });
    if (value.percent !== null && fixed)
      check.addIssue({ code: 'custom', path: ['percent'], message: 'A percentage or an amount, not both' });
    if (value.amountUsd !== null && value.amountInr === null)
      check.addIssue({ code: 'custom', path: ['amountInr'], message: 'Give the INR amount too' });
    if (value.startsAt && value.endsAt && couponEnd(value.endsAt) <= couponStart(value.startsAt))
      check.addIssue({ code: 'custom', path: ['endsAt'], message: 'The end must be after the start' });
  });
export type NewCouponInput = z.input<typeof newCouponSchema>;
export type NewCoupon = z.output<typeof newCouponSchema>;

const hasTime = (value: string) => value.includes('T');
/** A start date alone is that day's first moment in India. */
export const couponStart = (value: string) =>
  new Date(hasTime(value) ? value : `${value}T00:00:00+05:30`).getTime();
/** An end date alone includes that whole day in India. */
export const couponEnd = (value: string) =>
  hasTime(value)
    ? new Date(value).getTime()
    : new Date(`${value}T00:00:00+05:30`).getTime() + 24 * 60 * 60 * 1000;

/** A coupon as the dashboard and `coupons list|show --json` show it. */
export type CouponSummary = {
  id: string;
  code: string;
  percent: number | null;
  amountInr: number | null;
  amountUsd: number | null;
  toolIds: string[];
  startsAt: string | null;
  endsAt: string | null;
  maxUses: number | null;
  reusable: boolean;
  disabledAt: string | null;
  createdAt: string;
  createdBy: string;
  /** Fulfilled orders that used it, and open orders holding a use. */
  used: number;
  reserved: number;
  state: 'active' | 'scheduled' | 'expired' | 'used-up' | 'disabled';
};

export type CouponUse = {
  orderId: string;
  email: string;
  toolName: string;
  state: 'reserved' | 'used' | 'released';
  currency: Currency;
  listPrice: number;
  discount: number;
  paid: number;
  createdAt: string;
};

export type CouponDetail = CouponSummary & {
  uses: CouponUse[];
  /** What its used orders brought in (amounts paid, subunits), and the discount they were given, per currency. */
  revenue: Array<{ currency: Currency; orders: number; paid: number; discount: number }>;
};

/** The form's messages per field, by the server's own rules (the dashboard checks before sending). */
export function couponInputProblems(input: NewCouponInput): Partial<Record<keyof NewCouponInput, string>> {
  const result = newCouponSchema.safeParse(input);
  const problems: Partial<Record<keyof NewCouponInput, string>> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path[0] as keyof NewCouponInput | undefined;
    if (field) problems[field] ??= issue.message;
  }
  return problems;
}
