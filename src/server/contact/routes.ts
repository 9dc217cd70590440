import type { FastifyInstance } from 'fastify';
import { CONTACT_MESSAGES, type ContactResponse } from '../../shared/contact';
import { contactSchema } from '../../shared/contact-schema';
import { parseInput } from '../http/errors';
import type { AppContext } from '../kernel/context';
import { storeContactMessage } from './messages';

/** 5 messages per hour from one client address (docs/product.md §9). */
export const CONTACT_LIMIT = {
  limit: 5,
  windowMs: 60 * 60 * 1000,
  message: 'Too many messages from this address. Please try again later or contact us by phone or email.',
};

export async function contactRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/api/contact', async (request): Promise<ContactResponse> => {
    const input = parseInput(contactSchema, request.body);
    const success: ContactResponse = { status: 'success', message: CONTACT_MESSAGES.success };

    // People never see the honeypot field; whatever fills it is a bot, which is told it succeeded.
    if (input.website?.trim()) return success;

    await ctx.limiter.consume({ key: `contact:${request.ip}`, ...CONTACT_LIMIT });

    await storeContactMessage(ctx, input, request.ip);
    return success;
  });
}
