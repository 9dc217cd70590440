import type { FastifyInstance } from 'fastify';
import { CONTACT_MESSAGES, type ContactResponse } from '../../shared/contact';
import { contactSchema } from '../../shared/contact-schema';
import { SITE } from '../../shared/site';
import type { AppContext } from '../context';
import { contactMessages } from '../db/schema';
import { parseInput } from '../http/errors';
import { enqueueMail } from '../mail/outbox';
import { type ContactMessage, contactAcknowledgementEmail, contactNotificationEmail } from './emails';

/** Spec: 5 messages per hour from one client address. */
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

    const message: ContactMessage = {
      name: input.name.trim(),
      organisation: input.organisation.trim() || null,
      email: input.email.trim(),
      relatedTo: input.relatedTo,
      description: input.description.trim(),
    };
    const now = ctx.clock.now();
    await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(contactMessages)
        .values({ ...message, ip: request.ip, createdAt: now })
        .returning({ id: contactMessages.id });
      if (!row) throw new Error('contact message insert returned no row');
      const ref = `contact:${row.id}`;
      await enqueueMail(
        ctx,
        tx,
        {
          to: ctx.config.mailToFirm ?? SITE.email,
          kind: 'contact-notification',
          ref,
          ...contactNotificationEmail(message, now),
        },
        now,
      );
      await enqueueMail(
        ctx,
        tx,
        { to: message.email, kind: 'contact-acknowledgement', ref, ...contactAcknowledgementEmail(message) },
        now,
      );
    });
    return success;
  });
}
