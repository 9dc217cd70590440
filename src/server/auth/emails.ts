import { SITE } from '../../shared/site';
import { type RenderedEmail, renderEmail } from '../mail/layout';

/**
 * The account emails. None of them repeats what a stranger typed into a form (such as the name at signup), so the
 * forms cannot be used to send someone else a message of the sender's choosing.
 */

export function signupCodeEmail(code: string): RenderedEmail {
  return renderEmail({
    subject: 'Your verification code',
    heading: 'Confirm your email',
    blocks: [
      { kind: 'paragraph', text: `Use this code to finish creating your ${SITE.name} account:` },
      { kind: 'code', label: 'Verification code', text: code },
      {
        kind: 'paragraph',
        text: 'The code expires in 10 minutes and works once. If you did not ask for it, you can ignore this email.',
      },
    ],
  });
}

export function accountExistsEmail(loginUrl: string): RenderedEmail {
  return renderEmail({
    subject: 'You already have an account',
    heading: 'You already have an account',
    blocks: [
      {
        kind: 'paragraph',
        text: `Someone asked to create a ${SITE.name} account with this email address, which already has one, so no new account was made.`,
      },
      {
        kind: 'paragraph',
        text: 'If it was you, log in instead. If you have forgotten your password, choose "Forgot password?" on the login screen.',
      },
      { kind: 'button', href: loginUrl, label: 'Go to Utility Tools' },
      { kind: 'paragraph', text: 'If it was not you, you can ignore this email; your account is unchanged.' },
    ],
  });
}

export function resetCodeEmail(code: string): RenderedEmail {
  return renderEmail({
    subject: 'Your password reset code',
    heading: 'Reset your password',
    blocks: [
      { kind: 'paragraph', text: `Use this code to set a new password for your ${SITE.name} account:` },
      { kind: 'code', label: 'Verification code', text: code },
      {
        kind: 'paragraph',
        text: 'The code expires in 10 minutes and works once. If you did not ask to reset your password, you can ignore this email; your password stays as it is.',
      },
    ],
  });
}

export function passwordChangedEmail(when: Date): RenderedEmail {
  const at = new Intl.DateTimeFormat('en-IN', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Asia/Kolkata',
  }).format(when);
  return renderEmail({
    subject: 'Your password was changed',
    heading: 'Your password was changed',
    blocks: [
      {
        kind: 'paragraph',
        text: `The password of your ${SITE.name} account was reset on ${at} (India time). You have been signed out everywhere; log in again with the new password.`,
      },
      {
        kind: 'paragraph',
        text: `If you did not do this, reset your password again at once and write to us at ${SITE.supportEmail}.`,
      },
    ],
  });
}
