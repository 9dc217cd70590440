import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { emptyRequestSchema, messagesQuerySchema } from '../../../shared/dashboard';
import { markMessageHandled } from '../../contact/messages';
import { parseInput } from '../../http/errors';
import type { AppContext } from '../../kernel/context';
import { retryMail } from '../../mail/outbox-admin';
import { idParams, operatorOf } from '../guard';
import { mailStatus, messagesPage } from '../inbox';

const mailId = z.object({
  id: z.coerce
    .number('Not a mail id.')
    .int('Not a mail id.')
    .positive('Not a mail id.')
    .max(Number.MAX_SAFE_INTEGER, 'Not a mail id.'),
});

/** /api/admin/messages and /api/admin/mail: contact messages and the outbox, and the operator's two fixes. */
export function inboxRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/admin/messages', async (request) =>
    messagesPage(ctx, parseInput(messagesQuerySchema, request.query)),
  );

  app.post('/api/admin/messages/:id/handled', async (request) => {
    const id = idParams(request);
    parseInput(emptyRequestSchema, request.body);
    const { message, alreadyHandled } = await markMessageHandled(ctx, id, operatorOf(request).actor);
    return {
      message: alreadyHandled
        ? 'It was already marked handled.'
        : `The message from ${message.name} is marked handled.`,
    };
  });

  app.get('/api/admin/mail', async () => mailStatus(ctx));

  app.post('/api/admin/mail/:id/retry', async (request) => {
    const { id } = parseInput(mailId, request.params);
    parseInput(emptyRequestSchema, request.body);
    await retryMail(ctx, id, operatorOf(request).actor);
    return { message: 'It will be sent again within seconds.' };
  });
}
