import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageAnswerSchema } from '../../../shared/api-schemas';
import { emptyRequestSchema, messagesQuerySchema } from '../../../shared/dashboard';
import { mailStatusSchema, messagesPageSchema } from '../../../shared/dashboard-answers';
import { markMessageHandled } from '../../contact/messages';
import { refusals } from '../../http/answers';
import type { AppContext } from '../../kernel/context';
import { retryMail } from '../../mail/operator';
import { mailStatus, messagesPage } from '../messages';
import { GUARD_REFUSALS, idPath, operatorOf } from './guard';

const mailId = z.object({
  id: z.coerce
    .number('Not a mail id.')
    .int('Not a mail id.')
    .positive('Not a mail id.')
    .max(Number.MAX_SAFE_INTEGER, 'Not a mail id.'),
});

/** /api/admin/messages and /api/admin/mail: contact messages and the outbox, and the operator's two fixes. */
export function dashboardMessageRoutes(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const messages = {
    schema: {
      querystring: messagesQuerySchema,
      response: { 200: messagesPageSchema, ...refusals(...GUARD_REFUSALS, 400) },
    },
  };
  app.get('/api/admin/messages', messages, async (request) => messagesPage(ctx, request.query));

  app.post(
    '/api/admin/messages/:id/handled',
    {
      schema: {
        params: idPath,
        body: emptyRequestSchema,
        response: { 200: messageAnswerSchema, ...refusals(...GUARD_REFUSALS, 400, 404) },
      },
    },
    async (request) => {
      const id = request.params.id;
      const { message, alreadyHandled } = await markMessageHandled(ctx, id, operatorOf(ctx, request).actor);
      return {
        message: alreadyHandled
          ? 'It was already marked handled.'
          : `The message from ${message.name} is marked handled.`,
      };
    },
  );

  const mail = { schema: { response: { 200: mailStatusSchema, ...refusals(...GUARD_REFUSALS) } } };
  app.get('/api/admin/mail', mail, async () => mailStatus(ctx));

  app.post(
    '/api/admin/mail/:id/retry',
    {
      schema: {
        params: mailId,
        body: emptyRequestSchema,
        response: { 200: messageAnswerSchema, ...refusals(...GUARD_REFUSALS, 400, 404, 409) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await retryMail(ctx, id, operatorOf(ctx, request).actor);
      return { message: 'It will be sent again within seconds.' };
    },
  );
}
