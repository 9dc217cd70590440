import { TAX_RECORD_RETENTION_MONTHS } from '../../shared/privacy';
import { SITE } from '../../shared/site';
import { type RenderedEmail, renderEmail } from '../mail/layout';

/**
 * The notices the account page's changes send (issue 33). Transactional: sent whatever the email preferences say,
 * and none repeats what was typed into a form beyond the addresses involved.
 */

const indiaTime = (when: Date) =>
  new Intl.DateTimeFormat('en-IN', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Asia/Kolkata',
  }).format(when);

export function passwordChangedNotice(when: Date, contactUrl: string): RenderedEmail {
  return renderEmail({
    subject: 'Your password was changed',
    heading: 'Your password was changed',
    blocks: [
      {
        kind: 'paragraph',
        text: `The password of your ${SITE.name} account was changed on ${indiaTime(when)} (India time) from its account page. Every other browser signed in to the account was signed out.`,
      },
      {
        kind: 'paragraph',
        text: 'If you did not do this, reset your password at once with "Forgot password?" on the login screen, and tell us.',
      },
      { kind: 'button', href: contactUrl, label: 'Contact us' },
    ],
  });
}

export function emailChangeCodeEmail(code: string): RenderedEmail {
  return renderEmail({
    subject: 'Confirm your new email address',
    heading: 'Confirm your new email address',
    blocks: [
      {
        kind: 'paragraph',
        text: `Use this code on your ${SITE.name} account page to make this address the one you sign in with:`,
      },
      { kind: 'code', label: 'Verification code', text: code },
      {
        kind: 'paragraph',
        text: 'The code expires in 10 minutes and works once. If you did not ask for it, you can ignore this email; nothing changes.',
      },
    ],
  });
}

/** To an address that already has an account, instead of a code: the same answer as for a free address. */
export function emailTakenNotice(contactUrl: string): RenderedEmail {
  return renderEmail({
    subject: 'Someone tried to use your email address',
    heading: 'Your email address is already in use',
    blocks: [
      {
        kind: 'paragraph',
        text: `Someone asked to move another ${SITE.name} account to this email address. It already belongs to your account, so nothing was moved and your account is unchanged.`,
      },
      { kind: 'paragraph', text: 'If this worries you, tell us.' },
      { kind: 'button', href: contactUrl, label: 'Contact us' },
    ],
  });
}

/** To the address an account leaves. */
export function emailChangedNotice(when: Date, contactUrl: string): RenderedEmail {
  return renderEmail({
    subject: 'Your email address was changed',
    heading: 'Your email address was changed',
    blocks: [
      {
        kind: 'paragraph',
        text: `On ${indiaTime(when)} (India time) your ${SITE.name} account was moved to another email address, confirmed with a code sent to it. Licenses, downloads and invoices now go to the new address; this address gets nothing more from the account.`,
      },
      {
        kind: 'paragraph',
        text: 'If you did not do this, write to us at once through the Contact page and we will help you get the account back.',
      },
      { kind: 'button', href: contactUrl, label: 'Contact us' },
    ],
  });
}

/** The last email an erased address gets: what was erased, what is kept and why, and whom to write to. */
export function accountErasedEmail(when: Date): RenderedEmail {
  return renderEmail({
    subject: 'Your account was deleted',
    heading: 'Your account was deleted',
    blocks: [
      {
        kind: 'paragraph',
        text: `Your ${SITE.name} account was deleted on ${indiaTime(when)} (India time), as you asked. You were signed out everywhere, your licenses were revoked, and your name, email address, phone number, password, passkeys, devices and messages were erased.`,
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
