import { z } from 'zod';
import { isCommonPassword } from './common-passwords';
import {
  DEFAULT_DIAL_CODE,
  INDIA_PHONE_DIGITS,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PHONE_MAX_DIGITS,
  PHONE_MIN_DIGITS,
  RESET_CODE_LENGTH,
  SIGNUP_CODE_LENGTH,
} from './constants';
import { EMAIL_PATTERN } from './contact';
import { COUNTRY_CODES, splitPhone } from './country-codes';
import { withTextPolicy } from './input-policy';
import { MAX_LENGTH } from './limits';

/**
 * The accounts contract (docs/product.md §4, §5, §7, §8, §10, §11): every message the dialogs and the server show,
 * the §5 rules as pure functions the dialogs call, and the request schemas the server parses with the same rules.
 */

export const AUTH_MESSAGES = {
  // docs/product.md §5, signup step 1, in the product document's order.
  nameRequired: 'Name is required',
  emailInvalid: 'Valid email is required',
  phoneRequired: 'Phone number is required',
  phoneIndia: 'Valid 10-digit phone number is required for India',
  phoneInvalid: 'Please enter a valid phone number',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 6 characters',
  passwordsDoNotMatch: 'Passwords do not match',
  // docs/product.md §5, signup code and reset password.
  codeInvalid: 'Please enter a valid verification code',
  resetPasswordsDoNotMatch: "Passwords don't match",
  resetPasswordTooShort: 'Password must be at least 6 characters long',
  // docs/product.md §11: the rules the product document leaves to us.
  nameTooLong: `Name must be at most ${MAX_LENGTH.signupName} characters`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  passwordTooCommon:
    'This password is one of the most commonly used passwords. Please choose a less common one.',
  emailRequired: 'Email is required',
  // docs/product.md §8.
  loginFailed: 'Invalid email or password.',
  loginSuccess: 'Login successful.',
  logoutSuccess: 'You have been signed out.',
  signupCodeSent: 'Verification code sent.',
  signupCodeSentTo: (email: string) => `We've emailed a verification code to ${email}.`,
  signupSendFailed: 'Failed to send verification code',
  signupResendFailed: 'Failed to resend verification code',
  signupFailed: 'Registration failed',
  signupSuccess: 'Registration successful! You are now logged in.',
  accountExists: 'An account with this email already exists. Please log in instead.',
  forgotSent: 'If your email is registered, you will receive a verification code shortly.',
  forgotFailed: 'Failed to send verification code.',
  verifySuccess: 'OTP verified successfully. Please set your new password.',
  verifyFailed: 'Invalid or expired verification code.',
  resetSuccess: 'Password reset successful! You can now log in with your new password.',
  resetFailed: 'Failed to reset password.',
  codeWait: (seconds: number) =>
    `Please wait ${seconds} second${seconds === 1 ? '' : 's'} before requesting another code.`,
  codeQuota: 'Too many verification codes were requested for this email. Please try again later.',
  tooManySends: 'Too many verification codes were requested from your network. Please try again later.',
  tooManyCodeUses: 'Too many attempts. Please wait a minute and try again.',
  tooManyLogins: 'Too many login attempts. Please wait a moment and try again.',
  tooManyFailures: 'Too many failed login attempts for this account. Please try again in 15 minutes.',
} as const;

/** GET /api/auth/check/ and login responses carry this user (docs/product.md §3). */
export type AuthUser = { name: string; email: string; phone: string };
export type AuthCheckResponse = { loggedin: boolean; user: AuthUser | null };
export type LoginResponse = { user: AuthUser; message: string };
export type SignupResponse = { user: AuthUser; message: string };
export type MessageResponse = { message: string };

/** Length in characters as people count them (code points), so "😀" is one character, not two. */
export const passwordLength = (password: string) => [...password].length;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export const isValidEmail = (email: string) =>
  email.trim().length <= MAX_LENGTH.email && EMAIL_PATTERN.test(email.trim());

/** Digits the person typed, with the spaces and hyphens people use to group them removed. */
export const phoneDigits = (phone: string) => phone.replace(/[\s-]/g, '');

/** The rules a new password meets beyond the product document's minimum: at most 128 characters, not a common password. */
export function newPasswordProblem(password: string): string | null {
  if (passwordLength(password) > PASSWORD_MAX_LENGTH) return AUTH_MESSAGES.passwordTooLong;
  if (isCommonPassword(password)) return AUTH_MESSAGES.passwordTooCommon;
  return null;
}

/** The signup rules for a phone number (docs/product.md §5), for the signup form and the account's profile. */
export function phoneProblem(dialCode: string, phone: string): string | null {
  const digits = phoneDigits(phone);
  if (!digits) return AUTH_MESSAGES.phoneRequired;
  if (dialCode === DEFAULT_DIAL_CODE) {
    return new RegExp(`^\\d{${INDIA_PHONE_DIGITS}}$`).test(digits) ? null : AUTH_MESSAGES.phoneIndia;
  }
  const known = COUNTRY_CODES.some((entry) => entry.code === dialCode);
  return known && new RegExp(`^\\d{${PHONE_MIN_DIGITS},${PHONE_MAX_DIGITS}}$`).test(digits)
    ? null
    : AUTH_MESSAGES.phoneInvalid;
}

export type SignupDetails = {
  name: string;
  email: string;
  /** Dial code with its plus sign, from the picker. */
  dialCode: string;
  /** The number without the dial code, as typed. */
  phone: string;
  password: string;
  confirmPassword: string;
};
export type SignupField = keyof SignupDetails;
export type FieldIssue<F extends string> = { field: F; message: string };

/**
 * Signup step 1 (docs/product.md §5), checked in the document's order; the first rule broken is the one reported.
 * The rules the document leaves to us (name and password length caps, common passwords) come after its seven.
 */
export function validateSignupDetails(details: SignupDetails): FieldIssue<SignupField> | null {
  const m = AUTH_MESSAGES;
  if (!details.name.trim()) return { field: 'name', message: m.nameRequired };
  if (!isValidEmail(details.email)) return { field: 'email', message: m.emailInvalid };
  const phone = phoneProblem(details.dialCode, details.phone);
  if (phone) return { field: 'phone', message: phone };
  if (!details.password) return { field: 'password', message: m.passwordRequired };
  if (passwordLength(details.password) < PASSWORD_MIN_LENGTH)
    return { field: 'password', message: m.passwordTooShort };
  if (details.password !== details.confirmPassword)
    return { field: 'confirmPassword', message: m.passwordsDoNotMatch };
  if (details.name.trim().length > MAX_LENGTH.signupName) return { field: 'name', message: m.nameTooLong };
  const problem = newPasswordProblem(details.password);
  if (problem) return { field: 'password', message: problem };
  return null;
}

/**
 * Every field's problem at once, for the signup form (one submit shows them all): each field's first broken rule of
 * validateSignupDetails. The confirmation is compared only once a password is typed.
 */
export function signupDetailsIssues(details: SignupDetails): Partial<Record<SignupField, string>> {
  const m = AUTH_MESSAGES;
  const issues: Partial<Record<SignupField, string>> = {};
  const name = details.name.trim();
  if (!name) issues.name = m.nameRequired;
  else if (name.length > MAX_LENGTH.signupName) issues.name = m.nameTooLong;
  if (!isValidEmail(details.email)) issues.email = m.emailInvalid;
  const phone = phoneProblem(details.dialCode, details.phone);
  if (phone) issues.phone = phone;
  const password = !details.password
    ? m.passwordRequired
    : passwordLength(details.password) < PASSWORD_MIN_LENGTH
      ? m.passwordTooShort
      : newPasswordProblem(details.password);
  if (password) issues.password = password;
  if (details.password && details.password !== details.confirmPassword)
    issues.confirmPassword = m.passwordsDoNotMatch;
  return issues;
}

/** The password rule, shown under the signup's Password field before anything is typed. */
export const PASSWORD_RULE = `At least ${PASSWORD_MIN_LENGTH} characters, and not a commonly used password.`;

/** docs/product.md §5 signup code: digits only, exactly four. */
export function validateSignupCode(code: string): string | null {
  return new RegExp(`^\\d{${SIGNUP_CODE_LENGTH}}$`).test(code) ? null : AUTH_MESSAGES.codeInvalid;
}

export type ResetField = 'password' | 'confirmPassword';

/** docs/product.md §5 reset password: the two must match, then at least 6 characters; then our own caps. */
export function validateNewPassword(
  password: string,
  confirmPassword: string,
): FieldIssue<ResetField> | null {
  if (password !== confirmPassword)
    return { field: 'confirmPassword', message: AUTH_MESSAGES.resetPasswordsDoNotMatch };
  if (passwordLength(password) < PASSWORD_MIN_LENGTH)
    return { field: 'password', message: AUTH_MESSAGES.resetPasswordTooShort };
  const problem = newPasswordProblem(password);
  return problem ? { field: 'password', message: problem } : null;
}

// ── Request schemas (the server parses with these; unknown fields are refused) ──────────────────────────────

/**
 * A single-line string field under the input policy (no control characters, no lone surrogates, at most `max`
 * characters and bytes); anything else (missing, a number, an array) gets the field's own message.
 */
const text = (message: string, max: number = MAX_LENGTH.authText) =>
  withTextPolicy(z.string({ error: message }).max(max, message), { maxBytes: max });

const emailField = text(AUTH_MESSAGES.emailInvalid, MAX_LENGTH.email).refine(
  isValidEmail,
  AUTH_MESSAGES.emailInvalid,
);

/** Passwords are taken exactly as typed (no trimming); the cap is applied by the rules, this only bounds the work. */
const passwordField = text(AUTH_MESSAGES.passwordRequired, MAX_LENGTH.passwordInput);

const resetCodeField = text(AUTH_MESSAGES.verifyFailed, MAX_LENGTH.codeInput)
  .transform((code) => code.trim())
  .refine((code) => new RegExp(`^\\d{${RESET_CODE_LENGTH}}$`).test(code), AUTH_MESSAGES.verifyFailed);

/** POST /api/auth/login/ (form data). */
export const loginSchema = z.strictObject({
  email: emailField,
  password: passwordField.refine((password) => password.length > 0, AUTH_MESSAGES.passwordRequired),
});

/** POST /api/auth/send-otp/ (form data). */
export const sendOtpSchema = z.strictObject({
  name: text(AUTH_MESSAGES.nameRequired)
    .refine((name) => name.trim().length > 0, AUTH_MESSAGES.nameRequired)
    .refine((name) => name.trim().length <= MAX_LENGTH.signupName, AUTH_MESSAGES.nameTooLong),
  email: emailField,
});

/**
 * POST /api/auth/initiate-signup/ (form data). `phone` is the dial code plus the number ("+919876543210").
 * `sentOtp` is accepted for the product document's browser and ignored: only the server's own record of the code counts.
 */
export const initiateSignupSchema = z
  .strictObject({
    name: text(AUTH_MESSAGES.nameRequired),
    email: text(AUTH_MESSAGES.emailInvalid),
    phone: text(AUTH_MESSAGES.phoneRequired, MAX_LENGTH.phoneWithDialCode),
    password: passwordField,
    otp: text(AUTH_MESSAGES.codeInvalid, MAX_LENGTH.codeInput),
    sentOtp: withTextPolicy(z.string().max(MAX_LENGTH.codeInput), {
      maxBytes: MAX_LENGTH.codeInput,
    }).optional(),
  })
  .superRefine((input, ctx) => {
    const { dialCode, number } = splitPhone(phoneDigits(input.phone));
    const issue = validateSignupDetails({
      name: input.name,
      email: input.email,
      dialCode,
      phone: number,
      password: input.password,
      confirmPassword: input.password,
    });
    if (issue) ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
    const codeProblem = validateSignupCode(input.otp.trim());
    if (codeProblem) ctx.addIssue({ code: 'custom', path: ['otp'], message: codeProblem });
  })
  .transform((input) => ({
    name: input.name.trim(),
    email: input.email.trim(),
    phone: phoneDigits(input.phone),
    password: input.password,
    otp: input.otp.trim(),
  }));

/** POST /api/auth/forgot-password/ */
export const forgotPasswordSchema = z.strictObject({ email: emailField });

/** POST /api/auth/verify-otp/ */
export const verifyOtpSchema = z.strictObject({ email: emailField, otp: resetCodeField });

/** POST /api/auth/reset-password/ */
export const resetPasswordSchema = z.strictObject({
  email: emailField,
  otp: resetCodeField,
  password: passwordField.superRefine((password, ctx) => {
    const issue = validateNewPassword(password, password);
    if (issue) ctx.addIssue({ code: 'custom', message: issue.message });
  }),
});

export type LoginRequest = z.input<typeof loginSchema>;
export type SendOtpRequest = z.input<typeof sendOtpSchema>;
export type InitiateSignupRequest = z.input<typeof initiateSignupSchema>;
export type ForgotPasswordRequest = z.input<typeof forgotPasswordSchema>;
export type VerifyOtpRequest = z.input<typeof verifyOtpSchema>;
export type ResetPasswordRequest = z.input<typeof resetPasswordSchema>;
