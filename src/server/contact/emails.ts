import type { ContactRequest } from '../../shared/contact-schema';
import { SITE } from '../../shared/site';
import { type RenderedEmail, renderEmail } from '../mail/layout';

/** A contact message as stored: trimmed, organisation null when left empty. */
export type ContactMessage = {
  name: string;
  organisation: string | null;
  email: string;
  relatedTo: ContactRequest['relatedTo'];
  description: string;
};

const receivedAt = new Intl.DateTimeFormat('en-IN', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Asia/Kolkata',
});

/** A visitor's text squeezed onto one short line, fit for a subject. */
function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** To the firm: everything the visitor wrote, so the reply can be written from the email alone. */
export function contactNotificationEmail(message: ContactMessage, at: Date): RenderedEmail {
  return renderEmail({
    subject: `New enquiry (${message.relatedTo}) from ${oneLine(message.name, 60)}`,
    heading: 'New message from the website',
    blocks: [
      {
        kind: 'details',
        rows: [
          ['Name', message.name],
          ['Organisation', message.organisation ?? '—'],
          ['Email', message.email],
          ['Related to', message.relatedTo],
          ['Received', `${receivedAt.format(at)} IST`],
        ],
      },
      { kind: 'quote', text: message.description },
      { kind: 'paragraph', text: `Reply to ${message.email} to answer this enquiry.` },
    ],
  });
}

/**
 * To the address the visitor typed. It deliberately repeats none of what they wrote: anyone can type someone
 * else's address into the form, and an acknowledgement that echoed the text would let them send that person
 * arbitrary words from the firm's domain.
 */
export function contactAcknowledgementEmail(message: ContactMessage): RenderedEmail {
  return renderEmail({
    subject: `We received your message — ${SITE.name}`,
    heading: 'Thank you for getting in touch',
    blocks: [
      {
        kind: 'paragraph',
        text: `We have received your message about ${message.relatedTo.toLowerCase()}. We'll get back to you as soon as possible.`,
      },
      {
        kind: 'paragraph',
        text: `If it is urgent, call us on ${SITE.phone} or write to ${SITE.email}.`,
      },
      {
        kind: 'paragraph',
        text: `You are receiving this because this address was entered in the contact form on the ${SITE.name} website. If that was not you, please ignore this email.`,
      },
    ],
  });
}
