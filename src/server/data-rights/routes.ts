import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountExportSchema, messageAnswerSchema } from '../../shared/api-schemas';
import { normaliseEmail } from '../../shared/auth';
import { DATA_RIGHTS_MESSAGES } from '../../shared/privacy';
import { verifyPassword } from '../auth/passwords';
import { clearSessionCookie, requireUser } from '../auth/session';
import { users } from '../db/schema/accounts';
import { answerIn, refusals } from '../http/answers';
import { AppError } from '../http/errors';
import { CALLER_FIRST, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import { accountExport, sendExport } from './data-export';
import { eraseAccount } from './erasure';

const deleteBody = z.object({
  password: z.string().min(1, 'Enter your password.').max(1000),
  email: z.string().trim().min(1, 'Type your email address.').max(320),
});

/** Wrong passwords per account before deletion waits: the same budget a login has. */
const DELETE_ATTEMPTS_PER_15_MINUTES = 10;

/** The buyer's data rights (DPDP Act ss. 11–12): a copy of everything held, and erasure. */
export async function dataRightsRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const exported = documented({
    tags: ['Account'],
    summary: 'A copy of everything the shop holds about the account (DPDP Act s. 11), as a JSON file',
    security: SESSION,
    response: {
      200: answerIn('The JSON file, as an attachment', { 'application/json': accountExportSchema }),
      ...refusals(401),
    },
  });
  app.get('/api/account/export', exported, async (request, reply) => {
    const user = await requireUser(ctx, request);
    const data = await accountExport(ctx, user.id);
    return sendExport(reply, data, ctx.clock.now());
  });

  app.post(
    '/api/account/delete',
    documented(
      {
        tags: ['Account'],
        summary: 'Delete the account (DPDP Act s. 12): its password and email address, typed again',
        description: 'Tax invoices and credit notes are kept, with the name and address they were issued to.',
        security: SESSION,
        body: deleteBody,
        response: { 200: messageAnswerSchema, ...refusals(400, 401, 403, 429) },
      },
      { ...CALLER_FIRST, reauth: true },
    ),
    async (request, reply) => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const input = request.body;
      await ctx.limiter.consume({
        key: `account-delete:${user.id}`,
        limit: DELETE_ATTEMPTS_PER_15_MINUTES,
        windowMs: 15 * 60 * 1000,
        message: 'Too many attempts. Please wait a few minutes and try again.',
      });
      const [account] = await ctx.db
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.id, user.id));
      if (
        !account ||
        !(await verifyPassword(input.password, account.passwordHash, ctx.config.passwordHashCost))
      ) {
        throw new AppError(400, 'wrong_password', DATA_RIGHTS_MESSAGES.wrongPassword, {
          password: DATA_RIGHTS_MESSAGES.wrongPassword,
        });
      }
      if (normaliseEmail(input.email) !== normaliseEmail(user.email)) {
        throw new AppError(400, 'wrong_email', DATA_RIGHTS_MESSAGES.wrongEmail, {
          email: DATA_RIGHTS_MESSAGES.wrongEmail,
        });
      }
      await eraseAccount(ctx, user.id, { kind: 'buyer', userId: user.id });
      request.sessionUser = null;
      clearSessionCookie(ctx, reply);
      reply.header('cache-control', 'no-store');
      return { message: DATA_RIGHTS_MESSAGES.erased };
    },
  );
}
