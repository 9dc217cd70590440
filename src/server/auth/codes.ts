import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { AUTH_MESSAGES } from '../../shared/auth';
import { RESET_CODE_LENGTH, SIGNUP_CODE_LENGTH } from '../../shared/constants';
import type { DbOrTx, Tx } from '../db';
import { verificationCodes } from '../db/schema/accounts';
import { rateLimitHits } from '../db/schema/rate-limits';
import { recordHit } from '../http/rate-limit';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';

/**
 * Emailed codes (docs/product.md §10.1): made with crypto.randomInt, stored only as an HMAC bound to purpose and email,
 * valid 10 minutes, single use, replaced by a resend, dead after 5 wrong tries. Sends are limited per email (60 s
 * apart per purpose, 3 an hour and 10 a day across purposes) and per network address (20 an hour).
 */
export type CodePurpose = 'signup' | 'reset' | 'email-change';

export const CODE_LENGTH: Record<CodePurpose, number> = {
  signup: SIGNUP_CODE_LENGTH,
  reset: RESET_CODE_LENGTH,
  // A new sign-in address is confirmed like a password reset (issue 33).
  'email-change': RESET_CODE_LENGTH,
};
const PURPOSES = Object.keys(CODE_LENGTH) as CodePurpose[];

/**
 * Who a code is for: the address it was sent to, and for a change of address also the account that asked, so a
 * code sent for one account's change is wrong for every other account.
 */
export type CodeTarget = { email: string; purpose: CodePurpose; userId?: string };
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_WRONG_ATTEMPTS = 5;
export const SEND_GAP_MS = 60 * 1000;
export const SENDS_PER_EMAIL_HOUR = 3;
export const SENDS_PER_EMAIL_DAY = 10;
export const SENDS_PER_ADDRESS_HOUR = 20;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export function generateCode(purpose: CodePurpose): string {
  const length = CODE_LENGTH[purpose];
  return String(randomInt(0, 10 ** length)).padStart(length, '0');
}

function codeHash(secret: string, target: CodeTarget, code: string): string {
  const bound = target.userId ? `${target.userId}\n${target.email}` : target.email;
  return createHmac('sha256', secret).update(`${target.purpose}\n${bound}\n${code}`).digest('hex');
}

const sendKey = (purpose: CodePurpose, email: string) => `code-send:${purpose}:${email}`;

/** Counts one code request from this network address (fixed hourly window); 429 past 20. */
export function limitSendsFromAddress(ctx: AppContext, ip: string): Promise<void> {
  return ctx.limiter.consume({
    key: `code-send-ip:${ip}`,
    limit: SENDS_PER_ADDRESS_HOUR,
    windowMs: HOUR_MS,
    message: AUTH_MESSAGES.tooManySends,
  });
}

/**
 * Checks and records the per-email send quotas inside the caller's transaction, so the count, the code and its
 * email commit together. Every request counts, whether or not an account exists, so the answers never differ.
 * Each send is one row in rate_limit_hits stamped with its own time: a sliding window with exact Retry-After.
 */
export async function reserveSend(
  tx: Tx,
  ctx: AppContext,
  email: string,
  purpose: CodePurpose,
): Promise<void> {
  // Serialise concurrent requests for the same email, so two of them cannot both see room for one more send.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`code-send:${email}`}))`);
  const now = ctx.clock.now().getTime();
  const rows = await tx
    .select({ key: rateLimitHits.key, at: rateLimitHits.windowStart, count: rateLimitHits.count })
    .from(rateLimitHits)
    .where(
      and(
        inArray(
          rateLimitHits.key,
          PURPOSES.map((each) => sendKey(each, email)),
        ),
        gt(rateLimitHits.windowStart, new Date(now - DAY_MS)),
      ),
    );
  const sends = rows
    .flatMap((row) => Array.from({ length: row.count }, () => row))
    .sort((a, b) => +a.at - +b.at);

  const lastOfPurpose = sends.filter((send) => send.key === sendKey(purpose, email)).at(-1);
  if (lastOfPurpose && now - +lastOfPurpose.at < SEND_GAP_MS) {
    const wait = Math.ceil((+lastOfPurpose.at + SEND_GAP_MS - now) / 1000);
    throw new DomainError('rate_limited', AUTH_MESSAGES.codeWait(wait), { retryAfterSeconds: wait });
  }
  const limitWithin = (windowMs: number, limit: number) => {
    const inWindow = sends.filter((send) => now - +send.at < windowMs);
    if (inWindow.length < limit) return;
    // Room for one more opens when enough of the oldest sends have left the window.
    const freesUp = inWindow[inWindow.length - limit];
    const wait = freesUp ? Math.ceil((+freesUp.at + windowMs - now) / 1000) : Math.ceil(windowMs / 1000);
    throw new DomainError('rate_limited', AUTH_MESSAGES.codeQuota, { retryAfterSeconds: wait });
  };
  limitWithin(HOUR_MS, SENDS_PER_EMAIL_HOUR);
  limitWithin(DAY_MS, SENDS_PER_EMAIL_DAY);

  await recordHit(tx, sendKey(purpose, email), new Date(now));
}

/** Stores a new code for (email, purpose), replacing any earlier one together with its attempt count. */
export async function storeCode(
  tx: DbOrTx,
  ctx: AppContext,
  input: CodeTarget & { code: string },
): Promise<void> {
  const now = ctx.clock.now();
  const values = {
    codeHash: codeHash(ctx.config.sessionSecret, input, input.code),
    attempts: 0,
    expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    createdAt: now,
  };
  await tx
    .insert(verificationCodes)
    .values({ email: input.email, purpose: input.purpose, ...values })
    .onConflictDoUpdate({ target: [verificationCodes.email, verificationCodes.purpose], set: values });
}

/** A code that matched; pass it to consumeCode to use it up. */
export type MatchedCode = { id: string; codeHash: string };

/**
 * Checks a submitted code. A wrong code costs one attempt; a right one costs nothing, so checking it
 * (verify-otp) and then using it (reset-password) works even after a few typos. After 5 wrong tries, or after
 * 10 minutes, no code matches any more, the right one included.
 */
export async function checkCode(
  ctx: AppContext,
  input: CodeTarget & { code: string },
): Promise<MatchedCode | null> {
  const submitted = Buffer.from(codeHash(ctx.config.sessionSecret, input, input.code));
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(verificationCodes)
      .where(and(eq(verificationCodes.email, input.email), eq(verificationCodes.purpose, input.purpose)))
      .for('update');
    if (!row || row.expiresAt <= ctx.clock.now() || row.attempts >= CODE_MAX_WRONG_ATTEMPTS) return null;
    const stored = Buffer.from(row.codeHash);
    if (stored.length === submitted.length && timingSafeEqual(stored, submitted)) {
      return { id: row.id, codeHash: row.codeHash };
    }
    await tx
      .update(verificationCodes)
      .set({ attempts: sql`${verificationCodes.attempts} + 1` })
      .where(eq(verificationCodes.id, row.id));
    return null;
  });
}

/**
 * Uses up a code that checkCode matched, inside the transaction that acts on it. False when it changed in between
 * (a resend replaced it, it expired, or a parallel request used it first): exactly one use ever succeeds.
 */
export async function consumeCode(tx: Tx, ctx: AppContext, matched: MatchedCode): Promise<boolean> {
  const deleted = await tx
    .delete(verificationCodes)
    .where(
      and(
        eq(verificationCodes.id, matched.id),
        eq(verificationCodes.codeHash, matched.codeHash),
        gt(verificationCodes.expiresAt, ctx.clock.now()),
        lt(verificationCodes.attempts, CODE_MAX_WRONG_ATTEMPTS),
      ),
    )
    .returning({ id: verificationCodes.id });
  return deleted.length === 1;
}
