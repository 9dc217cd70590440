import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ACCOUNT_MESSAGES } from '../../shared/account';
import {
  passkeyLoginSchema,
  passkeyNameSchema,
  passkeyRegistrationSchema,
} from '../../shared/account-schemas';
import { AUTH_MESSAGES, type LoginResponse } from '../../shared/auth';
import { LOGIN_LIMIT_PER_ADDRESS_MINUTE } from '../auth/routes';
import { requireUser, rotateSession } from '../auth/session';
import { issueCsrfToken } from '../http/csrf';
import { notFound } from '../http/errors';
import { pathStrings, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import {
  addPasskey,
  listPasskeys,
  loginOptions,
  registrationOptions,
  removePasskey,
  renamePasskey,
  verifyPasskeyLogin,
} from './passkeys';
import { idParam, requireSession } from './settings-routes';

/** A sign-in ceremony costs a stored challenge: bounded per address like logins. */
const PASSKEY_OPTIONS_PER_ADDRESS_MINUTE = 30;

/** The account's passkeys, and signing in with one from the login dialog (issue 33). */
export function passkeyRoutes(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get('/api/account/passkeys', async (request, reply) => {
    const { id } = await requireUser(ctx, request);
    reply.header('cache-control', 'no-store');
    return listPasskeys(ctx.db, id);
  });

  app.post('/api/account/passkeys/options', { config: { reauth: true } }, async (request, reply) => {
    const { user, sessionIdHash } = await requireSession(ctx, request);
    reply.header('cache-control', 'no-store');
    return registrationOptions(ctx, user, sessionIdHash);
  });

  app.post(
    '/api/account/passkeys',
    { schema: { body: passkeyRegistrationSchema }, config: { checksCallerFirst: true, reauth: true } },
    async (request) => {
      const { user, sessionIdHash } = await requireSession(ctx, request);
      refuseInvalidInput(request);
      const input = request.body;
      const passkeys = await addPasskey(ctx, {
        userId: user.id,
        sessionIdHash,
        name: input.name,
        credential: input.credential as RegistrationResponseJSON,
      });
      return { passkeys, message: ACCOUNT_MESSAGES.passkeyAdded };
    },
  );

  app.patch(
    '/api/account/passkeys/:id',
    { schema: { params: pathStrings('id'), body: passkeyNameSchema }, config: { checksCallerFirst: true } },
    async (request) => {
      const { id: userId } = await requireUser(ctx, request);
      const id = idParam(request, ACCOUNT_MESSAGES.passkeyNotFound);
      refuseInvalidInput(request);
      const { name } = request.body;
      if (!(await renamePasskey(ctx, userId, id, name))) throw notFound(ACCOUNT_MESSAGES.passkeyNotFound);
      return { passkeys: await listPasskeys(ctx.db, userId), message: ACCOUNT_MESSAGES.passkeyRenamed };
    },
  );

  app.delete(
    '/api/account/passkeys/:id',
    { schema: { params: pathStrings('id') }, config: { reauth: true } },
    async (request) => {
      const { id: userId } = await requireUser(ctx, request);
      const id = idParam(request, ACCOUNT_MESSAGES.passkeyNotFound);
      if (!(await removePasskey(ctx, userId, id))) throw notFound(ACCOUNT_MESSAGES.passkeyNotFound);
      return { passkeys: await listPasskeys(ctx.db, userId), message: ACCOUNT_MESSAGES.passkeyRemoved };
    },
  );

  app.post('/api/auth/passkey/options', async (request, reply) => {
    await ctx.limiter.consume({
      key: `passkey-options-ip:${request.ip}`,
      limit: PASSKEY_OPTIONS_PER_ADDRESS_MINUTE,
      windowMs: 60 * 1000,
      message: AUTH_MESSAGES.tooManyLogins,
    });
    reply.header('cache-control', 'no-store');
    return loginOptions(ctx);
  });

  app.post(
    '/api/auth/passkey/login',
    { schema: { body: passkeyLoginSchema } },
    async (request, reply): Promise<LoginResponse> => {
      const { credential } = request.body;
      await ctx.limiter.consume({
        key: `login-ip:${request.ip}`,
        limit: LOGIN_LIMIT_PER_ADDRESS_MINUTE,
        windowMs: 60 * 1000,
        message: AUTH_MESSAGES.tooManyLogins,
      });
      const user = await verifyPasskeyLogin(ctx, credential as AuthenticationResponseJSON);
      await rotateSession(ctx, ctx.db, request, reply, user.id);
      issueCsrfToken(reply, ctx.config);
      reply.header('cache-control', 'no-store');
      return {
        user: { name: user.name, email: user.email, phone: user.phone },
        message: AUTH_MESSAGES.loginSuccess,
      };
    },
  );
}
