import { z } from 'zod';
import {
  ACCOUNT_MESSAGES,
  PASSKEY_NAME_MAX_LENGTH,
  passkeyNameProblem,
  validatePasswordChange,
  validateProfile,
} from './account';
import { AUTH_MESSAGES, isValidEmail, phoneDigits } from './auth';
import { RESET_CODE_LENGTH } from './constants';
import { splitPhone } from './country-codes';
import { singleLineText } from './input-policy';
import { MAX_LENGTH } from './limits';

/**
 * The zod schemas of the account API's bodies, used by the server. Kept apart from account.ts so the account page,
 * which needs only the rules and messages, does not download zod.
 */

/** PATCH /api/account/profile: `phone` is the dial code plus the number ("+919876543210"), as signup sends it. */
export const profileSchema = z
  .strictObject({
    name: singleLineText(MAX_LENGTH.authText, AUTH_MESSAGES.nameRequired),
    phone: singleLineText(MAX_LENGTH.phoneWithDialCode, AUTH_MESSAGES.phoneRequired),
  })
  .superRefine((input, check) => {
    const { dialCode, number } = splitPhone(phoneDigits(input.phone));
    const issue = validateProfile({ name: input.name, dialCode, phone: number });
    if (issue) check.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
  })
  .transform((input) => ({ name: input.name.trim(), phone: phoneDigits(input.phone) }));

/** POST /api/account/password */
export const passwordChangeSchema = z
  .strictObject({
    currentPassword: singleLineText(MAX_LENGTH.passwordInput, ACCOUNT_MESSAGES.currentPasswordRequired),
    password: singleLineText(MAX_LENGTH.passwordInput, AUTH_MESSAGES.passwordRequired),
    confirmPassword: singleLineText(MAX_LENGTH.passwordInput, AUTH_MESSAGES.passwordRequired),
  })
  .superRefine((input, check) => {
    const issue = validatePasswordChange(input);
    if (issue) check.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
  });

const emailField = singleLineText(MAX_LENGTH.email, AUTH_MESSAGES.emailInvalid).refine(
  isValidEmail,
  AUTH_MESSAGES.emailInvalid,
);

/** POST /api/account/email: the new address, which gets a code. */
export const emailChangeSchema = z.strictObject({ email: emailField });

/** POST /api/account/email/confirm */
export const emailConfirmSchema = z.strictObject({
  email: emailField,
  code: singleLineText(MAX_LENGTH.codeInput, AUTH_MESSAGES.verifyFailed)
    .transform((code) => code.trim())
    .refine((code) => new RegExp(`^\\d{${RESET_CODE_LENGTH}}$`).test(code), AUTH_MESSAGES.verifyFailed),
});

/** A passkey's name, when added or renamed. */
export const passkeyNameSchema = z.strictObject({
  name: singleLineText(PASSKEY_NAME_MAX_LENGTH * 4, ACCOUNT_MESSAGES.passkeyNameRequired)
    .superRefine((name, check) => {
      const problem = passkeyNameProblem(name);
      if (problem) check.addIssue({ code: 'custom', message: problem });
    })
    .transform((name) => name.trim()),
});

/**
 * What @simplewebauthn/browser's startRegistration / startAuthentication return: the server checks the shape here
 * and everything inside (signatures, challenge, origin) with the library.
 */
const credentialJson = (response: z.ZodType) =>
  z.strictObject({
    id: z.string().max(1400),
    rawId: z.string().max(1400),
    type: z.literal('public-key'),
    response,
    clientExtensionResults: z.looseObject({}),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  });
const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[\w-]*$/);

/** POST /api/account/passkeys: a new passkey's name and the browser's registration response. */
export const passkeyRegistrationSchema = z.strictObject({
  name: passkeyNameSchema.shape.name,
  credential: credentialJson(
    z.looseObject({
      clientDataJSON: base64url(4000),
      attestationObject: base64url(16000),
      transports: z.array(z.string().max(40)).max(10).optional(),
    }),
  ),
});

/** POST /api/auth/passkey/login: the browser's assertion. */
export const passkeyLoginSchema = z.strictObject({
  credential: credentialJson(
    z.looseObject({
      clientDataJSON: base64url(4000),
      authenticatorData: base64url(4000),
      signature: base64url(2000),
      userHandle: base64url(200).optional(),
    }),
  ),
});

/** POST /api/account/reauth: the password, or a passkey assertion made with /api/auth/passkey/options' challenge. */
export const reauthSchema = z
  .strictObject({
    password: singleLineText(MAX_LENGTH.passwordInput, AUTH_MESSAGES.passwordRequired).optional(),
    credential: passkeyLoginSchema.shape.credential.optional(),
  })
  .superRefine((input, check) => {
    if (input.password === undefined && input.credential === undefined)
      check.addIssue({ code: 'custom', path: ['password'], message: AUTH_MESSAGES.passwordRequired });
  });
