import { PASSWORD_MAX_LENGTH } from './constants';

/**
 * The longest value each form field accepts, in characters: the server's schemas refuse anything longer and the
 * forms use the same numbers as `maxLength`, so a person can never type what the server would then refuse.
 */
export const MAX_LENGTH = {
  /** RFC 5321's limit for an address in a mail path. */
  email: 254,
  /** The signup name, counted after trimming. */
  signupName: 100,
  /** The phone number as typed, without the dial code (spaces and hyphens allowed). */
  phoneNumber: 20,
  /** Dial code plus number, as the signup request carries it. */
  phoneWithDialCode: 40,
  /** Bounds the work of hashing; the password rules themselves allow at most 128 characters. */
  passwordInput: 4 * PASSWORD_MAX_LENGTH,
  /** A typed verification code, before trimming (the codes themselves are 4 or 6 digits). */
  codeInput: 16,
  /** Any other text field of the account forms. */
  authText: 1000,

  contactName: 120,
  contactOrganisation: 160,
  contactDescription: 5000,
  /** The contact form's hidden honeypot field. */
  contactHoneypot: 500,

  billingAddress: 300,
  billingState: 80,
  billingCountry: 80,
  /** A GSTIN is 15 characters; people may type spaces between its parts. */
  gstin: 20,
  /** A PAN is 10 characters; people may type spaces in it. */
  pan: 14,

  toolName: 200,
  razorpayId: 100,
  razorpaySignature: 200,
} as const;
