import { z } from 'zod';
import { CONTACT_TOPICS } from './constants';
import { CONTACT_MESSAGES, EMAIL_PATTERN } from './contact';
import { INPUT_MESSAGES, singleLineText, withTextPolicy } from './input-policy';

/** The server's schema for POST /api/contact, apart from contact.ts so the contact page does not download zod. */

/** A required field; single-line unless `multiline`, its limit holding in characters and bytes (input policy). */
const required = (message: string, max: number, multiline = false) =>
  withTextPolicy(z.string({ error: message }).max(max, INPUT_MESSAGES.tooLong(max)), {
    multiline,
    maxBytes: max,
  }).refine((value) => value.trim().length > 0, message);

export const contactSchema = z.strictObject({
  name: required(CONTACT_MESSAGES.nameRequired, 120),
  organisation: singleLineText(160).optional().default(''),
  email: withTextPolicy(
    z.string({ error: CONTACT_MESSAGES.emailRequired }).max(254, CONTACT_MESSAGES.emailInvalid),
    {
      maxBytes: 254,
    },
  )
    .refine((value) => value.trim().length > 0, CONTACT_MESSAGES.emailRequired)
    .refine(
      (value) => value.trim().length === 0 || EMAIL_PATTERN.test(value.trim()),
      CONTACT_MESSAGES.emailInvalid,
    ),
  relatedTo: z.enum(CONTACT_TOPICS, { error: CONTACT_MESSAGES.relatedToRequired }),
  description: required(CONTACT_MESSAGES.descriptionRequired, 5000, true),
  /** Honeypot: hidden from people; a bot that fills it gets a polite success and nothing is stored. */
  website: singleLineText(500).optional(),
});

export type ContactInput = z.input<typeof contactSchema>;
export type ContactRequest = z.output<typeof contactSchema>;
