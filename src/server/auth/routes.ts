import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  authCheckAnswerSchema,
  errorAnswerSchema,
  messageAnswerSchema,
  signedInAnswerSchema,
} from '../../shared/api-schemas';
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
import { compiledAnswer, refusals } from '../http/answers';
import { issueCsrfToken } from '../http/csrf';
import { AppError, badRequest } from '../http/errors';
import { registerMultipartForms } from '../http/form-data';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { documented } from '../openapi/openapi';
import {
  AccountRefused,
  authenticate,
  createAccount,
  requestResetCode,
  requestSignupCode,
  resetPassword,
} from './accounts';
import { checkCode, limitSendsFromAddress } from './codes';
import { hashPassword } from './passwords';
import {
  clearSessionCookie,
  currentUser,
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

/** A code that was right when checked but used up since, or an account taken meanwhile. */
function refusal(error: unknown): unknown {
  if (!(error instanceof AccountRefused)) return error;
  if (error.reason === 'account_exists')
    return new AppError(409, 'account_exists', AUTH_MESSAGES.accountExists);
  return invalidCode();
}

/**
 * Accounts (docs/product.md §7, §10, §11): check, login, logout, signup with an emailed 4-digit code, and password reset
 * with an emailed 6-digit code. Codes never leave the server except by email; no answer reveals whether an email
 * has an account. Bodies are read as urlencoded form data, multipart form data or JSON.
 */
export async function authRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    await registerMultipartForms(scope);
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
        !(error instanceof AppError || error instanceof DomainError) &&
        !error.statusCode
      )
        throw badRequest('The form data could not be read.');
      throw error;
    });
    registerAuthRoutes(scope, ctx);
  });
}

/**
 * Every page asks it first: its answers are JSON Schemas for Fastify's compiled serialiser (faster than encoding with
 * zod, docs/decisions/065-every-route-declares-its-answers.md).
 */
const authCheck = documented({
  tags: ['Sign-in'],
  summary: 'Whether the visitor is signed in, and as whom',
  response: {
    200: compiledAnswer(authCheckAnswerSchema),
    '5xx': compiledAnswer(
      errorAnswerSchema,
      'The database cannot be reached (503), or an unexpected failure',
    ),
  },
});

const bodies = 'Bodies are read as form data (urlencoded or multipart) or JSON.';

function registerAuthRoutes(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get('/api/auth/check/', authCheck, async (request, reply): Promise<AuthCheckResponse> => {
    reply.header('cache-control', 'no-store');
    const user = await currentUser(ctx, request);
    // A cookie for a session that is gone (expired, logged out elsewhere, password reset) is cleared.
    if (!user && request.cookies[SESSION_COOKIE]) clearSessionCookie(ctx, reply);
    return { loggedin: user !== null, user: user ? toAuthUser(user) : null };
  });

  app.post(
    '/api/auth/login/',
    documented({
      tags: ['Sign-in'],
      summary: 'Sign in with email and password',
      description: `Sets the session cookie and a fresh CSRF token. ${bodies}`,
      body: loginSchema,
      response: { 200: signedInAnswerSchema, ...refusals(400, 401, 403, 429) },
    }),
    async (request, reply): Promise<LoginResponse> => {
      const input = request.body;
      const email = normaliseEmail(input.email);
      await ctx.limiter.consume({
        key: `login-ip:${request.ip}`,
        limit: LOGIN_LIMIT_PER_ADDRESS_MINUTE,
        windowMs: 60 * 1000,
        message: AUTH_MESSAGES.tooManyLogins,
      });
      // Every attempt spends one unit of the account's failure budget before the password is checked, so 20
      // concurrent guesses get at most 10 checks; a correct password gives its unit back.
      const budget = await ctx.limiter.reserve({
        key: `login-fail:${email}`,
        windowMs: LOGIN_FAILURE_WINDOW_MS,
        limit: LOGIN_FAILURES_PER_ACCOUNT,
        message: AUTH_MESSAGES.tooManyFailures,
      });

      const user = await authenticate(ctx, email, input.password);
      if (!user) throw new AppError(401, 'invalid_credentials', AUTH_MESSAGES.loginFailed);
      await budget.refund();
      await rotateSession(ctx, ctx.db, request, reply, user.id);
      issueCsrfToken(reply, ctx.config);
      reply.header('cache-control', 'no-store');
      return { user: toAuthUser(user), message: AUTH_MESSAGES.loginSuccess };
    },
  );

  const logout = documented({
    tags: ['Sign-in'],
    summary: 'Sign out of this browser',
    response: { 200: messageAnswerSchema, ...refusals(403) },
  });
  app.post('/api/auth/logout/', logout, async (request, reply): Promise<MessageResponse> => {
    await endSession(ctx, request, reply);
    return { message: AUTH_MESSAGES.logoutSuccess };
  });

  app.post(
    '/api/auth/send-otp/',
    documented({
      tags: ['Sign-in'],
      summary: 'Email a 4-digit code to finish signing up',
      description: `Answers alike whether or not the email has an account. ${bodies}`,
      body: sendOtpSchema,
      response: { 200: messageAnswerSchema, ...refusals(400, 403, 429) },
    }),
    async (request): Promise<MessageResponse> => {
      const input = request.body;
      await limitSendsFromAddress(ctx, request.ip);
      await requestSignupCode(ctx, input.email);
      return { message: AUTH_MESSAGES.signupCodeSent };
    },
  );

  app.post(
    '/api/auth/initiate-signup/',
    documented({
      tags: ['Sign-in'],
      summary: 'Create the account with the emailed code, and sign in',
      description: bodies,
      body: initiateSignupSchema,
      response: { 200: signedInAnswerSchema, ...refusals(400, 403, 409, 429) },
    }),
    async (request, reply): Promise<SignupResponse> => {
      const input = request.body;
      const email = normaliseEmail(input.email);
      await limitCodeUses(ctx, request);
      const matched = await checkCode(ctx, { email, purpose: 'signup', code: input.otp });
      if (!matched) throw invalidCode();
      // Hashing is slow, so it happens outside any transaction; the code is used up only when the account is made.
      const passwordHash = await hashPassword(input.password, ctx.config.passwordHashCost);
      const user = await createAccount(ctx, {
        name: input.name,
        email: input.email,
        phone: input.phone,
        passwordHash,
        code: matched,
        startSession: (tx, userId) => rotateSession(ctx, tx, request, reply, userId),
      }).catch((error: unknown) => {
        throw refusal(error);
      });
      issueCsrfToken(reply, ctx.config);
      reply.header('cache-control', 'no-store');
      return { user: toAuthUser(user), message: AUTH_MESSAGES.signupSuccess };
    },
  );

  app.post(
    '/api/auth/forgot-password/',
    documented({
      tags: ['Sign-in'],
      summary: 'Email a 6-digit code to reset the password',
      description: `Answers alike whether or not the email has an account. ${bodies}`,
      body: forgotPasswordSchema,
      response: { 200: messageAnswerSchema, ...refusals(400, 403, 429) },
    }),
    async (request): Promise<MessageResponse> => {
      const input = request.body;
      await limitSendsFromAddress(ctx, request.ip);
      await requestResetCode(ctx, input.email);
      return { message: AUTH_MESSAGES.forgotSent };
    },
  );

  app.post(
    '/api/auth/verify-otp/',
    documented({
      tags: ['Sign-in'],
      summary: 'Check a password-reset code before the new password is chosen',
      description: bodies,
      body: verifyOtpSchema,
      response: { 200: messageAnswerSchema, ...refusals(400, 403) },
    }),
    async (request): Promise<MessageResponse> => {
      const input = request.body;
      const matched = await checkCode(ctx, {
        email: normaliseEmail(input.email),
        purpose: 'reset',
        code: input.otp,
      });
      if (!matched) throw invalidCode();
      return { message: AUTH_MESSAGES.verifySuccess };
    },
  );

  app.post(
    '/api/auth/reset-password/',
    documented({
      tags: ['Sign-in'],
      summary: 'Set a new password with the emailed code',
      description: `Signs out every session of the account. ${bodies}`,
      body: resetPasswordSchema,
      response: { 200: messageAnswerSchema, ...refusals(400, 403, 429) },
    }),
    async (request, reply): Promise<MessageResponse> => {
      const input = request.body;
      const email = normaliseEmail(input.email);
      await limitCodeUses(ctx, request);
      const matched = await checkCode(ctx, { email, purpose: 'reset', code: input.otp });
      if (!matched) throw invalidCode();
      const passwordHash = await hashPassword(input.password, ctx.config.passwordHashCost);
      const userId = await resetPassword(ctx, { email, passwordHash, code: matched }).catch(
        (error: unknown) => {
          throw refusal(error);
        },
      );
      forgetSessionsOf(ctx, userId);
      request.sessionUser = null;
      clearSessionCookie(ctx, reply);
      return { message: AUTH_MESSAGES.resetSuccess };
    },
  );
}
