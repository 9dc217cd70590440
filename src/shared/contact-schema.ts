import { z } from 'zod';
import { CONTACT_TOPICS } from './constants';
import { CONTACT_MESSAGES, validateContact } from './contact';
import { singleLineText, withTextPolicy } from './input-policy';
import { MAX_LENGTH } from './limits';

/**
 * The server's schema for POST /api/contact, apart from contact.ts so the contact page does not download zod.
 * The fields' own checks are only type and length; what a field must contain is `validateContact`, the rule the
 * form runs, so both sides report the same message for the same value.
 */

const tooLong = (max: number) => `Must be at most ${max} characters`;
/** A field that failed its type check is treated as missing. */
const asText = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Single-line unless `multiline`; the limit holds in characters and in bytes (input policy). */
const text = (message: string, max: number, multiline = false) =>
  withTextPolicy(z.string({ error: message }).max(max, tooLong(max)), { multiline, maxBytes: max });

export const contactSchema = z
  .strictObject({
    name: text(CONTACT_MESSAGES.nameRequired, MAX_LENGTH.contactName),
    organisation: text(tooLong(MAX_LENGTH.contactOrganisation), MAX_LENGTH.contactOrganisation)
      .optional()
      .default(''),
    email: withTextPolicy(
      z
        .string({ error: CONTACT_MESSAGES.emailRequired })
        .max(MAX_LENGTH.email, CONTACT_MESSAGES.emailInvalid),
      { maxBytes: MAX_LENGTH.email },
    ),
    relatedTo: z.enum(CONTACT_TOPICS, { error: CONTACT_MESSAGES.relatedToRequired }),
    description: text(CONTACT_MESSAGES.descriptionRequired, MAX_LENGTH.contactDescription, true),
    /** Honeypot: hidden from people; a bot that fills it gets a polite success and nothing is stored. */
    website: singleLineText(MAX_LENGTH.contactHoneypot).optional(),
  })
  .superRefine(
    (input, check) => {
      const errors = validateContact({
        name: asText(input.name),
        email: asText(input.email),
        relatedTo: asText(input.relatedTo),
        description: asText(input.description),
      });
      for (const [field, message] of Object.entries(errors))
        check.addIssue({ code: 'custom', path: [field], message });
    },
    // Runs even when a field failed its own check, so every bad field is listed at once (the first message per
    // field is the one reported).
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  );

export type ContactInput = z.input<typeof contactSchema>;
export type ContactRequest = z.output<typeof contactSchema>;
