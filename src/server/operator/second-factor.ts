import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomInt,
} from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { DASHBOARD_MESSAGES } from '../../shared/dashboard';
import { SITE } from '../../shared/site';
import type { DbOrTx } from '../db';
import { adminSessions, operatorRecoveryCodes, operators } from '../db/schema/operator';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { type Actor, recordAudit } from './audit';

/**
 * The dashboard's second factor: TOTP (RFC 6238, 30-second steps, 6 digits, SHA-1 as every authenticator app
 * expects) and 10 single-use recovery codes. A code is accepted one step early or late for clock drift, never
 * twice (the newest accepted step is stored), and 6 wrong codes in 15 minutes lock the factor for the rest of
 * that window.
 */

export const RECOVERY_CODE_COUNT = 10;
export const WRONG_CODES_ALLOWED = 5;
export const WRONG_CODE_WINDOW_MS = 15 * 60 * 1000;
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** What a code was for, in the audit entry of a wrong one (never the code itself). */
type CodePurpose = 'enrol' | 'sign_in' | 'fresh_code';

const wrongCodeLimit = (userId: string) => ({
  key: `admin-2fa-wrong:${userId}`,
  windowMs: WRONG_CODE_WINDOW_MS,
  message: DASHBOARD_MESSAGES.tooManyCodes,
});

const wrongCode = () =>
  new DomainError('wrong_code', DASHBOARD_MESSAGES.wrongCode, {
    fieldErrors: { code: DASHBOARD_MESSAGES.wrongCode },
  });

// ── Secret at rest ──────────────────────────────────────────────────────────────────────────────────────────

function secretKey(ctx: AppContext): Buffer {
  return createHash('sha256').update(`totp-secret\n${ctx.config.sessionSecret}`).digest();
}

function sealSecret(ctx: AppContext, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretKey(ctx), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

function openSecret(ctx: AppContext, stored: string): string {
  const [version, iv, tag, sealed] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || !sealed) throw new Error('unreadable TOTP secret');
  const decipher = createDecipheriv('aes-256-gcm', secretKey(ctx), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
    'utf8',
  );
}

// ── Recovery codes ──────────────────────────────────────────────────────────────────────────────────────────

function makeRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

function recoveryCodeHash(ctx: AppContext, userId: string, code: string): string {
  return createHmac('sha256', ctx.config.sessionSecret)
    .update(`recovery\n${userId}\n${code.replace('-', '').toUpperCase()}`)
    .digest('hex');
}

// ── Enrolment ───────────────────────────────────────────────────────────────────────────────────────────────

type OperatorRow = typeof operators.$inferSelect;
export type OperatorIdentity = { userId: string; email: string };

const actorOf = (operator: OperatorIdentity): Actor => ({ kind: 'operator', ...operator });

async function operatorRow(db: DbOrTx, userId: string): Promise<OperatorRow> {
  const [row] = await db.select().from(operators).where(eq(operators.userId, userId)).limit(1);
  if (!row) throw new DomainError('not_operator', DASHBOARD_MESSAGES.notOperator);
  return row;
}

/** A new secret, kept (encrypted) until the first code confirms the app has it; shown as text and QR code. */
export async function startEnrolment(ctx: AppContext, user: { id: string; email: string }) {
  const row = await operatorRow(ctx.db, user.id);
  if (row.totpEnrolledAt) throw new DomainError('conflict', DASHBOARD_MESSAGES.alreadyEnrolled);
  const secret = generateSecret();
  await ctx.db
    .update(operators)
    .set({ totpSecret: sealSecret(ctx, secret), totpLastStep: null })
    .where(and(eq(operators.userId, user.id), isNull(operators.totpEnrolledAt)));
  const otpauthUrl = generateURI({ issuer: `${SITE.name} dashboard`, label: user.email, secret });
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, otpauthUrl, qrSvg };
}

/**
 * The first right code finishes enrolment: the factor is live, 10 recovery codes are made (returned once, stored
 * hashed) and this site session becomes a dashboard session.
 */
export async function confirmEnrolment(
  ctx: AppContext,
  operator: OperatorIdentity,
  sessionIdHash: string,
  code: string,
): Promise<string[]> {
  const row = await operatorRow(ctx.db, operator.userId);
  if (row.totpEnrolledAt) throw new DomainError('conflict', DASHBOARD_MESSAGES.alreadyEnrolled);
  if (!row.totpSecret) throw new DomainError('enrolment_not_started', DASHBOARD_MESSAGES.notEnrolled);
  await checkTotp(ctx, operator, 'enrol', row, code);
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, makeRecoveryCode);
  const userId = operator.userId;
  await ctx.db.transaction(async (tx) => {
    await tx.update(operators).set({ totpEnrolledAt: ctx.clock.now() }).where(eq(operators.userId, userId));
    await tx.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.userId, userId));
    await tx
      .insert(operatorRecoveryCodes)
      .values(codes.map((value) => ({ userId, codeHash: recoveryCodeHash(ctx, userId, value) })));
    await startDashboardSession(ctx, tx, userId, sessionIdHash);
    await recordAudit(tx, actorOf(operator), {
      action: 'second_factor.enrol',
      target: `user:${operator.email}`,
      before: { enrolled: false },
      after: { enrolled: true, recoveryCodes: RECOVERY_CODE_COUNT },
    });
  });
  return codes;
}

// ── Verification ────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Checks a TOTP code against the operator's secret, refusing a step already used. Every attempt takes one unit
 * of the wrong-code budget before it is judged (so concurrent guesses cannot all slip under it) and a right code
 * gives it back: from the sixth wrong code in the window on, every attempt is 429, right codes too.
 */
async function checkTotp(
  ctx: AppContext,
  operator: OperatorIdentity,
  purpose: CodePurpose,
  row: OperatorRow,
  code: string,
): Promise<void> {
  await judgeCode(ctx, operator, purpose, async () => {
    const accepted = await matchingStep(ctx, row, code);
    if (accepted === null) return false;
    // Conditional on the stored step, so two requests racing with one code cannot both pass.
    const claimed = await ctx.db
      .update(operators)
      .set({ totpLastStep: accepted })
      .where(
        and(
          eq(operators.userId, row.userId),
          or(isNull(operators.totpLastStep), lt(operators.totpLastStep, accepted)),
        ),
      )
      .returning({ userId: operators.userId });
    return claimed.length > 0;
  });
}

async function matchingStep(ctx: AppContext, row: OperatorRow, code: string): Promise<number | null> {
  if (!row.totpSecret || !/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret: openSecret(ctx, row.totpSecret),
    token: code,
    epoch: Math.floor(ctx.clock.now().getTime() / 1000),
    epochTolerance: 30,
    ...(row.totpLastStep === null ? {} : { afterTimeStep: row.totpLastStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** Wrong codes and refusals past the lock are audited, so an operator sees someone guessing at their factor. */
async function judgeCode(
  ctx: AppContext,
  operator: OperatorIdentity,
  purpose: CodePurpose,
  isRight: () => Promise<boolean>,
): Promise<void> {
  const audit = (action: string) =>
    recordAudit(ctx.db, actorOf(operator), { action, target: `user:${operator.email}`, after: { purpose } });
  const attempt = await ctx.limiter
    .reserve({ ...wrongCodeLimit(operator.userId), limit: WRONG_CODES_ALLOWED })
    .catch(async (error: unknown) => {
      await audit('second_factor.locked_out');
      throw error;
    });
  if (!(await isRight())) {
    await audit('second_factor.wrong_code');
    throw wrongCode();
  }
  await attempt.refund();
}

/**
 * Dashboard sign-in: a TOTP code, or one unused recovery code (which is then spent); this site session becomes a
 * dashboard session. Checks run outside the transaction: a wrong code must be counted even though nothing else
 * is written.
 */
export async function verifySecondFactor(
  ctx: AppContext,
  operator: OperatorIdentity,
  sessionIdHash: string,
  code: string,
): Promise<void> {
  const userId = operator.userId;
  const row = await operatorRow(ctx.db, userId);
  if (!row.totpEnrolledAt) throw new DomainError('not_enrolled', DASHBOARD_MESSAGES.notEnrolled);
  let method: 'totp' | 'recovery_code' = 'totp';
  if (/^\d{6}$/.test(code)) {
    await checkTotp(ctx, operator, 'sign_in', row, code);
  } else {
    method = 'recovery_code';
    await judgeCode(ctx, operator, 'sign_in', async () => {
      const spent = await ctx.db
        .update(operatorRecoveryCodes)
        .set({ usedAt: ctx.clock.now() })
        .where(
          and(
            eq(operatorRecoveryCodes.userId, userId),
            eq(operatorRecoveryCodes.codeHash, recoveryCodeHash(ctx, userId, code)),
            isNull(operatorRecoveryCodes.usedAt),
          ),
        )
        .returning({ id: operatorRecoveryCodes.id });
      return spent.length > 0;
    });
  }
  await ctx.db.transaction(async (tx) => {
    await startDashboardSession(ctx, tx, userId, sessionIdHash);
    await recordAudit(tx, actorOf(operator), {
      action: 'dashboard.sign_in',
      target: `user:${operator.email}`,
      after: { method },
    });
  });
}

/** A fresh TOTP code for a sensitive action (refund, file upload, price change); recovery codes do not count. */
export async function requireFreshCode(
  ctx: AppContext,
  operator: OperatorIdentity,
  code: string,
): Promise<void> {
  const row = await operatorRow(ctx.db, operator.userId);
  if (!row.totpEnrolledAt) throw new DomainError('not_enrolled', DASHBOARD_MESSAGES.notEnrolled);
  await checkTotp(ctx, operator, 'fresh_code', row, code);
}

/** Marks the browser session as having passed the second factor now. */
async function startDashboardSession(
  ctx: AppContext,
  db: DbOrTx,
  userId: string,
  sessionIdHash: string,
): Promise<void> {
  const now = ctx.clock.now();
  await db
    .insert(adminSessions)
    .values({ sessionIdHash, userId, verifiedAt: now, lastSeenAt: now })
    .onConflictDoUpdate({
      target: adminSessions.sessionIdHash,
      set: { userId, verifiedAt: now, lastSeenAt: now },
    });
}
