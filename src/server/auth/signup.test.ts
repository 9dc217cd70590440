import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PASSWORD,
  form,
  latestCode,
  mailsTo,
  signUp,
  uniqueEmail,
  uniqueIp,
  userCount,
} from '../../../test/support/auth-helpers';
import { testAppForFile } from '../../../test/support/file-apps';
import { AUTH_MESSAGES } from '../../shared/auth';
import { users, verificationCodes } from '../db/schema/accounts';
import { SEND_GAP_MS } from './codes';

const t = testAppForFile();

const details = (email: string, otp: string, extra: Record<string, string> = {}) =>
  form({ name: 'Asha Verma', email, phone: '+919876543210', password: DEFAULT_PASSWORD, otp, ...extra });

/** A code of the same length that is certainly not `code`. */
const otherCode = (code: string) => code.replace(/^./, (digit) => String((Number(digit) + 1) % 10));

/** A new visitor (its own address and IP) who asked for a sign-up code: the client, the address and the code. */
async function signupCodeSent() {
  const client = await t.client({ ip: uniqueIp() });
  const email = uniqueEmail();
  await client.post('/api/auth/send-otp/', form({ name: 'Asha', email }));
  return { client, email, code: await latestCode(t, email, 'signup-code') };
}

describe('POST /api/auth/send-otp/', () => {
  it('emails a 4-digit code and never puts it in the response', async () => {
    const client = await t.client({ ip: uniqueIp() });
    const email = uniqueEmail();
    const response = await client.post('/api/auth/send-otp/', form({ name: 'Asha', email }));
    expect(response.statusCode).toBe(200);
    const code = await latestCode(t, email, 'signup-code');
    expect(code).toMatch(/^\d{4}$/);
    expect(response.body).not.toContain(code);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.signupCodeSent });
    const [mail] = await mailsTo(t, email, 'signup-code');
    expect(mail?.subject).toBe('Your verification code');
    expect(mail?.html).toContain(code);
  });

  it('stores only a keyed hash of the code, bound to email and purpose', async () => {
    const { email, code } = await signupCodeSent();
    const [row] = await t.ctx.db.select().from(verificationCodes).where(eq(verificationCodes.email, email));
    expect(row?.purpose).toBe('signup');
    expect(row?.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.codeHash).not.toContain(code);
  });

  it('answers a taken email exactly like a free one, and mails the owner a notice instead of a code', async () => {
    const owner = await t.client({ ip: uniqueIp() });
    const email = uniqueEmail('owner');
    expect((await signUp(t, owner, { email })).statusCode).toBe(200);

    const stranger = await t.client({ ip: uniqueIp() });
    t.clock.advance(SEND_GAP_MS);
    const taken = await stranger.post(
      '/api/auth/send-otp/',
      form({ name: 'Eve', email: email.toUpperCase() }),
    );
    const free = await stranger.post(
      '/api/auth/send-otp/',
      form({ name: 'Eve', email: uniqueEmail('free') }),
    );
    expect(taken.statusCode).toBe(free.statusCode);
    expect(taken.body).toBe(free.body);

    const notices = await mailsTo(t, email, 'signup-existing-account');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toContain('already has one');
    expect(notices[0]?.text).not.toMatch(/^\s+\d{4}$/m);
    expect(await mailsTo(t, email, 'signup-code')).toHaveLength(1);
  });

  it('accepts multipart form data as well as urlencoded', async () => {
    const client = await t.client({ ip: uniqueIp() });
    const email = uniqueEmail();
    const boundary = '----authtest';
    const body = [
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nAsha Verma\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\n${email}\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const response = await client.post('/api/auth/send-otp/', body, {
      'content-type': `multipart/form-data; boundary=${boundary}`,
    });
    expect(response.statusCode).toBe(200);
    expect(await latestCode(t, email, 'signup-code')).toMatch(/^\d{4}$/);
  });

  it('refuses a missing name or a malformed email with the spec message', async () => {
    const client = await t.client({ ip: uniqueIp() });
    const noName = await client.post('/api/auth/send-otp/', form({ name: '  ', email: uniqueEmail() }));
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toMatchObject({ fieldErrors: { name: AUTH_MESSAGES.nameRequired } });
    const badEmail = await client.post('/api/auth/send-otp/', form({ name: 'Asha', email: 'not-an-email' }));
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json()).toMatchObject({ error: AUTH_MESSAGES.emailInvalid });
  });
});

describe('send limits', () => {
  it('allows one code per 60 s per email: 429 with Retry-After and no mail queued', async () => {
    const client = await t.client({ ip: uniqueIp() });
    const email = uniqueEmail();
    expect((await client.post('/api/auth/send-otp/', form({ name: 'A', email }))).statusCode).toBe(200);
    t.clock.advance(20_000);
    const early = await client.post('/api/auth/send-otp/', form({ name: 'A', email }));
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe('40');
    expect(early.json().error).toBe(AUTH_MESSAGES.codeWait(40));
    expect(await mailsTo(t, email)).toHaveLength(1);
    t.clock.advance(40_000);
    expect((await client.post('/api/auth/send-otp/', form({ name: 'A', email }))).statusCode).toBe(200);
  });

  it('allows 3 codes per email per hour and 10 per day, counting requests for unknown accounts too', async () => {
    const client = await t.client({ ip: uniqueIp() });
    const email = uniqueEmail();
    const send = () => client.post('/api/auth/send-otp/', form({ name: 'A', email }));
    const sendAfterGap = async () => {
      t.clock.advance(SEND_GAP_MS);
      return send();
    };
    const start = t.clock.now().getTime();
    for (let i = 0; i < 3; i++) expect((await sendAfterGap()).statusCode).toBe(200);
    const fourth = await sendAfterGap();
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().error).toBe(AUTH_MESSAGES.codeQuota);
    // The first send (at start + 60 s) leaves the hour at start + 60 s + 1 h; it is now start + 240 s.
    expect(Number(fourth.headers['retry-after'])).toBe(3600 + 60 - 240);
    expect(await mailsTo(t, email)).toHaveLength(3);

    // A forgot-password request for the same (unknown) email counts toward the same hourly quota.
    const reset = await client.post('/api/auth/forgot-password/', { email });
    expect(reset.statusCode).toBe(429);

    let sent = 3;
    while (sent < 10) {
      t.clock.advance(60 * 60 * 1000);
      for (let i = 0; i < 3 && sent < 10; i++) {
        expect((await sendAfterGap()).statusCode).toBe(200);
        sent++;
      }
    }
    t.clock.advance(60 * 60 * 1000);
    const eleventh = await sendAfterGap();
    expect(eleventh.statusCode).toBe(429);
    const elapsed = (t.clock.now().getTime() - start) / 1000;
    expect(Number(eleventh.headers['retry-after'])).toBe(24 * 3600 + 60 - elapsed);
    expect(await mailsTo(t, email)).toHaveLength(10);
  });

  it('allows 20 code requests per hour from one network address', async () => {
    const client = await t.client({ ip: uniqueIp() });
    for (let i = 0; i < 20; i++) {
      const response = await client.post(
        '/api/auth/send-otp/',
        form({ name: 'A', email: uniqueEmail('ip') }),
      );
      expect(response.statusCode).toBe(200);
    }
    const email = uniqueEmail('ip');
    const blocked = await client.post('/api/auth/forgot-password/', { email });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().error).toBe(AUTH_MESSAGES.tooManySends);
    expect(await mailsTo(t, email)).toHaveLength(0);
    const other = await t.client({ ip: uniqueIp() });
    expect((await other.post('/api/auth/send-otp/', form({ name: 'A', email }))).statusCode).toBe(200);
  });
});

describe('POST /api/auth/initiate-signup/', () => {
  it('creates the account with the emailed code, logs the user in and uses the code up', async () => {
    const client = await t.client({ ip: uniqueIp() });
    const email = uniqueEmail();
    const response = await signUp(t, client, { email, name: '  Asha Verma ', phone: '+1 415-555-0100' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: { name: 'Asha Verma', email, phone: '+14155550100' },
      message: AUTH_MESSAGES.signupSuccess,
    });
    const check = await client.get('/api/auth/check/');
    expect(check.json()).toMatchObject({ loggedin: true, user: { email } });
    const [row] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    // At the cost the configuration gives (production's 17; the tests' 12, decision 068).
    expect(row?.passwordHash).toMatch(new RegExp(`^scrypt\\$${t.ctx.config.passwordHashCost}\\$8\\$1\\$`));
    expect(await t.ctx.db.select().from(verificationCodes).where(eq(verificationCodes.email, email))).toEqual(
      [],
    );
  });

  it('ignores a forged sentOtp: only the server record of the code counts', async () => {
    const client = await t.client({ ip: uniqueIp() });
    const email = uniqueEmail();
    await client.post('/api/auth/send-otp/', form({ name: 'Asha', email }));
    const forged = otherCode(await latestCode(t, email, 'signup-code'));
    const response = await client.post(
      '/api/auth/initiate-signup/',
      details(email, forged, { sentOtp: forged }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(AUTH_MESSAGES.verifyFailed);
    expect(await userCount(t, email)).toBe(0);
    expect((await client.get('/api/auth/check/')).json().loggedin).toBe(false);
  });

  it('refuses the right code on the 6th attempt after 5 wrong ones', async () => {
    const { client, email, code } = await signupCodeSent();
    for (let i = 0; i < 5; i++) {
      const wrong = await client.post('/api/auth/initiate-signup/', details(email, otherCode(code)));
      expect(wrong.statusCode).toBe(400);
    }
    const right = await client.post('/api/auth/initiate-signup/', details(email, code));
    expect(right.statusCode).toBe(400);
    expect(await userCount(t, email)).toBe(0);
  });

  it('lets 4 wrong tries pass and still accepts the right code on the 5th', async () => {
    const { client, email, code } = await signupCodeSent();
    for (let i = 0; i < 4; i++)
      await client.post('/api/auth/initiate-signup/', details(email, otherCode(code)));
    expect((await client.post('/api/auth/initiate-signup/', details(email, code))).statusCode).toBe(200);
  });

  it('refuses a code after 10 minutes', async () => {
    const { client, email, code } = await signupCodeSent();
    t.clock.advance(10 * 60 * 1000);
    const response = await client.post('/api/auth/initiate-signup/', details(email, code));
    expect(response.statusCode).toBe(400);
    expect(await userCount(t, email)).toBe(0);
  });

  it('accepts a code just before its 10 minutes are up', async () => {
    const { client, email, code } = await signupCodeSent();
    t.clock.advance(10 * 60 * 1000 - 1000);
    expect((await client.post('/api/auth/initiate-signup/', details(email, code))).statusCode).toBe(200);
  });

  it('replaces the old code when a new one is sent', async () => {
    const { client, email, code: first } = await signupCodeSent();
    t.clock.advance(SEND_GAP_MS);
    await client.post('/api/auth/send-otp/', form({ name: 'Asha', email }));
    const second = await latestCode(t, email, 'signup-code');
    if (first !== second) {
      expect((await client.post('/api/auth/initiate-signup/', details(email, first))).statusCode).toBe(400);
    }
    expect((await client.post('/api/auth/initiate-signup/', details(email, second))).statusCode).toBe(200);
  });

  it('refuses a code that was already used', async () => {
    const { client, email, code } = await signupCodeSent();
    expect((await client.post('/api/auth/initiate-signup/', details(email, code))).statusCode).toBe(200);
    const again = await (await t.client({ ip: uniqueIp() })).post(
      '/api/auth/initiate-signup/',
      details(email, code, { name: 'Someone Else' }),
    );
    expect(again.statusCode).toBe(400);
    expect(await userCount(t, email)).toBe(1);
  });

  it('checks the details with the §5 rules and keeps the code for a corrected retry', async () => {
    const { client, email, code } = await signupCodeSent();
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ name: '' }, 'name', AUTH_MESSAGES.nameRequired],
      [{ phone: '' }, 'phone', AUTH_MESSAGES.phoneRequired],
      [{ phone: '+9198765' }, 'phone', AUTH_MESSAGES.phoneIndia],
      [{ phone: '+44123' }, 'phone', AUTH_MESSAGES.phoneInvalid],
      [{ phone: '+999123456789' }, 'phone', AUTH_MESSAGES.phoneInvalid],
      [{ password: '' }, 'password', AUTH_MESSAGES.passwordRequired],
      [{ password: 'abc12' }, 'password', AUTH_MESSAGES.passwordTooShort],
      [{ password: 'x'.repeat(129) }, 'password', AUTH_MESSAGES.passwordTooLong],
      [{ password: 'Password1' }, 'password', AUTH_MESSAGES.passwordTooCommon],
      [{ otp: '12' }, 'otp', AUTH_MESSAGES.codeInvalid],
    ];
    for (const [change, field, message] of cases) {
      const response = await client.post('/api/auth/initiate-signup/', details(email, code, change));
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json().fieldErrors[field], JSON.stringify(change)).toBe(message);
    }
    const unknownField = await client.post(
      '/api/auth/initiate-signup/',
      details(email, code, { admin: 'true' }),
    );
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().error).toContain('admin');
    expect(await userCount(t, email)).toBe(0);
    expect((await client.post('/api/auth/initiate-signup/', details(email, code))).statusCode).toBe(200);
  });

  it('refuses a 129-character password and accepts a 64-character non-ASCII one, untruncated', async () => {
    const client = await t.client({ ip: uniqueIp() });
    const email = uniqueEmail();
    const password = 'पासवर्ड🔐ñ'.repeat(8).slice(0, 200);
    const chars = [...password].slice(0, 64).join('');
    expect([...chars]).toHaveLength(64);
    await client.post('/api/auth/send-otp/', form({ name: 'Asha', email }));
    const code = await latestCode(t, email, 'signup-code');
    const tooLong = await client.post(
      '/api/auth/initiate-signup/',
      details(email, code, { password: 'é'.repeat(129) }),
    );
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().fieldErrors.password).toBe(AUTH_MESSAGES.passwordTooLong);
    expect(
      (await client.post('/api/auth/initiate-signup/', details(email, code, { password: chars }))).statusCode,
    ).toBe(200);

    const other = await t.client({ ip: uniqueIp() });
    expect((await other.post('/api/auth/login/', form({ email, password: chars }))).statusCode).toBe(200);
    const truncated = [...chars].slice(0, 63).join('');
    expect((await other.post('/api/auth/login/', form({ email, password: truncated }))).statusCode).toBe(401);
  });

  it('allows 10 attempts a minute per address to complete a signup', async () => {
    const { client, email, code } = await signupCodeSent();
    for (let i = 0; i < 10; i++) {
      expect(
        (await client.post('/api/auth/initiate-signup/', details(email, otherCode(code)))).statusCode,
      ).toBe(400);
    }
    const blocked = await client.post('/api/auth/initiate-signup/', details(email, code));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toBe(AUTH_MESSAGES.tooManyCodeUses);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });
});
