import { z } from 'zod';

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

export const confirmEnrolmentRequestSchema = z.strictObject({ code: totpCodeSchema });
export type ConfirmEnrolmentRequest = z.input<typeof confirmEnrolmentRequestSchema>;

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
export type VerifySecondFactorRequest = z.input<typeof verifySecondFactorRequestSchema>;

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
  openItems: { unhandledMessages: number; failedMail: number; retryingMail: number };
};

// ── Tables ──────────────────────────────────────────────────────────────────────────────────────────────────

export const PAGE_SIZE_DEFAULT = 25;

/** Query of a server-side paged and sorted table. */
export const pageQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE_DEFAULT),
  dir: z.enum(['asc', 'desc']).default('desc'),
});

export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };

export const activityQuerySchema = pageQuerySchema.extend({
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
