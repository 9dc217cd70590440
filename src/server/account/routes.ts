import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EMAIL_TOPICS } from '../../shared/account';
import {
  emailPreferencesSchema,
  unsubscribedAnswerSchema,
  unsubscribeLinkAnswerSchema,
} from '../../shared/api-schemas';
import { requireUser } from '../auth/session';
import { refusals } from '../http/answers';
import { AppError, unauthorized } from '../http/errors';
import { CALLER_FIRST, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import { emailPreferences, readUnsubscribeToken, setEmailPreferences } from './email-preferences';
import { passkeyRoutes } from './passkey-routes';
import { reauthRoutes, registerReauthGuard } from './reauth-routes';
import { settingsRoutes } from './settings-routes';

const tokenQuery = z.object({ token: z.string().min(1).max(200) });
const preferencesBody = z.object(
  Object.fromEntries(EMAIL_TOPICS.map((topic) => [topic, z.boolean().optional()])),
);

const invalidLink = () => new AppError(400, 'invalid_link', 'This unsubscribe link is not valid.');

export async function accountRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  registerReauthGuard(app, ctx);
  reauthRoutes(app, ctx);
  settingsRoutes(app, ctx);
  passkeyRoutes(app, ctx);

  app.get(
    '/api/account/email-preferences',
    documented({
      tags: ['Account'],
      summary: 'The optional emails the buyer gets',
      security: SESSION,
      response: { 200: emailPreferencesSchema, ...refusals(401) },
    }),
    async (request, reply) => {
      const user = await requireUser(ctx, request);
      reply.header('cache-control', 'no-store');
      // No row: the account went between the session check and the read, so nobody is signed in.
      return (await emailPreferences(ctx.db, user.id)) ?? Promise.reject(unauthorized());
    },
  );

  app.patch(
    '/api/account/email-preferences',
    documented(
      {
        tags: ['Account'],
        summary: 'Turn optional emails on or off',
        security: SESSION,
        body: preferencesBody,
        response: { 200: emailPreferencesSchema, ...refusals(400, 401, 403) },
      },
      CALLER_FIRST,
    ),
    async (request) => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const changes = request.body;
      return (
        (await setEmailPreferences(ctx.db, user.id, changes, ctx.clock.now())) ??
        Promise.reject(unauthorized())
      );
    },
  );

  /** What an unsubscribe link turns off, for the signed-out page at /unsubscribe. Changes nothing. */
  const unsubscribeLink = documented({
    tags: ['Account'],
    summary: 'What an unsubscribe link turns off (for the signed-out page it opens); changes nothing',
    querystring: tokenQuery,
    response: { 200: unsubscribeLinkAnswerSchema, ...refusals(400) },
  });
  app.get('/api/account/unsubscribe', unsubscribeLink, async (request, reply) => {
    const { token } = request.query;
    const target = readUnsubscribeToken(ctx.dataSecrets, token);
    if (!target || !(await emailPreferences(ctx.db, target.userId))) throw invalidLink();
    reply.header('cache-control', 'no-store');
    return { topic: target.topic };
  });

  /**
   * One-click unsubscribe (RFC 8058): mail providers POST here from the List-Unsubscribe header, without cookies
   * or a CSRF token; the keyed token is the authority, and it can only turn one topic off for one account.
   */
  app.post(
    '/api/account/unsubscribe',
    documented(
      {
        tags: ['Account'],
        summary: 'One-click unsubscribe (RFC 8058), as mail providers send it: no cookie, no CSRF token',
        querystring: tokenQuery,
        response: { 200: unsubscribedAnswerSchema, ...refusals(400) },
      },
      { csrf: false },
    ),
    async (request) => {
      const { token } = request.query;
      const target = readUnsubscribeToken(ctx.dataSecrets, token);
      if (
        !target ||
        !(await setEmailPreferences(ctx.db, target.userId, { [target.topic]: false }, ctx.clock.now()))
      ) {
        throw invalidLink();
      }
      return { topic: target.topic, subscribed: false as const };
    },
  );
}
