import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ACCOUNT_MESSAGES, REAUTH_WINDOW_MINUTES } from '../../shared/account';
import { reauthSchema } from '../../shared/account-schemas';
import { reauthAnswerSchema } from '../../shared/api-schemas';
import { verifyPassword } from '../auth/passwords';
import { sessions, users } from '../db/schema/accounts';
import { refusals } from '../http/answers';
import { AppError } from '../http/errors';
import { CALLER_FIRST, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import { verifyPasskeyLogin } from './passkeys';
import { requireSession } from './settings-routes';

/**
 * "Sudo mode" (decision 042, OWASP ASVS V2, GitHub's sudo mode): changing the sign-in email, adding or removing a
 * passkey, signing out every other browser and deleting the account need a second sign-in (the password, or a
 * passkey of the account) in this session within the last 10 minutes. A sign-in counts as one. A route opts in with
 * `config: { reauth: true }`; without a recent one it answers 403 `reauth_required` before its body is read.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A risky account change: needs a second sign-in within REAUTH_WINDOW_MINUTES (account/reauth-routes.ts). */
    reauth?: boolean;
  }
}

const REAUTH_WINDOW_MS = REAUTH_WINDOW_MINUTES * 60 * 1000;
const REAUTH_TRIES_PER_ACCOUNT = 10;
const REAUTH_TRIES_WINDOW_MS = 15 * 60 * 1000;

export const reauthRequired = () => new AppError(403, 'reauth_required', ACCOUNT_MESSAGES.reauthRequired);

const wrongPassword = () =>
  new AppError(400, 'wrong_password', ACCOUNT_MESSAGES.reauthPasswordWrong, {
    password: ACCOUNT_MESSAGES.reauthPasswordWrong,
  });

/** Whether the session `idHash` names had a second sign-in within the window, by the server's clock. */
async function recentlyReauthenticated(ctx: AppContext, idHash: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ at: sessions.reauthenticatedAt })
    .from(sessions)
    .where(eq(sessions.idHash, idHash));
  if (!row?.at) return false;
  const age = ctx.clock.now().getTime() - row.at.getTime();
  return age >= 0 && age < REAUTH_WINDOW_MS;
}

/** The check of every route marked `reauth`, after the CSRF check and the session's own. */
export function registerReauthGuard(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('preHandler', async (request) => {
    if (!request.routeOptions.config?.reauth) return;
    const { sessionIdHash } = await requireSession(ctx, request);
    if (!(await recentlyReauthenticated(ctx, sessionIdHash))) throw reauthRequired();
  });
}

/** Opens the window for the session asking. */
async function markReauthenticated(ctx: AppContext, idHash: string): Promise<void> {
  await ctx.db
    .update(sessions)
    .set({ reauthenticatedAt: ctx.clock.now() })
    .where(eq(sessions.idHash, idHash));
}

/**
 * `POST /api/account/reauth`: `{password}`, or `{credential}` (an assertion of the account's own passkey, its
 * challenge from `POST /api/auth/passkey/options` as for a sign-in). Wrong tries share a budget per account.
 */
export function reauthRoutes(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/account/reauth',
    documented(
      {
        tags: ['Account'],
        summary: 'Confirm it is you (password or passkey): risky changes are allowed for 10 minutes',
        security: SESSION,
        body: reauthSchema,
        response: { 200: reauthAnswerSchema, ...refusals(400, 401, 403, 429) },
      },
      CALLER_FIRST,
    ),
    async (request, reply) => {
      const { user, sessionIdHash } = await requireSession(ctx, request);
      refuseInvalidInput(request);
      const input = request.body;
      const budget = await ctx.limiter.reserve({
        key: `reauth:${user.id}`,
        windowMs: REAUTH_TRIES_WINDOW_MS,
        limit: REAUTH_TRIES_PER_ACCOUNT,
        message: ACCOUNT_MESSAGES.tooManyPasswordTries,
      });
      if (input.credential) {
        const owner = await verifyPasskeyLogin(ctx, input.credential as AuthenticationResponseJSON);
        if (owner.id !== user.id)
          throw new AppError(400, 'passkey_refused', ACCOUNT_MESSAGES.reauthPasskeyOther);
      } else {
        const [account] = await ctx.db
          .select({ passwordHash: users.passwordHash })
          .from(users)
          .where(eq(users.id, user.id));
        if (
          !account ||
          !(await verifyPassword(input.password ?? '', account.passwordHash, ctx.config.passwordHashCost))
        )
          throw wrongPassword();
      }
      await budget.refund();
      await markReauthenticated(ctx, sessionIdHash);
      reply.header('cache-control', 'no-store');
      return { message: ACCOUNT_MESSAGES.reauthDone, minutes: REAUTH_WINDOW_MINUTES };
    },
  );
}
