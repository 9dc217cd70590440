import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contactAnswerSchema } from '../../shared/api-schemas';
import { CONTACT_MESSAGES, type ContactResponse } from '../../shared/contact';
import { contactSchema } from '../../shared/contact-schema';
import { refusals } from '../http/answers';
import type { AppContext } from '../kernel/context';
import { documented } from '../openapi/openapi';
import { storeContactMessage } from './messages';

/** 5 messages per hour from one client address (docs/product.md §9). */
export const CONTACT_LIMIT = {
  limit: 5,
  windowMs: 60 * 60 * 1000,
  message: 'Too many messages from this address. Please try again later or contact us by phone or email.',
};

export async function contactRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const contact = documented({
    tags: ['Site'],
    summary: 'Send the firm a message (the contact form)',
    body: contactSchema,
    response: { 200: contactAnswerSchema, ...refusals(400, 403, 429) },
  });
  app.post('/api/contact', contact, async (request): Promise<ContactResponse> => {
    const input = request.body;
    const success: ContactResponse = { status: 'success', message: CONTACT_MESSAGES.success };

    // People never see the honeypot field; whatever fills it is a bot, which is told it succeeded.
    if (input.website?.trim()) return success;

    await ctx.limiter.consume({ key: `contact:${request.ip}`, ...CONTACT_LIMIT });

    await storeContactMessage(ctx, input, request.ip);
    return success;
  });
}
