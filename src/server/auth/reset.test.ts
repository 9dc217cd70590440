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
} from '../../../test/support/auth-helpers';
import { testAppForFile } from '../../../test/support/file-apps';
import { AUTH_MESSAGES } from '../../shared/auth';
import { users, verificationCodes } from '../db/schema/accounts';
import { pruneExpiredRows } from '../retention';
import { SEND_GAP_MS, storeCode } from './codes';
import { SESSION_COOKIE } from './session';

const t = testAppForFile();

async function account() {
  const email = uniqueEmail('reset');
  const client = await t.client({ ip: uniqueIp() });
  expect((await signUp(t, client, { email })).statusCode).toBe(200);
  return { email, client };
}

async function requestCode(email: string) {
  const client = await t.client({ ip: uniqueIp() });
  const response = await client.post('/api/auth/forgot-password/', { email });
  expect(response.statusCode).toBe(200);
  return { client, response, code: await latestCode(t, email, 'password-reset-code') };
}

const otherCode = (code: string) => code.replace(/^./, (digit) => String((Number(digit) + 1) % 10));

describe('POST /api/auth/forgot-password/', () => {
  it('gives the same answer whether or not the account exists, and mails a 6-digit code only if it does', async () => {
    const { email } = await account();
    const client = await t.client({ ip: uniqueIp() });
    const known = await client.post('/api/auth/forgot-password/', { email });
    const nobody = uniqueEmail('nobody');
    const unknown = await client.post('/api/auth/forgot-password/', { email: nobody });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(known.json()).toEqual({ message: AUTH_MESSAGES.forgotSent });
    const code = await latestCode(t, email, 'password-reset-code');
    expect(code).toMatch(/^\d{6}$/);
    expect(known.body).not.toContain(code);
    expect(await mailsTo(t, nobody)).toHaveLength(0);
  });
});

describe('POST /api/auth/verify-otp/', () => {
  it('confirms the right code without using it up', async () => {
    const { email } = await account();
    const { client, code } = await requestCode(email);
    for (let i = 0; i < 3; i++) {
      const response = await client.post('/api/auth/verify-otp/', { email, otp: code });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: AUTH_MESSAGES.verifySuccess });
    }
  });

  it('counts each wrong code as one attempt; the 6th attempt fails even with the right code', async () => {
    const { email } = await account();
    const { client, code } = await requestCode(email);
    for (let i = 0; i < 5; i++) {
      const wrong = await client.post('/api/auth/verify-otp/', { email, otp: otherCode(code) });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error).toBe(AUTH_MESSAGES.verifyFailed);
    }
    expect((await client.post('/api/auth/verify-otp/', { email, otp: code })).statusCode).toBe(400);
    const reset = await client.post('/api/auth/reset-password/', {
      email,
      otp: code,
      password: 'A new pass 99',
    });
    expect(reset.statusCode).toBe(400);
  });

  it('refuses a code after 10 minutes', async () => {
    const { email } = await account();
    const { client, code } = await requestCode(email);
    t.clock.advance(10 * 60 * 1000);
    expect((await client.post('/api/auth/verify-otp/', { email, otp: code })).statusCode).toBe(400);
  });

  it('does not accept a signup code for a reset, nor a reset code for another email', async () => {
    const { email } = await account();
    await storeCode(t.ctx.db, t.ctx, { email, purpose: 'signup', code: '424242' });
    const client = await t.client({ ip: uniqueIp() });
    expect((await client.post('/api/auth/verify-otp/', { email, otp: '424242' })).statusCode).toBe(400);
    await storeCode(t.ctx.db, t.ctx, { email, purpose: 'reset', code: '424242' });
    expect((await client.post('/api/auth/verify-otp/', { email, otp: '424242' })).statusCode).toBe(200);
    const { email: other } = await account();
    expect((await client.post('/api/auth/verify-otp/', { email: other, otp: '424242' })).statusCode).toBe(
      400,
    );
  });
});

describe('POST /api/auth/reset-password/', () => {
  it('sets the password, ends every session, mails a notice and does not log in', async () => {
    const { email, client: firstDevice } = await account();
    const secondDevice = await t.client({ ip: uniqueIp() });
    await secondDevice.post('/api/auth/login/', form({ email, password: DEFAULT_PASSWORD }));
    const oldCookie = secondDevice.cookies.get(SESSION_COOKIE) ?? '';
    expect((await secondDevice.get('/api/auth/check/')).json().loggedin).toBe(true);

    const { client, code } = await requestCode(email);
    const response = await client.post('/api/auth/reset-password/', {
      email,
      otp: code,
      password: 'A new pass 99',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.resetSuccess });
    expect(client.cookies.has(SESSION_COOKIE)).toBe(false);
    expect((await client.get('/api/auth/check/')).json().loggedin).toBe(false);

    expect((await firstDevice.get('/api/auth/check/')).json()).toEqual({ loggedin: false, user: null });
    const replay = await t.client({ ip: uniqueIp() });
    replay.cookies.set(SESSION_COOKIE, oldCookie);
    expect((await replay.get('/api/auth/check/')).json()).toEqual({ loggedin: false, user: null });

    const [notice] = await mailsTo(t, email, 'password-changed');
    expect(notice?.subject).toBe('Your password was changed');

    const login = await t.client({ ip: uniqueIp() });
    expect(
      (await login.post('/api/auth/login/', form({ email, password: DEFAULT_PASSWORD }))).statusCode,
    ).toBe(401);
    expect(
      (await login.post('/api/auth/login/', form({ email, password: 'A new pass 99' }))).statusCode,
    ).toBe(200);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    expect(row?.passwordChangedAt?.getTime()).toBe(t.clock.now().getTime());
  });

  it('refuses a code that was already used', async () => {
    const { email } = await account();
    const { client, code } = await requestCode(email);
    expect(
      (await client.post('/api/auth/reset-password/', { email, otp: code, password: 'First new 123' }))
        .statusCode,
    ).toBe(200);
    const again = await client.post('/api/auth/reset-password/', {
      email,
      otp: code,
      password: 'Second new 123',
    });
    expect(again.statusCode).toBe(400);
    const login = await t.client({ ip: uniqueIp() });
    expect(
      (await login.post('/api/auth/login/', form({ email, password: 'First new 123' }))).statusCode,
    ).toBe(200);
  });

  it('accepts only the newest code after a resend', async () => {
    const { email } = await account();
    const first = await requestCode(email);
    t.clock.advance(SEND_GAP_MS);
    const second = await requestCode(email);
    if (first.code !== second.code) {
      expect((await second.client.post('/api/auth/verify-otp/', { email, otp: first.code })).statusCode).toBe(
        400,
      );
    }
    expect((await second.client.post('/api/auth/verify-otp/', { email, otp: second.code })).statusCode).toBe(
      200,
    );
  });

  it('applies the password rules without spending the code', async () => {
    const { email } = await account();
    const { client, code } = await requestCode(email);
    const cases: Array<[string, string]> = [
      ['short', AUTH_MESSAGES.resetPasswordTooShort],
      ['a'.repeat(129), AUTH_MESSAGES.passwordTooLong],
      ['iloveyou', AUTH_MESSAGES.passwordTooCommon],
    ];
    for (const [password, message] of cases) {
      const response = await client.post('/api/auth/reset-password/', { email, otp: code, password });
      expect(response.statusCode).toBe(400);
      expect(response.json().fieldErrors.password).toBe(message);
    }
    const ok = await client.post('/api/auth/reset-password/', {
      email,
      otp: code,
      password: 'ŝtrong påsswörd',
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('maintenance', () => {
  it('prunes codes whose 10 minutes are over and keeps live ones', async () => {
    const stale = uniqueEmail('stale');
    const live = uniqueEmail('live');
    await storeCode(t.ctx.db, t.ctx, { email: stale, purpose: 'reset', code: '111111' });
    t.clock.advance(10 * 60 * 1000 + 1);
    await storeCode(t.ctx.db, t.ctx, { email: live, purpose: 'reset', code: '222222' });
    await pruneExpiredRows(t.ctx.db, t.clock);
    const emails = (await t.ctx.db.select().from(verificationCodes)).map((row) => row.email);
    expect(emails).toContain(live);
    expect(emails).not.toContain(stale);
  });
});
