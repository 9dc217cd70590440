import type { ContactResponse } from '../../../shared/contact';
import type { ContactInput } from '../../../shared/contact-schema';
import { api } from '../../lib/api';

/**
 * What POST /api/contact answers on a 2xx, its fields read as unknown on purpose: anything other than 'success'
 * or 'partial_success' is the documented "unexpected response" (docs/product.md §4), and the form must notice it.
 */
export type ContactReply = { [Key in keyof ContactResponse]?: unknown } | null;

/** The form's values: the request's fields, all present, with no topic chosen yet as ''. */
export type ContactSubmission = Required<Omit<ContactInput, 'relatedTo'>> & { relatedTo: string };

export function sendContactMessage(body: ContactSubmission): Promise<ContactReply> {
  return api.post<ContactReply>('/api/contact', body);
}
