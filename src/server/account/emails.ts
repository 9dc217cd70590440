import { TAX_RECORD_RETENTION_MONTHS } from '../../shared/privacy';
import { SITE } from '../../shared/site';
import { type RenderedEmail, renderEmail } from '../mail/layout';

/** The last email an erased address gets: what was erased, what is kept and why, and whom to write to. */
export function accountErasedEmail(when: Date): RenderedEmail {
  const at = new Intl.DateTimeFormat('en-IN', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Asia/Kolkata',
  }).format(when);
  return renderEmail({
    subject: 'Your account was deleted',
    heading: 'Your account was deleted',
    blocks: [
      {
        kind: 'paragraph',
        text: `Your ${SITE.name} account was deleted on ${at} (India time), as you asked. You were signed out everywhere, your licenses were revoked, and your name, email address, phone number, password, devices and messages were erased.`,
      },
      {
        kind: 'paragraph',
        text: `The tax invoices and credit notes issued to you are kept for ${TAX_RECORD_RETENTION_MONTHS} months, as the GST law requires (CGST Act section 36), with the name and address they were issued to. This email is deleted from our systems as soon as it is sent.`,
      },
      {
        kind: 'paragraph',
        text: `If you did not ask for this, write to us at once at ${SITE.supportEmail}. You are welcome to sign up again at any time; a new account starts empty.`,
      },
    ],
  });
}
