import { describe, expect, it } from 'vitest';
import {
  AUTH_MESSAGES,
  initiateSignupSchema,
  type SignupDetails,
  signupDetailsIssues,
  validateNewPassword,
  validateSignupCode,
  validateSignupDetails,
} from './auth';
import { COMMON_PASSWORDS, isCommonPassword } from './common-passwords';
import { COUNTRY_CODES, DEFAULT_COUNTRY, searchCountryCodes, splitPhone } from './country-codes';

const valid: SignupDetails = {
  name: 'Asha Verma',
  email: 'asha@example.com',
  dialCode: '+91',
  phone: '9876543210',
  password: 'Correct horse 42',
  confirmPassword: 'Correct horse 42',
};

describe('signup step 1, every field at once', () => {
  it('names each field’s first broken rule in one go, and nothing for valid details', () => {
    expect(
      signupDetailsIssues({
        name: '',
        email: 'asha@',
        dialCode: '+91',
        phone: '98765',
        password: 'abc',
        confirmPassword: 'abd',
      }),
    ).toEqual({
      name: AUTH_MESSAGES.nameRequired,
      email: AUTH_MESSAGES.emailInvalid,
      phone: AUTH_MESSAGES.phoneIndia,
      password: AUTH_MESSAGES.passwordTooShort,
      confirmPassword: AUTH_MESSAGES.passwordsDoNotMatch,
    });
    expect(signupDetailsIssues(valid)).toEqual({});
  });
});

describe('signup step 1 (docs/product.md §5), checked in order', () => {
  it('reports the first broken rule, in the spec order', () => {
    const empty = { name: '', email: '', dialCode: '+91', phone: '', password: '', confirmPassword: 'x' };
    const steps: Array<[Partial<SignupDetails>, string]> = [
      [{}, AUTH_MESSAGES.nameRequired],
      [{ name: 'Asha' }, AUTH_MESSAGES.emailInvalid],
      [{ name: 'Asha', email: 'asha@example' }, AUTH_MESSAGES.emailInvalid],
      [{ name: 'Asha', email: 'asha@example.com' }, AUTH_MESSAGES.phoneRequired],
      [{ name: 'Asha', email: 'asha@example.com', phone: '98765' }, AUTH_MESSAGES.phoneIndia],
      [
        { name: 'Asha', email: 'asha@example.com', phone: '98765', dialCode: '+44' },
        AUTH_MESSAGES.passwordRequired,
      ],
      [
        { name: 'Asha', email: 'asha@example.com', phone: '9876', dialCode: '+44' },
        AUTH_MESSAGES.phoneInvalid,
      ],
      [{ name: 'Asha', email: 'asha@example.com', phone: '9876543210' }, AUTH_MESSAGES.passwordRequired],
      [
        { name: 'Asha', email: 'asha@example.com', phone: '9876543210', password: 'abc' },
        AUTH_MESSAGES.passwordTooShort,
      ],
      [
        { name: 'Asha', email: 'asha@example.com', phone: '9876543210', password: 'abcdef1' },
        AUTH_MESSAGES.passwordsDoNotMatch,
      ],
    ];
    for (const [change, message] of steps) {
      expect(validateSignupDetails({ ...empty, ...change })?.message, JSON.stringify(change)).toBe(message);
    }
    expect(validateSignupDetails(valid)).toBeNull();
  });

  it('counts Indian numbers as exactly 10 digits and others as 5 to 15, allowing spaces and hyphens', () => {
    expect(validateSignupDetails({ ...valid, phone: '98765 43210' })).toBeNull();
    expect(validateSignupDetails({ ...valid, phone: '987654321' })?.message).toBe(AUTH_MESSAGES.phoneIndia);
    expect(validateSignupDetails({ ...valid, phone: '98765432100' })?.message).toBe(AUTH_MESSAGES.phoneIndia);
    expect(validateSignupDetails({ ...valid, phone: '98765-4321O' })?.message).toBe(AUTH_MESSAGES.phoneIndia);
    expect(validateSignupDetails({ ...valid, dialCode: '+1', phone: '12345' })).toBeNull();
    expect(validateSignupDetails({ ...valid, dialCode: '+1', phone: '123456789012345' })).toBeNull();
    expect(validateSignupDetails({ ...valid, dialCode: '+1', phone: '1234567890123456' })?.message).toBe(
      AUTH_MESSAGES.phoneInvalid,
    );
    expect(validateSignupDetails({ ...valid, dialCode: '+999', phone: '12345678' })?.message).toBe(
      AUTH_MESSAGES.phoneInvalid,
    );
  });

  it('refuses over-long passwords and common passwords after the spec rules', () => {
    const long = 'Ω'.repeat(129);
    expect(validateSignupDetails({ ...valid, password: long, confirmPassword: long })?.message).toBe(
      AUTH_MESSAGES.passwordTooLong,
    );
    const emoji = '🔐'.repeat(128);
    expect(validateSignupDetails({ ...valid, password: emoji, confirmPassword: emoji })).toBeNull();
    expect(
      validateSignupDetails({ ...valid, password: 'Sunshine', confirmPassword: 'Sunshine' })?.message,
    ).toBe(AUTH_MESSAGES.passwordTooCommon);
    expect(validateSignupDetails({ ...valid, password: 'Sunshine', confirmPassword: 'other' })?.message).toBe(
      AUTH_MESSAGES.passwordsDoNotMatch,
    );
  });
});

describe('other docs/product.md §5 rules', () => {
  it('accepts exactly 4 digits as a signup code', () => {
    expect(validateSignupCode('1234')).toBeNull();
    for (const code of ['', '123', '12345', '12a4', ' 1234']) {
      expect(validateSignupCode(code)).toBe(AUTH_MESSAGES.codeInvalid);
    }
  });

  it('checks the reset passwords match first, then the length', () => {
    expect(validateNewPassword('abc', 'abd')?.message).toBe(AUTH_MESSAGES.resetPasswordsDoNotMatch);
    expect(validateNewPassword('abc', 'abc')?.message).toBe(AUTH_MESSAGES.resetPasswordTooShort);
    expect(validateNewPassword('password', 'password')?.message).toBe(AUTH_MESSAGES.passwordTooCommon);
    expect(validateNewPassword('tranquil-otter-5', 'tranquil-otter-5')).toBeNull();
  });
});

describe('initiate-signup request schema', () => {
  it('splits the dial code off the phone and applies the same rules as the form', () => {
    const base = {
      name: 'Asha',
      email: 'a@b.co',
      phone: '+919876543210',
      password: 'Correct horse 42',
      otp: '1234',
    };
    expect(initiateSignupSchema.safeParse(base).success).toBe(true);
    expect(initiateSignupSchema.safeParse({ ...base, sentOtp: '1234' }).success).toBe(true);
    const india = initiateSignupSchema.safeParse({ ...base, phone: '+9198765' });
    expect(india.error?.issues[0]?.message).toBe(AUTH_MESSAGES.phoneIndia);
    const canada = initiateSignupSchema.safeParse({ ...base, phone: '+1 416 555 0199' });
    expect(canada.data?.phone).toBe('+14165550199');
    expect(initiateSignupSchema.safeParse({ ...base, isAdmin: true }).success).toBe(false);
  });
});

describe('country codes (docs/product.md §3)', () => {
  it('has 30 entries, India +91 first and default, +1 for both the United States and Canada', () => {
    expect(COUNTRY_CODES).toHaveLength(30);
    expect(COUNTRY_CODES[0]).toMatchObject({ code: '+91', country: 'India' });
    expect(DEFAULT_COUNTRY.code).toBe('+91');
    expect(COUNTRY_CODES.filter((entry) => entry.code === '+1').map((entry) => entry.country)).toEqual([
      'United States',
      'Canada',
    ]);
    expect(new Set(COUNTRY_CODES.map((entry) => entry.iso)).size).toBe(30);
    for (const entry of COUNTRY_CODES) expect(entry.flag).toMatch(/^\p{Regional_Indicator}{2}$/u);
  });

  it('has no dial code that is a prefix of another, so a stored phone splits one way only', () => {
    const codes = [...new Set(COUNTRY_CODES.map((entry) => entry.code))];
    for (const a of codes)
      for (const b of codes) if (a !== b) expect(b.startsWith(a), `${a} / ${b}`).toBe(false);
    expect(splitPhone('+9779812345678')).toEqual({ dialCode: '+977', number: '9812345678' });
    expect(splitPhone('+12025550123')).toEqual({ dialCode: '+1', number: '2025550123' });
    expect(splitPhone('9876543210')).toEqual({ dialCode: '', number: '9876543210' });
  });

  it('searches by country name and by dial code', () => {
    expect(searchCountryCodes('can').map((entry) => entry.country)).toEqual(['Canada']);
    expect(searchCountryCodes('+1').map((entry) => entry.country)).toEqual(['United States', 'Canada']);
    expect(searchCountryCodes('97').map((entry) => entry.code)).toEqual(['+971', '+974', '+973', '+977']);
    expect(searchCountryCodes('')).toHaveLength(30);
  });
});

describe('common passwords', () => {
  it('lists about a thousand passwords of at least 6 characters, matched without regard to case', () => {
    expect(COMMON_PASSWORDS.size).toBe(1000);
    for (const password of COMMON_PASSWORDS) expect(password.length).toBeGreaterThanOrEqual(6);
    expect(isCommonPassword('QWERTY123')).toBe(true);
    expect(isCommonPassword('tranquil-otter-5')).toBe(false);
  });
});
