/** The buyer's account settings, shared by the server and the /account page. */
import { AUTH_MESSAGES, type FieldIssue, phoneProblem, validateNewPassword } from './auth';
import { MAX_LENGTH } from './limits';

/** Optional mail a buyer can turn off; transactional mail is always sent. */
export const EMAIL_TOPICS = ['releases', 'trials', 'checkoutReminders', 'renewalReminders'] as const;
export type EmailTopic = (typeof EMAIL_TOPICS)[number];
export type EmailPreferences = Record<EmailTopic, boolean>;

export const EMAIL_TOPIC_LABELS: Record<EmailTopic, string> = {
  releases: 'New versions of tools I own',
  trials: 'Reminders about my free trials',
  checkoutReminders: 'Checkout reminders when I leave a purchase unfinished',
  renewalReminders: 'Reminders before the updates of a tool I own end',
};

export const ACCOUNT_MESSAGES = {
  profileSaved: 'Your profile was saved.',
  currentPasswordRequired: 'Enter your current password',
  currentPasswordWrong: 'Your current password is not right.',
  passwordChanged: 'Your password was changed. Every other browser was signed out.',
  tooManyPasswordTries: 'Too many wrong passwords. Please try again in 15 minutes.',
  emailSame: 'This is already your email address.',
  emailCodeSent: (email: string) => `If ${email} can receive mail, a 6-digit code is on its way to it.`,
  emailChanged: (email: string) => `Your email is now ${email}.`,
  sessionEnded: 'That browser was signed out.',
  othersEnded: (count: number) =>
    count === 0
      ? 'No other browser was signed in.'
      : `${count} other ${count === 1 ? 'browser was' : 'browsers were'} signed out.`,
  sessionNotFound: 'That session has already ended.',
  passkeyNameRequired: 'Give the passkey a name',
  passkeyNameTooLong: `A passkey's name is at most 60 characters`,
  passkeyAdded: 'The passkey was added.',
  passkeyRenamed: 'The passkey was renamed.',
  passkeyRemoved: 'The passkey was removed.',
  passkeyFailed: 'The passkey could not be checked. Please try again.',
  passkeySignInFailed: 'That passkey could not sign you in.',
  passkeyNotFound: 'That passkey has already been removed.',
  preferencesSaved: 'Your email preferences were saved.',
  reauthRequired: 'Confirm it’s you: enter your password or use a passkey, then try again.',
  reauthPasswordWrong: 'That password is not right.',
  reauthPasskeyOther: 'That passkey belongs to another account.',
  reauthDone: 'Thank you. For the next 10 minutes this browser can make changes without asking again.',
} as const;

/** How long a second sign-in (password or passkey) lets this session make risky changes ("sudo mode"). */
export const REAUTH_WINDOW_MINUTES = 10;

export const PASSKEY_NAME_MAX_LENGTH = 60;

/** A browser's sign-in, as the account page lists it: `id` is a public handle, never the session's secret. */
export type AccountSession = {
  id: string;
  browser: string;
  os: string;
  country: string | null;
  signedInAt: string;
  lastUsedAt: string;
  current: boolean;
};

export type AccountPasskey = {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** Synced between devices (iCloud Keychain, Google Password Manager) rather than kept on one. */
  synced: boolean;
};

export type ProfileDetails = { name: string; dialCode: string; phone: string };
export type ProfileField = keyof ProfileDetails;

/** The signup rules for the name and phone (docs/product.md §5), for the profile form and its API. */
export function validateProfile(details: ProfileDetails): FieldIssue<ProfileField> | null {
  if (!details.name.trim()) return { field: 'name', message: AUTH_MESSAGES.nameRequired };
  if (details.name.trim().length > MAX_LENGTH.signupName)
    return { field: 'name', message: AUTH_MESSAGES.nameTooLong };
  const phone = phoneProblem(details.dialCode, details.phone);
  return phone ? { field: 'phone', message: phone } : null;
}

export type PasswordChange = { currentPassword: string; password: string; confirmPassword: string };
export type PasswordChangeField = keyof PasswordChange;

/** The reset rules (docs/product.md §5) for the new password, after the current one is given. */
export function validatePasswordChange(input: PasswordChange): FieldIssue<PasswordChangeField> | null {
  if (!input.currentPassword)
    return { field: 'currentPassword', message: ACCOUNT_MESSAGES.currentPasswordRequired };
  return validateNewPassword(input.password, input.confirmPassword);
}

export function passkeyNameProblem(name: string): string | null {
  if (!name.trim()) return ACCOUNT_MESSAGES.passkeyNameRequired;
  return name.trim().length > PASSKEY_NAME_MAX_LENGTH ? ACCOUNT_MESSAGES.passkeyNameTooLong : null;
}
