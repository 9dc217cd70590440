import { z } from 'zod';
import { CONTACT_TOPICS } from './constants';
import { CONTACT_MESSAGES, EMAIL_PATTERN } from './contact';

/** The server's schema for POST /api/contact, apart from contact.ts so the contact page does not download zod. */

const required = (message: string, max: number) =>
  z
    .string({ error: message })
    .max(max, `Must be at most ${max} characters`)
    .refine((value) => value.trim().length > 0, message);

export const contactSchema = z.strictObject({
  name: required(CONTACT_MESSAGES.nameRequired, 120),
  organisation: z.string().max(160, 'Must be at most 160 characters').optional().default(''),
  email: z
    .string({ error: CONTACT_MESSAGES.emailRequired })
    .max(254, CONTACT_MESSAGES.emailInvalid)
    .refine((value) => value.trim().length > 0, CONTACT_MESSAGES.emailRequired)
    .refine(
      (value) => value.trim().length === 0 || EMAIL_PATTERN.test(value.trim()),
      CONTACT_MESSAGES.emailInvalid,
    ),
  relatedTo: z.enum(CONTACT_TOPICS, { error: CONTACT_MESSAGES.relatedToRequired }),
  description: required(CONTACT_MESSAGES.descriptionRequired, 5000),
  /** Honeypot: hidden from people; a bot that fills it gets a polite success and nothing is stored. */
  website: z.string().max(500).optional(),
});

export type ContactInput = z.input<typeof contactSchema>;
export type ContactRequest = z.output<typeof contactSchema>;
