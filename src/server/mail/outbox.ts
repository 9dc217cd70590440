import type { DbOrTx } from '../db';
import { outbox } from '../db/schema';

export type MailMessage = {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Template name: "contact-notification", "signup-code", "license-delivery", ... */
  kind: string;
  /** What caused it, e.g. "order:<uuid>". */
  ref?: string;
};

/**
 * Queues an email. Call it with the transaction that makes the change the email reports, so the email exists
 * exactly when the change does; the outbox worker delivers it later, with retries.
 */
export async function enqueueMail(db: DbOrTx, message: MailMessage): Promise<number> {
  const [row] = await db
    .insert(outbox)
    .values({ ...message, ref: message.ref ?? null })
    .returning({ id: outbox.id });
  if (!row) throw new Error('outbox insert returned no row');
  return row.id;
}
