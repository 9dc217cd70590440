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
import { AUTH_MESSAGES } from '../../shared/auth';
import { limitSendsFromAddress } from '../auth/codes';
import { requireUser, sessionIdHashOf } from '../auth/session';
import type { SessionUser } from '../auth/session-cache';
import { notFound, unauthorized } from '../http/errors';
import { pathStrings, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
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
    { schema: { body: profileSchema }, config: { checksCallerFirst: true } },
    async (request) => {
      const { id } = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const profile = request.body;
      return { user: await updateProfile(ctx, id, profile), message: ACCOUNT_MESSAGES.profileSaved };
    },
  );

  app.post(
    '/api/account/password',
    { schema: { body: passwordChangeSchema }, config: { checksCallerFirst: true } },
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
    { schema: { body: emailChangeSchema }, config: { checksCallerFirst: true, reauth: true } },
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
    { schema: { body: emailConfirmSchema }, config: { checksCallerFirst: true, reauth: true } },
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

  app.get('/api/account/sessions', async (request, reply) => {
    const { user, sessionIdHash } = await requireSession(ctx, request);
    reply.header('cache-control', 'no-store');
    return listSessions(ctx, user.id, sessionIdHash);
  });

  app.delete('/api/account/sessions/:id', { schema: { params: pathStrings('id') } }, async (request) => {
    const { id } = await requireUser(ctx, request);
    const publicId = idParam(request, ACCOUNT_MESSAGES.sessionNotFound);
    if (!(await endSessionByPublicId(ctx, id, publicId))) throw notFound(ACCOUNT_MESSAGES.sessionNotFound);
    return { message: ACCOUNT_MESSAGES.sessionEnded };
  });

  app.post('/api/account/sessions/sign-out-others', { config: { reauth: true } }, async (request) => {
    const { user, sessionIdHash } = await requireSession(ctx, request);
    const count = await endOthers(ctx, user.id, sessionIdHash);
    return { ended: count, message: ACCOUNT_MESSAGES.othersEnded(count) };
  });
}
