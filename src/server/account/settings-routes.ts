import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ACCOUNT_MESSAGES } from '../../shared/account';
import {
  emailChangeSchema,
  emailConfirmSchema,
  passwordChangeSchema,
  profileSchema,
} from '../../shared/account-schemas';
import {
  messageAnswerSchema,
  othersSignedOutAnswerSchema,
  sessionsAnswerSchema,
  signedInAnswerSchema,
} from '../../shared/api-schemas';
import { AUTH_MESSAGES } from '../../shared/auth';
import { limitSendsFromAddress } from '../auth/codes';
import { requireUser, sessionIdHashOf } from '../auth/session';
import type { SessionUser } from '../auth/session-cache';
import { refusals } from '../http/answers';
import { notFound, unauthorized } from '../http/errors';
import { CALLER_FIRST, pathStrings, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import { confirmEmailChange, requestEmailChange } from './email-change';
import { changePassword } from './password';
import { updateProfile } from './profile';
import { endOthers, endSessionByPublicId, listSessions } from './sessions';

const CODE_USES_PER_ADDRESS_MINUTE = 10;
const idParams = z.object({ id: z.uuid() });

/** The signed-in user and the hash of the session asking (for "every other session"). */
export async function requireSession(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<{ user: SessionUser; sessionIdHash: string }> {
  const user = await requireUser(ctx, request);
  const sessionIdHash = sessionIdHashOf(request);
  if (!sessionIdHash) throw unauthorized();
  return { user, sessionIdHash };
}

/** An id in the path that is not even a uuid names nothing: the same 404 as an id of someone else's. */
export function idParam(request: FastifyRequest, message: string): string {
  const parsed = idParams.safeParse(request.params);
  if (!parsed.success) throw notFound(message);
  return parsed.data.id;
}

/** Profile, password, sign-in email and sessions of the signed-in account (issue 33). */
export function settingsRoutes(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.patch(
    '/api/account/profile',
    documented(
      {
        tags: ['Account'],
        summary: 'Change the name and phone number',
        security: SESSION,
        body: profileSchema,
        response: { 200: signedInAnswerSchema, ...refusals(400, 401, 403) },
      },
      CALLER_FIRST,
    ),
    async (request) => {
      const { id } = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const profile = request.body;
      return { user: await updateProfile(ctx, id, profile), message: ACCOUNT_MESSAGES.profileSaved };
    },
  );

  app.post(
    '/api/account/password',
    documented(
      {
        tags: ['Account'],
        summary: 'Change the password (every other browser is signed out)',
        security: SESSION,
        body: passwordChangeSchema,
        response: { 200: messageAnswerSchema, ...refusals(400, 401, 403, 429) },
      },
      CALLER_FIRST,
    ),
    async (request) => {
      const { user, sessionIdHash } = await requireSession(ctx, request);
      refuseInvalidInput(request);
      const input = request.body;
      await changePassword(ctx, { userId: user.id, sessionIdHash, ...input });
      return { message: ACCOUNT_MESSAGES.passwordChanged };
    },
  );

  app.post(
    '/api/account/email',
    documented(
      {
        tags: ['Account'],
        summary: 'Email a code to a new sign-in address (needs a recent "confirm it is you")',
        security: SESSION,
        body: emailChangeSchema,
        response: { 200: messageAnswerSchema, ...refusals(400, 401, 403, 429) },
      },
      { ...CALLER_FIRST, reauth: true },
    ),
    async (request) => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const { email } = request.body;
      await limitSendsFromAddress(ctx, request.ip);
      await requestEmailChange(ctx, user, email);
      return { message: ACCOUNT_MESSAGES.emailCodeSent(email.trim()) };
    },
  );

  app.post(
    '/api/account/email/confirm',
    documented(
      {
        tags: ['Account'],
        summary: 'Move the account to the new address with its emailed code',
        security: SESSION,
        body: emailConfirmSchema,
        response: { 200: signedInAnswerSchema, ...refusals(400, 401, 403, 409, 429) },
      },
      { ...CALLER_FIRST, reauth: true },
    ),
    async (request) => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const input = request.body;
      await ctx.limiter.consume({
        key: `code-use-ip:${request.ip}`,
        limit: CODE_USES_PER_ADDRESS_MINUTE,
        windowMs: 60 * 1000,
        message: AUTH_MESSAGES.tooManyCodeUses,
      });
      const email = await confirmEmailChange(ctx, user, input);
      return {
        user: { name: user.name, email, phone: user.phone },
        message: ACCOUNT_MESSAGES.emailChanged(email),
      };
    },
  );

  const sessions = documented({
    tags: ['Account'],
    summary: 'The browsers signed in to the account',
    security: SESSION,
    response: { 200: sessionsAnswerSchema, ...refusals(401) },
  });
  app.get('/api/account/sessions', sessions, async (request, reply) => {
    const { user, sessionIdHash } = await requireSession(ctx, request);
    reply.header('cache-control', 'no-store');
    return listSessions(ctx, user.id, sessionIdHash);
  });

  const endSession = documented({
    tags: ['Account'],
    summary: 'Sign out one of those browsers',
    security: SESSION,
    params: pathStrings('id'),
    response: { 200: messageAnswerSchema, ...refusals(401, 403, 404) },
  });
  app.delete('/api/account/sessions/:id', endSession, async (request) => {
    const { id } = await requireUser(ctx, request);
    const publicId = idParam(request, ACCOUNT_MESSAGES.sessionNotFound);
    if (!(await endSessionByPublicId(ctx, id, publicId))) throw notFound(ACCOUNT_MESSAGES.sessionNotFound);
    return { message: ACCOUNT_MESSAGES.sessionEnded };
  });

  const signOutOthers = documented(
    {
      tags: ['Account'],
      summary: 'Sign out every other browser (needs a recent "confirm it is you")',
      security: SESSION,
      response: { 200: othersSignedOutAnswerSchema, ...refusals(401, 403) },
    },
    { reauth: true },
  );
  app.post('/api/account/sessions/sign-out-others', signOutOthers, async (request) => {
    const { user, sessionIdHash } = await requireSession(ctx, request);
    const count = await endOthers(ctx, user.id, sessionIdHash);
    return { ended: count, message: ACCOUNT_MESSAGES.othersEnded(count) };
  });
}
