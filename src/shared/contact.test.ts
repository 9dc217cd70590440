import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES, EMAIL_PATTERN, validateContact } from './contact';
import { contactSchema } from './contact-schema';

const valid = {
  name: 'Asha',
  organisation: '',
  email: 'asha@example.in',
  relatedTo: 'Services',
  description: 'Hello',
};

const fieldErrors = (input: unknown) => {
  const result = contactSchema.safeParse(input);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[issue.path.join('.') || '_'] ??= issue.message;
  return errors;
};

describe('validateContact (the form)', () => {
  it('accepts a complete message, organisation optional', () => {
    expect(validateContact(valid)).toEqual({});
  });

  it('gives the spec message for each empty or bad field, checking emptiness on trimmed values', () => {
    expect(validateContact({ name: '  ', email: '', relatedTo: '', description: '\n' })).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      relatedTo: 'Please select an option',
      description: 'Description is required',
    });
    expect(validateContact({ ...valid, email: 'abc' })).toEqual({ email: 'Email is invalid' });
    expect(validateContact({ ...valid, email: ' asha@example.in ' })).toEqual({});
  });
});

describe('EMAIL_PATTERN', () => {
  it('wants something@something.something without spaces', () => {
    for (const ok of ['a@b.co', 'first.last+tag@mail.example.in']) expect(EMAIL_PATTERN.test(ok)).toBe(true);
    for (const bad of ['abc', 'a@b', '@b.co', 'a b@c.de', 'a@b@c.de', 'a@b.']) {
      expect(EMAIL_PATTERN.test(bad)).toBe(false);
    }
  });
});

describe('contactSchema (the server)', () => {
  it('accepts what the form accepts and defaults the organisation to empty', () => {
    const { organisation: _, ...withoutOrganisation } = valid;
    expect(contactSchema.parse(withoutOrganisation)).toMatchObject({ organisation: '' });
  });

  it('gives the same messages as the form', () => {
    expect(fieldErrors({})).toEqual({
      name: CONTACT_MESSAGES.nameRequired,
      email: CONTACT_MESSAGES.emailRequired,
      relatedTo: CONTACT_MESSAGES.relatedToRequired,
      description: CONTACT_MESSAGES.descriptionRequired,
    });
    expect(fieldErrors({ ...valid, email: '   ' })).toEqual({ email: CONTACT_MESSAGES.emailRequired });
    expect(fieldErrors({ ...valid, email: 'abc' })).toEqual({ email: CONTACT_MESSAGES.emailInvalid });
    expect(fieldErrors({ ...valid, relatedTo: 'Careers' })).toEqual({
      relatedTo: CONTACT_MESSAGES.relatedToRequired,
    });
  });

  it('lists a blank field even when another field is not text at all', () => {
    expect(fieldErrors({ ...valid, name: ' ', email: 42, description: '' })).toEqual({
      name: CONTACT_MESSAGES.nameRequired,
      email: CONTACT_MESSAGES.emailRequired,
      description: CONTACT_MESSAGES.descriptionRequired,
    });
  });

  it('rejects unknown fields and oversized values', () => {
    expect(fieldErrors({ ...valid, extra: 1 })).toHaveProperty('_');
    expect(fieldErrors({ ...valid, name: 'x'.repeat(121) })).toHaveProperty('name');
    expect(fieldErrors({ ...valid, description: 'x'.repeat(5001) })).toHaveProperty('description');
    expect(fieldErrors({ ...valid, website: 'x'.repeat(501) })).toHaveProperty('website');
  });

  it('lets the honeypot through so the server can answer a bot politely', () => {
    expect(contactSchema.parse({ ...valid, website: 'https://spam.example' }).website).toBe(
      'https://spam.example',
    );
  });
});
