import multipart from '@fastify/multipart';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AUTH_MESSAGES,
  type AuthCheckResponse,
  type AuthUser,
  forgotPasswordSchema,
  initiateSignupSchema,
  type LoginResponse,
  loginSchema,
  type MessageResponse,
  normaliseEmail,
  resetPasswordSchema,
  type SignupResponse,
  sendOtpSchema,
  verifyOtpSchema,
} from '../../shared/auth';
import type { AppContext } from '../context';
import type { DbOrTx, Tx } from '../db';
import { users } from '../db/schema';
import { issueCsrfToken } from '../http/csrf';
import { AppError, badRequest, parseInput } from '../http/errors';
import { enqueueMail } from '../mail/outbox';
import {
  type CodePurpose,
  checkCode,
  consumeCode,
  generateCode,
  limitSendsFromAddress,
  reserveSend,
  storeCode,
} from './codes';
import { accountExistsEmail, passwordChangedEmail, resetCodeEmail, signupCodeEmail } from './emails';
import { DUMMY_PASSWORD_HASH, hashPassword, needsRehash, verifyPassword } from './passwords';
import {
  clearSessionCookie,
  currentUser,
  endAllSessions,
  endSession,
  forgetSessionsOf,
  rotateSession,
  SESSION_COOKIE,
} from './session';

export const LOGIN_LIMIT_PER_ADDRESS_MINUTE = 10;
/** Signup completions and password resets each cost a password hash when their code is right: bounded per address. */
export const CODE_USES_PER_ADDRESS_MINUTE = 10;
export const LOGIN_FAILURES_PER_ACCOUNT = 10;
const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

const toAuthUser = (user: AuthUser): AuthUser => ({ name: user.name, email: user.email, phone: user.phone });

function findUserByEmail(db: DbOrTx, email: string) {
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${normaliseEmail(email)}`)
    .limit(1)
    .then((rows) => rows[0]);
}

/** Counts one attempt to use a code from this address; 429 past 10 a minute. */
const limitCodeUses = (ctx: AppContext, request: FastifyRequest) =>
  ctx.limiter.consume({
    key: `code-use-ip:${request.ip}`,
    limit: CODE_USES_PER_ADDRESS_MINUTE,
    windowMs: 60 * 1000,
    message: AUTH_MESSAGES.tooManyCodeUses,
  });

const invalidCode = () =>
  new AppError(400, 'invalid_code', AUTH_MESSAGES.verifyFailed, { otp: AUTH_MESSAGES.verifyFailed });

/**
 * Accounts (docs/product.md §7, §10, §11): check, login, logout, signup with an emailed 4-digit code, and password reset
 * with an emailed 6-digit code. Codes never leave the server except by email; no answer reveals whether an email
 * has an account. Bodies are read as urlencoded form data, multipart form data or JSON.
 */
export async function authRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, {
      attachFieldsToBody: 'keyValues',
      limits: { fields: 10, fieldSize: 1024, fieldNameSize: 100, files: 0, parts: 10, headerPairs: 100 },
    });
    // Multipart bodies are read in a preValidation hook; busboy reports a malformed body (no boundary, cut short)
    // as a plain Error. Such an error, raised before the handler was reached, is the sender's fault: a 400.
    const reachedHandler = new WeakSet<FastifyRequest>();
    scope.addHook('preHandler', async (request) => {
      reachedHandler.add(request);
    });
    scope.setErrorHandler((error: Error & { statusCode?: number }, request) => {
      if (
        request.isMultipart() &&
        !reachedHandler.has(request) &&
        !(error instanceof AppError) &&
        !error.statusCode
      )
        throw badRequest('The form data could not be read.');
      throw error;
    });
    registerAuthRoutes(scope, ctx);
  });
}

function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/auth/check/', async (request, reply): Promise<AuthCheckResponse> => {
    reply.header('cache-control', 'no-store');
    const user = await currentUser(ctx, request);
    // A cookie for a session that is gone (expired, logged out elsewhere, password reset) is cleared.
    if (!user && request.cookies[SESSION_COOKIE]) clearSessionCookie(ctx, reply);
    return { loggedin: user !== null, user: user ? toAuthUser(user) : null };
  });

  app.post('/api/auth/login/', async (request, reply): Promise<LoginResponse> => {
    const input = parseInput(loginSchema, request.body);
    const email = normaliseEmail(input.email);
    await ctx.limiter.consume({
      key: `login-ip:${request.ip}`,
      limit: LOGIN_LIMIT_PER_ADDRESS_MINUTE,
      windowMs: 60 * 1000,
      message: AUTH_MESSAGES.tooManyLogins,
    });
    const failures = { key: `login-fail:${email}`, windowMs: LOGIN_FAILURE_WINDOW_MS };
    await ctx.limiter.check({
      ...failures,
      limit: LOGIN_FAILURES_PER_ACCOUNT,
      message: AUTH_MESSAGES.tooManyFailures,
    });

    const user = await findUserByEmail(ctx.db, email);
    // Unknown emails are checked against a dummy hash: same work, same time, same answer as a wrong password.
    const matches = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
    if (!user || !matches) {
      await ctx.limiter.record(failures);
      throw new AppError(401, 'invalid_credentials', AUTH_MESSAGES.loginFailed);
    }

    if (needsRehash(user.passwordHash)) {
      const passwordHash = await hashPassword(input.password);
      await ctx.db.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    }
    await rotateSession(ctx, ctx.db, request, reply, user.id);
    issueCsrfToken(reply, ctx.config);
    reply.header('cache-control', 'no-store');
    return { user: toAuthUser(user), message: AUTH_MESSAGES.loginSuccess };
  });

  app.post('/api/auth/logout/', async (request, reply): Promise<MessageResponse> => {
    await endSession(ctx, request, reply);
    return { message: AUTH_MESSAGES.logoutSuccess };
  });

  app.post('/api/auth/send-otp/', async (request): Promise<MessageResponse> => {
    const input = parseInput(sendOtpSchema, request.body);
    const email = normaliseEmail(input.email);
    await sendCode(ctx, request, email, 'signup', async (tx, existing) => {
      if (existing) {
        // The owner hears about it; the person asking sees the same answer as for a free address.
        const mail = accountExistsEmail(`${ctx.config.publicUrl}/utility-tools`);
        await enqueueMail(ctx, tx, { to: existing.email, ...mail, kind: 'signup-existing-account' });
        return;
      }
      const code = generateCode('signup');
      await storeCode(tx, ctx, { email, purpose: 'signup', code });
      await enqueueMail(ctx, tx, { to: input.email.trim(), ...signupCodeEmail(code), kind: 'signup-code' });
    });
    return { message: AUTH_MESSAGES.signupCodeSent };
  });

  app.post('/api/auth/initiate-signup/', async (request, reply): Promise<SignupResponse> => {
    const input = parseInput(initiateSignupSchema, request.body);
    const email = normaliseEmail(input.email);
    await limitCodeUses(ctx, request);
    const matched = await checkCode(ctx, { email, purpose: 'signup', code: input.otp });
    if (!matched) throw invalidCode();
    // Hashing is slow, so it happens outside any transaction; the code is used up only when the account is made.
    const passwordHash = await hashPassword(input.password);
    const user = await ctx.db.transaction(async (tx) => {
      if (!(await consumeCode(tx, ctx, matched))) throw invalidCode();
      if (await findUserByEmail(tx, email))
        throw new AppError(409, 'account_exists', AUTH_MESSAGES.accountExists);
      const [created] = await tx
        .insert(users)
        .values({
          name: input.name,
          email: input.email,
          phone: input.phone,
          passwordHash,
          createdAt: ctx.clock.now(),
        })
        .returning();
      if (!created) throw new Error('user insert returned no row');
      await rotateSession(ctx, tx, request, reply, created.id);
      return created;
    });
    issueCsrfToken(reply, ctx.config);
    reply.header('cache-control', 'no-store');
    return { user: toAuthUser(user), message: AUTH_MESSAGES.signupSuccess };
  });

  app.post('/api/auth/forgot-password/', async (request): Promise<MessageResponse> => {
    const input = parseInput(forgotPasswordSchema, request.body);
    const email = normaliseEmail(input.email);
    await sendCode(ctx, request, email, 'reset', async (tx, existing) => {
      if (!existing) return;
      const code = generateCode('reset');
      await storeCode(tx, ctx, { email, purpose: 'reset', code });
      await enqueueMail(ctx, tx, {
        to: existing.email,
        ...resetCodeEmail(code),
        kind: 'password-reset-code',
      });
    });
    return { message: AUTH_MESSAGES.forgotSent };
  });

  app.post('/api/auth/verify-otp/', async (request): Promise<MessageResponse> => {
    const input = parseInput(verifyOtpSchema, request.body);
    const matched = await checkCode(ctx, {
      email: normaliseEmail(input.email),
      purpose: 'reset',
      code: input.otp,
    });
    if (!matched) throw invalidCode();
    return { message: AUTH_MESSAGES.verifySuccess };
  });

  app.post('/api/auth/reset-password/', async (request, reply): Promise<MessageResponse> => {
    const input = parseInput(resetPasswordSchema, request.body);
    const email = normaliseEmail(input.email);
    await limitCodeUses(ctx, request);
    const matched = await checkCode(ctx, { email, purpose: 'reset', code: input.otp });
    if (!matched) throw invalidCode();
    const passwordHash = await hashPassword(input.password);
    const userId = await ctx.db.transaction(async (tx) => {
      if (!(await consumeCode(tx, ctx, matched))) throw invalidCode();
      const user = await findUserByEmail(tx, email);
      if (!user) throw invalidCode();
      const now = ctx.clock.now();
      await tx.update(users).set({ passwordHash, passwordChangedAt: now }).where(eq(users.id, user.id));
      await endAllSessions(tx, user.id);
      await enqueueMail(ctx, tx, { to: user.email, ...passwordChangedEmail(now), kind: 'password-changed' });
      return user.id;
    });
    forgetSessionsOf(ctx, userId);
    request.sessionUser = null;
    clearSessionCookie(ctx, reply);
    return { message: AUTH_MESSAGES.resetSuccess };
  });
}

type ExistingUser = Awaited<ReturnType<typeof findUserByEmail>>;

/**
 * The shared shape of send-otp and forgot-password: the per-address limit, then one transaction that checks and
 * records the per-email quota, looks the account up and queues whatever email applies. Every path takes the same
 * steps and the caller gives the same answer, so the response never tells whether the email has an account.
 */
async function sendCode(
  ctx: AppContext,
  request: FastifyRequest,
  email: string,
  purpose: CodePurpose,
  act: (tx: Tx, existing: ExistingUser) => Promise<void>,
): Promise<void> {
  await limitSendsFromAddress(ctx, request.ip);
  await ctx.db.transaction(async (tx) => {
    await reserveSend(tx, ctx, email, purpose);
    await act(tx, await findUserByEmail(tx, email));
  });
}
