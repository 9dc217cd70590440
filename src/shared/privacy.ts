/**
 * The data rights the Privacy Policy promises (DPDP Act 2023 ss. 6, 11–13), shared by the server's export and
 * erasure, the /account page and the policy's text.
 */
import type { EmailTopic } from './account';

/**
 * The Privacy Policy's version: recorded with every consent given, so a later change to the policy shows which text
 * each buyer agreed to. Change it whenever the policy's substance changes.
 */
export const PRIVACY_POLICY_VERSION = '2026-11-28';

export const POLICY_CONSENT = 'privacy-policy';
export const emailConsentKind = (topic: EmailTopic) => `email:${topic}` as const;

/** How long tax invoices and credit notes are kept after the end of their financial year (CGST Act s. 36). */
export const TAX_RECORD_RETENTION_MONTHS = 72;
/** The Grievance Officer's answer, at the latest (DPDP Rules 2025). */
export const GRIEVANCE_RESPONSE_DAYS = 30;

/** Those the shop shares personal data with, and why: the export names them (DPDP Act s. 11(1)(b)). */
export const DATA_PROCESSORS = [
  {
    name: 'Razorpay Software Private Limited',
    purpose: 'Takes payments and refunds',
    data: 'Name, email address, phone number, the amount and the payment method you choose in its checkout',
  },
  {
    name: 'The email provider that delivers our mail',
    purpose: 'Delivers sign-in codes, purchase, invoice and account emails',
    data: 'Email address and the email’s contents',
  },
  {
    name: 'The hosting provider of this website and its database',
    purpose: 'Stores and serves everything the shop keeps',
    data: 'Everything in this export, stored in India or with equivalent protection',
  },
] as const;

/** What the /account page's "Delete account" sends: the password, and the account's email typed again. */
export type DeleteAccountRequest = { password: string; email: string };

export const DATA_RIGHTS_MESSAGES = {
  wrongPassword: 'The password is not correct.',
  wrongEmail: 'Type the email address of this account exactly as it is shown.',
  operatorAccount:
    'This account has the operator role; revoke the role from the command line before deleting the account.',
  alreadyErased: 'This account has already been deleted.',
  erased: 'Your account is deleted. A confirmation has been sent to your email address.',
} as const;

/** The form's own check before sending: both fields filled. The server checks that they match the account. */
export function validateDeleteAccount(
  values: DeleteAccountRequest,
): Partial<Record<keyof DeleteAccountRequest, string>> {
  const errors: Partial<Record<keyof DeleteAccountRequest, string>> = {};
  if (!values.password) errors.password = 'Enter your password.';
  if (!values.email.trim()) errors.email = 'Type your email address.';
  return errors;
}
