import type { ContactInput } from '../../../shared/contact';
import { api } from '../../lib/api';

/**
 * What POST /api/contact answers on a 2xx. The status is read as a plain string on purpose: anything other than
 * 'success' or 'partial_success' is the documented "unexpected response", and the form must notice it.
 */
export type ContactReply = { status?: unknown; message?: unknown } | null;

export type ContactSubmission = Required<Pick<ContactInput, 'name' | 'email' | 'description'>> & {
  organisation: string;
  relatedTo: string;
  /** The honeypot: empty for people. */
  website: string;
};

export function sendContactMessage(body: ContactSubmission): Promise<ContactReply> {
  return api.post<ContactReply>('/api/contact', body);
}
