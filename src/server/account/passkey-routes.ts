import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ACCOUNT_MESSAGES } from '../../shared/account';
import {
  passkeyLoginSchema,
  passkeyNameSchema,
  passkeyRegistrationSchema,
} from '../../shared/account-schemas';
import {
  passkeyCreationOptionsSchema,
  passkeyRequestOptionsSchema,
  passkeysAnswerSchema,
  passkeysChangedAnswerSchema,
  signedInAnswerSchema,
} from '../../shared/api-schemas';
import { AUTH_MESSAGES, type LoginResponse } from '../../shared/auth';
import { LOGIN_LIMIT_PER_ADDRESS_MINUTE } from '../auth/routes';
import { requireUser, rotateSession } from '../auth/session';
import { refusals } from '../http/answers';
import { issueCsrfToken } from '../http/csrf';
import { notFound } from '../http/errors';
import { CALLER_FIRST, pathStrings, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
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
  const list = documented({
    tags: ['Account'],
    summary: "The account's passkeys",
    security: SESSION,
    response: { 200: passkeysAnswerSchema, ...refusals(401) },
  });
  app.get('/api/account/passkeys', list, async (request, reply) => {
    const { id } = await requireUser(ctx, request);
    reply.header('cache-control', 'no-store');
    return listPasskeys(ctx.db, id);
  });

  const creationOptions = documented(
    {
      tags: ['Account'],
      summary: 'Start adding a passkey: the options for navigator.credentials.create()',
      security: SESSION,
      response: { 200: passkeyCreationOptionsSchema, ...refusals(401, 403) },
    },
    { reauth: true },
  );
  app.post('/api/account/passkeys/options', creationOptions, async (request, reply) => {
    const { user, sessionIdHash } = await requireSession(ctx, request);
    reply.header('cache-control', 'no-store');
    return registrationOptions(ctx, user, sessionIdHash);
  });

  app.post(
    '/api/account/passkeys',
    documented(
      {
        tags: ['Account'],
        summary: "Add a passkey: its name and the browser's registration",
        security: SESSION,
        body: passkeyRegistrationSchema,
        response: { 200: passkeysChangedAnswerSchema, ...refusals(400, 401, 403) },
      },
      { ...CALLER_FIRST, reauth: true },
    ),
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
    documented(
      {
        tags: ['Account'],
        summary: 'Rename a passkey',
        security: SESSION,
        params: pathStrings('id'),
        body: passkeyNameSchema,
        response: { 200: passkeysChangedAnswerSchema, ...refusals(400, 401, 403, 404) },
      },
      CALLER_FIRST,
    ),
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
    documented(
      {
        tags: ['Account'],
        summary: 'Remove a passkey (needs a recent "confirm it is you")',
        security: SESSION,
        params: pathStrings('id'),
        response: { 200: passkeysChangedAnswerSchema, ...refusals(401, 403, 404) },
      },
      { reauth: true },
    ),
    async (request) => {
      const { id: userId } = await requireUser(ctx, request);
      const id = idParam(request, ACCOUNT_MESSAGES.passkeyNotFound);
      if (!(await removePasskey(ctx, userId, id))) throw notFound(ACCOUNT_MESSAGES.passkeyNotFound);
      return { passkeys: await listPasskeys(ctx.db, userId), message: ACCOUNT_MESSAGES.passkeyRemoved };
    },
  );

  const requestOptions = documented({
    tags: ['Sign-in'],
    summary: 'Start signing in with a passkey: the options for navigator.credentials.get()',
    response: { 200: passkeyRequestOptionsSchema, ...refusals(403, 429) },
  });
  app.post('/api/auth/passkey/options', requestOptions, async (request, reply) => {
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
    documented({
      tags: ['Sign-in'],
      summary: "Sign in with the browser's passkey assertion",
      body: passkeyLoginSchema,
      response: { 200: signedInAnswerSchema, ...refusals(400, 403, 429) },
    }),
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
