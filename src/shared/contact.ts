/** docs/product.md §5 messages for the contact form; the form and the server show the same words. */
export const CONTACT_MESSAGES = {
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Email is invalid',
  relatedToRequired: 'Please select an option',
  descriptionRequired: 'Description is required',
  success: "We'll get back to you as soon as possible.",
  error: 'Please try again or contact us directly via phone or email.',
  unexpected: 'Unexpected response from server. Please try again.',
  requestFailed: 'Something went wrong. Please try again later.',
} as const;

/** The product document's "looks like an email" check: something@something.something, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type ContactResponse = { status: 'success' | 'partial_success'; message: string };

export type ContactFieldErrors = Partial<Record<'name' | 'email' | 'relatedTo' | 'description', string>>;

/**
 * The contact form's rule (docs/product.md §5), field by field with the first message per field; the form runs it
 * as the person types and the server's schema runs it on the request. A missing field counts as empty.
 */
export function validateContact(values: {
  name?: string;
  email?: string;
  relatedTo?: string;
  description?: string;
}): ContactFieldErrors {
  const errors: ContactFieldErrors = {};
  const email = (values.email ?? '').trim();
  if (!(values.name ?? '').trim()) errors.name = CONTACT_MESSAGES.nameRequired;
  if (!email) errors.email = CONTACT_MESSAGES.emailRequired;
  else if (!EMAIL_PATTERN.test(email)) errors.email = CONTACT_MESSAGES.emailInvalid;
  if (!values.relatedTo) errors.relatedTo = CONTACT_MESSAGES.relatedToRequired;
  if (!(values.description ?? '').trim()) errors.description = CONTACT_MESSAGES.descriptionRequired;
  return errors;
}
