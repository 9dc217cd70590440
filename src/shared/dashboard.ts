import { z } from 'zod';
import type { LicenseStatus } from './licenses';
import { ORDER_STATUSES, type OrderStatus } from './orders';
import { PACKAGE_ID_PATTERN } from './releases';
import {
  ACTIVATION_LIMIT_PROBLEM,
  asSentence,
  HEARTBEAT_PROBLEM,
  LICENSE_MODELS,
  type LicenseModel,
  parseActivationLimitText,
  parseHeartbeatText,
  parsePriceText,
  TOOL_TEXT_MAX,
  usdPriceProblem,
} from './tool-rules';
import { parseTrialDaysText, TRIAL_DAYS_PROBLEM, TRIAL_EXTEND_DAYS_RANGE, type TrialFigures } from './trials';
import { parseUpdatesFor, UPDATES_FOR_PROBLEM } from './update-periods';

/**
 * The operator's dashboard (docs/product.md §12): request and response shapes of /api/admin/…, shared by the
 * server, which validates with them, and the dashboard screens, which type their calls with them.
 */

export const DASHBOARD_MESSAGES = {
  notOperator: 'This account has no access to the dashboard.',
  secondFactorRequired: 'Enter the code from your authenticator app to open the dashboard.',
  notEnrolled: 'Set up your authenticator app first.',
  alreadyEnrolled: 'An authenticator app is already set up for this account.',
  wrongCode: 'That code is not right, or it has been used already. Try the next one.',
  tooManyCodes: 'Too many wrong codes. Wait 15 minutes and try again.',
  codeFormat: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  totpFormat: 'Enter the 6-digit code from your authenticator app.',
} as const;

/** A 6-digit TOTP code; spaces a person types for readability are ignored. */
export const totpCodeSchema = z
  .string({ error: DASHBOARD_MESSAGES.totpFormat })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, DASHBOARD_MESSAGES.totpFormat));

/** A recovery code as shown at enrolment: 10 letters/digits in two groups, e.g. "K7WQ2-M9XPA". */
export const RECOVERY_CODE_PATTERN = /^[A-Z2-9]{5}-?[A-Z2-9]{5}$/;

/** Actions that carry no fields still get a body check: anything sent is refused. */
export const emptyRequestSchema = z.strictObject({});

/** A fresh authenticator code for a sensitive action (refund, file upload, price change). */
export const freshCodeSchema = z.object({ code: totpCodeSchema });

export const confirmEnrolmentRequestSchema = z.strictObject({ code: totpCodeSchema });

/** Sign-in with the second factor: a TOTP code or one of the recovery codes. */
export const verifySecondFactorRequestSchema = z.strictObject({
  code: z
    .string({ error: DASHBOARD_MESSAGES.codeFormat })
    .transform((value) => value.replace(/\s+/g, '').toUpperCase())
    .pipe(
      z
        .string()
        .refine(
          (value) => /^\d{6}$/.test(value) || RECOVERY_CODE_PATTERN.test(value),
          DASHBOARD_MESSAGES.codeFormat,
        ),
    ),
});

/**
 * Where the visitor stands with the dashboard. Answered with 200 in every case (like /api/auth/check/), so the
 * dashboard can pick its screen without the browser logging a failed request.
 */
export type DashboardStatus =
  | { state: 'signed_out' }
  | { state: 'not_operator'; email: string }
  /** An operator who has not set up an authenticator app yet. */
  | { state: 'enrol'; email: string; name: string }
  /** Enrolled, but the second factor has not been passed in this session (or the dashboard session ran out). */
  | { state: 'verify'; email: string; name: string }
  | { state: 'ready'; email: string; name: string };

export type EnrolmentStart = {
  secret: string;
  otpauthUrl: string;
  /** The otpauth URL as an SVG QR code. */
  qrSvg: string;
};

export type EnrolmentDone = { recoveryCodes: string[] };

// ── Overview ────────────────────────────────────────────────────────────────────────────────────────────────

export type MoneyTotals = { INR: number; USD: number };
export type PeriodFigures = { orders: number; revenue: MoneyTotals };

export type OverviewResponse = {
  /** Amounts in subunits (paise, cents); days are calendar days in India (Asia/Kolkata). */
  periods: { today: PeriodFigures; last7Days: PeriodFigures; last30Days: PeriodFigures };
  /** One entry per day of the last 30, oldest first, ending today. */
  daily: Array<{ day: string; orders: number; revenue: MoneyTotals }>;
  openItems: {
    unhandledMessages: number;
    failedMail: number;
    retryingMail: number;
    openRefundRequests: number;
  };
  /** Free trials of every tool (docs/decisions/035-trials.md). */
  trials: TrialFigures;
  /** Paid orders of the last 30 days priced with a coupon, and the discount they were given (subunits). */
  coupons: { orders: number; discount: MoneyTotals };
  /** Paid orders of the last 30 days whose buyer had been sent a checkout reminder for the tool, and their value. */
  recoveredCheckouts: { orders: number; value: MoneyTotals };
};

// ── Trials ──────────────────────────────────────────────────────────────────────────────────────────────────

/** One trial on a tool's page. */
export type AdminTrial = {
  id: string;
  customerEmail: string;
  startedAt: string;
  expiresAt: string | null;
  state: 'running' | 'ended' | 'bought';
};

/** GET /api/admin/tools/:id/trials */
export type AdminToolTrials = { figures: TrialFigures; trials: AdminTrial[] };

/** POST /api/admin/trials/:id/extend */
export const extendTrialSchema = z.strictObject({
  days: z.coerce
    .number({ error: 'Give a number of days.' })
    .int('Give a whole number of days.')
    .min(TRIAL_EXTEND_DAYS_RANGE.min, `At least ${TRIAL_EXTEND_DAYS_RANGE.min} day.`)
    .max(TRIAL_EXTEND_DAYS_RANGE.max, `At most ${TRIAL_EXTEND_DAYS_RANGE.max} days.`),
});
export type ExtendTrial = z.output<typeof extendTrialSchema>;

// ── Tables ──────────────────────────────────────────────────────────────────────────────────────────────────

export const PAGE_SIZE_DEFAULT = 25;

/** Query of a server-side paged and sorted table. */
export const pageQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE_DEFAULT),
  dir: z.enum(['asc', 'desc']).default('desc'),
});

export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };

/**
 * Query of a table that grows without bound (orders, customers, activity), paged by keyset: `after` (or `before`) is
 * the id of the last (or first) row the screen shows, so page 1,000 costs what page 1 costs; no page numbers.
 */
const cursorQuerySchema = <Id extends z.ZodType>(id: Id) =>
  z.strictObject({
    pageSize: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE_DEFAULT),
    dir: z.enum(['asc', 'desc']).default('desc'),
    after: id.optional(),
    before: id.optional(),
  });

/** Counting stops here: a table says "more than 1,000 entries" rather than count every matching row on each page. */
export const COUNT_LIMIT = 1000;

/** One page of a keyset-paged table: `next` / `previous` are the cursors of the pages beside it (null at an end). */
export type CursorPage<T> = {
  items: T[];
  pageSize: number;
  /** How many rows match, up to COUNT_LIMIT; `totalCapped` when more do. */
  total: number;
  totalCapped: boolean;
  next: string | null;
  previous: string | null;
};

const uuidCursor = z.uuid({ error: 'Not a page of this list.' });
const serialCursor = z.string().regex(/^\d{1,18}$/, 'Not a page of this list.');

export const activityQuerySchema = cursorQuerySchema(serialCursor).extend({
  sort: z.enum(['createdAt', 'actor', 'action']).default('createdAt'),
  q: z.string().trim().max(200).optional(),
});
export type ActivityQuery = z.input<typeof activityQuerySchema>;

export type ActivityEntry = {
  id: number;
  actor: string;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
  createdAt: string;
};

// ── Orders ──────────────────────────────────────────────────────────────────────────────────────────────────

/** A day that exists in the calendar (2026-13-01 and 2026-02-30 do not). */
const isRealDay = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
};

/**
 * The years an operator's date filter may name (issue 63): every day a shop's records can have, well inside what the
 * database holds once a day becomes the instants of its start and end in India. Year 0 does not exist in
 * PostgreSQL (a 500), years before 100 become 19xx in JavaScript's Date, and 9999-12-31's end is in year 10000.
 */
export const FILTER_YEARS = { first: 1900, last: 2999 } as const;
export const FILTER_DAY_MESSAGES = {
  outOfRange: `Use a date from ${FILTER_YEARS.first}-01-01 to ${FILTER_YEARS.last}-12-31.`,
} as const;

/** Whether a moment (a --since, a day's start) falls in FILTER_YEARS. */
export const isFilterMoment = (moment: Date) => {
  const year = moment.getUTCFullYear();
  return !Number.isNaN(year) && year >= FILTER_YEARS.first && year <= FILTER_YEARS.last;
};

/** Why a typed YYYY-MM-DD cannot filter a list, or null: the same rule for the dashboard and the command line. */
export function filterDayProblem(day: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !isRealDay(day)) return 'No such date.';
  return isFilterMoment(new Date(`${day}T12:00:00Z`)) ? null : FILTER_DAY_MESSAGES.outOfRange;
}

const isFilterYearDay = (day: string) => filterDayProblem(day) !== FILTER_DAY_MESSAGES.outOfRange;

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-11-24.')
  .refine(isRealDay, 'No such date.')
  .refine(isFilterYearDay, FILTER_DAY_MESSAGES.outOfRange)
  .optional();

export const ordersQuerySchema = cursorQuerySchema(uuidCursor).extend({
  sort: z.enum(['createdAt', 'amount', 'status']).default('createdAt'),
  /** An email (or part of one), order_…, pay_…, an invoice or credit-note number, or the start of the order's id. */
  q: z.string().trim().max(200).optional(),
  status: z.enum(ORDER_STATUSES).optional(),
  /** Calendar days in India, inclusive. */
  from: isoDay,
  to: isoDay,
});
export type OrdersQuery = z.input<typeof ordersQuerySchema>;

export type OrderRow = {
  id: string;
  createdAt: string;
  email: string;
  customerName: string;
  tool: string;
  /** Subunits (paise, cents). */
  amount: number;
  currency: 'INR' | 'USD';
  status: OrderStatus;
  razorpayOrderId: string;
  razorpayPaymentId: string | null;
  /** The coupon the order was priced with, and what it took off (subunits); null without one. */
  couponCode: string | null;
  discount: number | null;
};

/** A license as the operator sees it: the key masked but for its last 4 characters. */
export type AdminLicense = {
  id: string;
  orderId: string;
  toolName: string;
  maskedKey: string | null;
  username: string | null;
  status: LicenseStatus;
  activationLimit: number;
  selfDeactivationsLeft: number;
  devices: Array<{ id: string; name: string | null; activatedAt: string; lastSeenAt: string }>;
  /** Team licenses (decision 051): how many may hold a seat, and who does (the owner first). */
  seats: number;
  members: Array<{ memberId: string; email: string; name: string; isOwner: boolean; joinedAt: string }>;
};

/** "••••-••••-••••-AB12": enough to match what a buyer reads out, too little to use. */
export function maskLicenseKey(key: string): string {
  return key.replace(/[A-Za-z0-9](?=(?:[^A-Za-z0-9]*[A-Za-z0-9]){4})/g, '•');
}

/** An order's tax document, with where the operator opens its PDF. */
export type TaxDocumentRef = { number: string; issuedAt: string; pdfUrl: string };

export type AdminOrderDetail = OrderRow & {
  licenses: AdminLicense[];
  invoice: TaxDocumentRef | null;
  creditNote: TaxDocumentRef | null;
  paidAt: string | null;
  failureReason: string | null;
  billing: Record<string, unknown>;
  events: Array<{ id: number; kind: string; detail: unknown; createdAt: string }>;
  emails: Array<{
    id: number;
    subject: string;
    kind: string;
    status: string;
    createdAt: string;
    sentAt: string | null;
    lastError: string | null;
  }>;
};

export const REFUND_REASON_MAX = 500;
export const refundRequestSchema = z.strictObject({
  reason: z
    .string({ error: 'Give the reason for the refund.' })
    .trim()
    .min(3, 'Give the reason for the refund.')
    .max(REFUND_REASON_MAX, `At most ${REFUND_REASON_MAX} characters.`),
  code: totpCodeSchema,
});
export type RefundRequest = z.input<typeof refundRequestSchema>;

// ── Customers ───────────────────────────────────────────────────────────────────────────────────────────────

export const customersQuerySchema = cursorQuerySchema(uuidCursor).extend({
  sort: z.enum(['createdAt', 'email', 'name']).default('createdAt'),
  q: z.string().trim().max(200).optional(),
});
export type CustomersQuery = z.input<typeof customersQuerySchema>;

export type CustomerRow = {
  id: string;
  name: string;
  email: string;
  phone: string;
  createdAt: string;
  /** When the buyer deleted the account (its name, email and phone are then empty or placeholders). */
  erasedAt: string | null;
  orders: number;
  tools: number;
};
export type CustomerDetail = CustomerRow & { orderList: OrderRow[]; licenses: AdminLicense[] };

// ── Messages and mail ───────────────────────────────────────────────────────────────────────────────────────

export const messagesQuerySchema = pageQuerySchema.extend({
  sort: z.enum(['createdAt']).default('createdAt'),
  show: z.enum(['unhandled', 'all']).default('unhandled'),
});
export type MessagesQuery = z.input<typeof messagesQuerySchema>;

export type MessageRow = {
  id: string;
  name: string;
  organisation: string | null;
  email: string;
  relatedTo: string;
  description: string;
  createdAt: string;
  handledAt: string | null;
};

export type MailStatus = {
  counts: { pending: number; retrying: number; sent: number; failed: number };
  /** Failed mail and mail waiting for another attempt, with why the last attempt failed. */
  problems: Array<{
    id: number;
    to: string;
    subject: string;
    kind: string;
    status: 'pending' | 'failed';
    attempts: number;
    lastError: string | null;
    nextAttemptAt: string;
    createdAt: string;
  }>;
};

// ── Tools ───────────────────────────────────────────────────────────────────────────────────────────────────

/** A price as the operator types it (499, 7.99), by the catalogue's one price rule, into subunits. */
function subunitsOf(text: string, issue: z.RefinementCtx): number {
  const parsed = parsePriceText(text);
  if ('subunits' in parsed) return parsed.subunits;
  issue.addIssue({ code: 'custom', message: asSentence(parsed.problem) });
  return z.NEVER;
}

const PRICE_EXAMPLE = 'Enter a price like 499 or 7.99.';
const priceSchema = z.string({ error: PRICE_EXAMPLE }).transform(subunitsOf);
/** Empty: USD buyers pay the INR price / 75. */
const usdPriceSchema = z
  .string({ error: PRICE_EXAMPLE })
  .transform((text, issue) => (text.trim() === '' ? null : subunitsOf(text, issue)));

/** A Velopack package id; empty means the default made from the tool's name. */
export const packageIdSchema = z
  .string()
  .trim()
  .refine(
    (text) => text === '' || PACKAGE_ID_PATTERN.test(text),
    'A package id is letters, digits, dots, dashes and underscores, e.g. PdfToolkit.',
  )
  .transform((text) => (text === '' ? null : text));

/**
 * How a tool's licenses hold seats (decision 049): the dashboard's form and `tools edit --floating --heartbeat 10m`
 * both parse what the operator typed with these fields. Absent: unchanged (per device, 10 minutes for a new tool).
 */
const toolLicensingFields = {
  licenseModel: z.enum(LICENSE_MODELS, { error: 'Choose per-device or floating.' }).optional(),
  heartbeatMinutes: z
    .string({ error: asSentence(HEARTBEAT_PROBLEM) })
    .optional()
    .transform((text, issue) => {
      if (text === undefined) return undefined;
      const value = parseHeartbeatText(text);
      if (value !== undefined) return value;
      issue.addIssue({ code: 'custom', message: asSentence(HEARTBEAT_PROBLEM) });
      return z.NEVER;
    }),
};

/** A period of updates as typed ("12m", "lifetime"): months, null for lifetime (decision 059). */
const updatesForSchema = z.string({ error: asSentence(UPDATES_FOR_PROBLEM) }).transform((text, issue) => {
  const months = parseUpdatesFor(text);
  if (months !== undefined) return months;
  issue.addIssue({ code: 'custom', message: asSentence(UPDATES_FOR_PROBLEM) });
  return z.NEVER;
});

/** A tool without editions' update period and renewal prices; absent: unchanged (lifetime for a new tool). */
const updatePeriodFields = {
  updatesMonths: updatesForSchema.optional(),
  renewalPriceINR: usdPriceSchema.optional(),
  renewalPriceUSD: usdPriceSchema.optional(),
};

/**
 * A tool's fields as the operator types them, each by the catalogue's one rule. The dashboard's form and the
 * command line (`tools add`, `tools edit`, …) parse with these same fields, and the catalogue's operations take what
 * they parse to (`ToolChanges`, `NewTool`), never a database row.
 */
const toolFields = {
  ...toolLicensingFields,
  ...updatePeriodFields,
  name: z
    .string()
    .trim()
    .min(1, 'Give the tool a name.')
    .max(TOOL_TEXT_MAX.name, `At most ${TOOL_TEXT_MAX.name} characters.`),
  description: z
    .string()
    .trim()
    .min(1, 'Describe the tool.')
    .max(TOOL_TEXT_MAX.description, `At most ${TOOL_TEXT_MAX.description} characters.`),
  /** none: a tool for no one platform. */
  device: z
    .enum(['Windows', 'macOS', 'none'], { error: 'Choose Windows, macOS or none.' })
    .transform((device) => (device === 'none' ? null : device)),
  priceINR: priceSchema,
  priceUSD: usdPriceSchema,
  comingSoon: z.boolean(),
  active: z.boolean(),
  delivery: z.enum(['license_key', 'credentials'], { error: 'Choose license_key or credentials.' }),
  activationLimit: z.string({ error: asSentence(ACTIVATION_LIMIT_PROBLEM) }).transform((text, issue) => {
    const value = parseActivationLimitText(text);
    if (value !== undefined) return value;
    issue.addIssue({ code: 'custom', message: asSentence(ACTIVATION_LIMIT_PROBLEM) });
    return z.NEVER;
  }),
  /** Length of the free trial; absent: unchanged (0 for a new tool). */
  trialDays: z
    .string({ error: asSentence(TRIAL_DAYS_PROBLEM) })
    .optional()
    .transform((text, issue) => {
      if (text === undefined) return undefined;
      const value = parseTrialDaysText(text);
      if (value !== undefined) return value;
      issue.addIssue({ code: 'custom', message: asSentence(TRIAL_DAYS_PROBLEM) });
      return z.NEVER;
    }),
  /** Velopack's package id; absent leaves it as it is, empty returns to the default from the name. */
  packageId: packageIdSchema.optional(),
};

/** Where the tool sits on its card and in the catalogue (the command line sets these; the form leaves them). */
const toolPlacementFields = {
  /** The card's icon: a same-site image path or a hint; empty: none. */
  icon: z
    .string()
    .trim()
    .max(TOOL_TEXT_MAX.icon, `At most ${TOOL_TEXT_MAX.icon} characters.`)
    .transform((text) => (text === '' ? null : text)),
  sortOrder: z
    .string()
    .trim()
    .regex(/^-?\d{1,6}$/, 'A whole number, like 10.')
    .transform(Number),
};

/** Without its own USD price a tool costs INR / 75 in USD, which must still be payable: said on the USD field. */
function refusePriceUnpayableInUsd(
  tool: { priceINR?: number; priceUSD?: number | null },
  issue: z.RefinementCtx,
): void {
  if (tool.priceINR === undefined || tool.priceUSD === undefined) return;
  const problem = usdPriceProblem({ priceInrPaise: tool.priceINR, priceUsdCents: tool.priceUSD });
  if (problem) issue.addIssue({ code: 'custom', path: ['priceUSD'], message: problem });
}

/** The dashboard's tool form: every field, as the editor sends it. */
export const toolInputSchema = z
  .strictObject({
    ...toolFields,
    /** A fresh authenticator code, needed when the prices are set or changed. */
    code: z.string().optional(),
  })
  .superRefine(refusePriceUnpayableInUsd);

/** A change to a tool: any of its fields, only those given (the command line's options, a toggle). */
export const toolChangesSchema = z
  .strictObject({ ...toolFields, ...toolPlacementFields })
  .partial()
  .superRefine(refusePriceUnpayableInUsd);
export type ToolChanges = z.output<typeof toolChangesSchema>;
/** A new tool: a change that names it, describes it and prices it; the rest takes the catalogue's defaults. */
export type NewTool = ToolChanges & Required<Pick<ToolChanges, 'name' | 'description' | 'priceINR'>>;

export type ToolInput = z.input<typeof toolInputSchema>;

/** The tool form's messages by field, as the server would answer them (empty: the server will accept it). */
export function toolInputProblems(input: ToolInput): Partial<Record<keyof ToolInput, string>> {
  const result = toolInputSchema.safeParse(input);
  const problems: Partial<Record<keyof ToolInput, string>> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path[0] as keyof ToolInput | undefined;
    if (field) problems[field] ??= issue.message;
  }
  return problems;
}

export type AdminTool = {
  id: string;
  name: string;
  description: string;
  device: 'Windows' | 'macOS' | null;
  /** The INR price in paise. */
  pricePaise: number;
  /** The USD price in cents; null: USD buyers pay the INR price / 75. */
  priceCents: number | null;
  comingSoon: boolean;
  active: boolean;
  delivery: 'license_key' | 'credentials';
  activationLimit: number;
  /** per-device or floating (decision 049), and a floating tool's heartbeat interval. */
  licenseModel: LicenseModel;
  heartbeatMinutes: number;
  /** Length of the free trial; 0: none. */
  trialDays: number;
  /** Months of updates a purchase includes (null: lifetime) and the renewal prices, for a tool without editions. */
  updatesMonths: number | null;
  renewalPricePaise: number | null;
  renewalPriceCents: number | null;
  file: { name: string; size: number; sha256: string } | null;
  /** The Velopack package id the operator set, or null for the default. */
  packageId: string | null;
  /** What the package id is when none is set: made from the name. */
  defaultPackageId: string;
  updatedAt: string;
};

export const toolsQuerySchema = pageQuerySchema.extend({
  sort: z.enum(['name', 'updatedAt', 'priceINR']).default('name'),
  dir: z.enum(['asc', 'desc']).default('asc'),
});
export type ToolsQuery = z.input<typeof toolsQuerySchema>;

// ── Invoices ────────────────────────────────────────────────────────────────────────────────────────────────

const calendarDay = (label: string) =>
  z
    .string({ error: `Give the ${label} date.` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-04-01.')
    .refine(isRealDay, 'No such date.')
    .refine(isFilterYearDay, FILTER_DAY_MESSAGES.outOfRange);

/** A period of the accountant's GSTR-1 split: calendar days in India, both included. */
export const invoicePeriodSchema = z
  .strictObject({ from: calendarDay('first'), to: calendarDay('last') })
  .refine((period) => period.from <= period.to, {
    path: ['to'],
    message: 'The last day is before the first.',
  });
export type InvoicePeriod = z.input<typeof invoicePeriodSchema>;

/** Rupee figures in paise, as the accountant files them. */
type TaxFigures = { taxableValue: number; igst: number; cgst: number; sgst: number; total: number };

export type InvoiceReport = {
  from: string;
  to: string;
  /** B2B invoices, exports and credit notes one by one. */
  documents: Array<
    TaxFigures & {
      section: 'b2b' | 'exp' | 'cdn';
      number: string;
      date: string;
      buyerName: string;
      buyerGstin: string | null;
      placeOfSupply: string;
      originalNumber: string | null;
    }
  >;
  /** B2C invoices summed by place of supply and rate. */
  b2c: Array<TaxFigures & { placeOfSupply: string; ratePercent: number; documents: number }>;
  /** USD documents without a settled rupee value, left out of the figures. */
  unconverted: string[];
};
