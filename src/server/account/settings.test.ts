import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD, form, mailsTo, uniqueEmail, uniqueIp } from '../../../test/support/auth-helpers';
import type { TestClient } from '../../../test/support/client';
import { signedInBuyer } from '../../../test/support/dashboard-helpers';
import { testAppForFile } from '../../../test/support/file-apps';
import { ACCOUNT_MESSAGES } from '../../shared/account';
import { AUTH_MESSAGES } from '../../shared/auth';
import { sessions, users } from '../db/schema/accounts';

const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const t = testAppForFile();

/** Another browser signed in to the same account with the password, with its own User-Agent. */
async function secondBrowser(email: string, userAgent = SAFARI_ON_IPHONE): Promise<TestClient> {
  const client = await t.client({ ip: uniqueIp() });
  const response = await client.post('/api/auth/login/', form({ email, password: DEFAULT_PASSWORD }), {
    'user-agent': userAgent,
  });
  expect(response.statusCode).toBe(200);
  return client;
}

const signedIn = async (client: TestClient) =>
  (await client.get('/api/auth/check/')).json().loggedin as boolean;

async function userRow(email: string) {
  const [row] = await t.ctx.db.select().from(users).where(eq(users.email, email));
  return row;
}

/** The code in the newest email-change code mail to `to`. */
async function emailChangeCode(to: string): Promise<string> {
  const [mail] = await mailsTo(t, to, 'email-change-code');
  const code = mail && /^\s+(\d{6})$/m.exec(mail.text)?.[1];
  if (!code) throw new Error(`no email-change code to ${to}`);
  return code;
}

describe('profile', () => {
  it('saves name and phone by the signup rules and messages', async () => {
    const buyer = await signedInBuyer(t);
    const bad = await buyer.client.request('PATCH', '/api/account/profile', {
      name: 'Asha',
      phone: '+91123',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual({ phone: AUTH_MESSAGES.phoneIndia });
    const empty = await buyer.client.request('PATCH', '/api/account/profile', {
      name: ' ',
      phone: '+919876543210',
    });
    expect(empty.json().fieldErrors).toEqual({ name: AUTH_MESSAGES.nameRequired });

    const saved = await buyer.client.request('PATCH', '/api/account/profile', {
      name: ' Asha Kumari ',
      phone: '+1 415-555-0100',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().user).toEqual({ name: 'Asha Kumari', email: buyer.email, phone: '+14155550100' });
    expect((await buyer.client.get('/api/auth/check/')).json().user.name).toBe('Asha Kumari');
  });
});

describe('password', () => {
  it('refuses a wrong current password with a clear error and changes nothing', async () => {
    const buyer = await signedInBuyer(t);
    const before = await userRow(buyer.email);
    const response = await buyer.client.post('/api/account/password', {
      currentPassword: 'not my password',
      password: 'A new secret 77',
      confirmPassword: 'A new secret 77',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ currentPassword: ACCOUNT_MESSAGES.currentPasswordWrong });
    expect((await userRow(buyer.email))?.passwordHash).toBe(before?.passwordHash);
    expect(await mailsTo(t, buyer.email, 'password-changed')).toHaveLength(0);
  });

  it('applies the reset rules to the new password', async () => {
    const buyer = await signedInBuyer(t);
    const response = await buyer.client.post('/api/account/password', {
      currentPassword: DEFAULT_PASSWORD,
      password: 'abc12',
      confirmPassword: 'abc13',
    });
    expect(response.json().fieldErrors).toEqual({ confirmPassword: AUTH_MESSAGES.resetPasswordsDoNotMatch });
  });

  it('signs out every other session, keeps this one and emails a notice', async () => {
    const buyer = await signedInBuyer(t);
    const other = await secondBrowser(buyer.email);
    expect(await signedIn(other)).toBe(true);

    const response = await buyer.client.post('/api/account/password', {
      currentPassword: DEFAULT_PASSWORD,
      password: 'A new secret 77',
      confirmPassword: 'A new secret 77',
    });
    expect(response.statusCode).toBe(200);
    expect(await signedIn(buyer.client)).toBe(true);
    expect(await signedIn(other)).toBe(false);
    const [notice] = await mailsTo(t, buyer.email, 'password-changed');
    expect(notice?.subject).toBe('Your password was changed');
    expect(notice?.text).toContain('/Contact');

    const login = await (await t.client({ ip: uniqueIp() })).post(
      '/api/auth/login/',
      form({ email: buyer.email, password: 'A new secret 77' }),
    );
    expect(login.statusCode).toBe(200);
  });
});

describe('email change', () => {
  it('sends a code to the new address, moves the account on it and tells the old one', async () => {
    const buyer = await signedInBuyer(t);
    const newEmail = uniqueEmail('moved');
    const asked = await buyer.client.post('/api/account/email', { email: newEmail });
    expect(asked.statusCode).toBe(200);
    const code = await emailChangeCode(newEmail);

    const wrong = await buyer.client.post('/api/account/email/confirm', {
      email: newEmail,
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors).toEqual({ code: AUTH_MESSAGES.verifyFailed });
    expect((await userRow(buyer.email))?.email).toBe(buyer.email);

    const confirmed = await buyer.client.post('/api/account/email/confirm', { email: newEmail, code });
    expect(confirmed.statusCode).toBe(200);
    expect((await buyer.client.get('/api/auth/check/')).json().user.email).toBe(newEmail);
    expect(await userRow(buyer.email)).toBeUndefined();
    const [notice] = await mailsTo(t, buyer.email, 'email-changed');
    expect(notice?.text).toContain('http://localhost:3000/Contact');

    const reused = await buyer.client.post('/api/account/email/confirm', { email: newEmail, code });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe(AUTH_MESSAGES.verifyFailed);
  });

  it("answers for another account's address exactly as for a free one, and never moves to it", async () => {
    const buyer = await signedInBuyer(t);
    const owner = await signedInBuyer(t, 'owner');
    const free = uniqueEmail('free');

    const forTaken = await buyer.client.post('/api/account/email', { email: owner.email.toUpperCase() });
    const forFree = await buyer.client.post('/api/account/email', { email: free });
    expect(forTaken.statusCode).toBe(forFree.statusCode);
    expect(forTaken.json().message.replace(owner.email.toUpperCase(), '<email>')).toBe(
      forFree.json().message.replace(free, '<email>'),
    );
    expect(await mailsTo(t, owner.email, 'email-change-code')).toHaveLength(0);
    expect(await mailsTo(t, owner.email, 'email-taken')).toHaveLength(1);

    for (const code of ['000000', '123456', '999999']) {
      const tried = await buyer.client.post('/api/account/email/confirm', { email: owner.email, code });
      expect(tried.statusCode).toBe(400);
    }
    expect((await userRow(buyer.email))?.email).toBe(buyer.email);
    expect((await userRow(owner.email))?.email).toBe(owner.email);
  });

  it("does not accept a code sent for another account's change", async () => {
    const first = await signedInBuyer(t);
    const second = await signedInBuyer(t);
    const target = uniqueEmail('target');
    await first.client.post('/api/account/email', { email: target });
    const code = await emailChangeCode(target);
    const stolen = await second.client.post('/api/account/email/confirm', { email: target, code });
    expect(stolen.statusCode).toBe(400);
    expect(await userRow(target)).toBeUndefined();
  });
});

describe('sessions', () => {
  it('lists each browser with its parsed browser and system, and ends one by its public id', async () => {
    const buyer = await signedInBuyer(t);
    const firefox = await secondBrowser(buyer.email, FIREFOX_ON_LINUX);
    const list = (await firefox.get('/api/account/sessions')).json();
    expect(list).toHaveLength(2);
    const mine = list.find((session: { current: boolean }) => session.current);
    expect(mine).toMatchObject({ browser: 'Firefox 128', os: 'Linux' });
    const others = list.filter((session: { current: boolean }) => !session.current);
    expect(others).toHaveLength(1);
    const rows = await t.ctx.db.select().from(sessions);
    expect(JSON.stringify(list)).not.toContain(rows[0]?.idHash ?? 'none');

    const ended = await firefox.request('DELETE', `/api/account/sessions/${others[0].id}`);
    expect(ended.statusCode).toBe(200);
    expect(await signedIn(buyer.client)).toBe(false);
    expect(await signedIn(firefox)).toBe(true);
  });

  it("answers 404 for another account's session id and ends nothing", async () => {
    const buyer = await signedInBuyer(t);
    const stranger = await signedInBuyer(t, 'stranger');
    const [theirs] = (await stranger.client.get('/api/account/sessions')).json();
    const response = await buyer.client.request('DELETE', `/api/account/sessions/${theirs.id}`);
    expect(response.statusCode).toBe(404);
    expect((await buyer.client.request('DELETE', '/api/account/sessions/not-a-uuid')).statusCode).toBe(404);
    expect(await signedIn(stranger.client)).toBe(true);
  });

  it('signs out everywhere else', async () => {
    const buyer = await signedInBuyer(t);
    const others = [await secondBrowser(buyer.email), await secondBrowser(buyer.email, FIREFOX_ON_LINUX)];
    const response = await buyer.client.post('/api/account/sessions/sign-out-others', {});
    expect(response.json()).toEqual({ ended: 2, message: ACCOUNT_MESSAGES.othersEnded(2) });
    expect(await signedIn(buyer.client)).toBe(true);
    for (const other of others) expect(await signedIn(other)).toBe(false);
  });

  it('stamps last use at most once a minute', async () => {
    const buyer = await signedInBuyer(t);
    const lastUsed = async () => {
      // As when this instance's 2-second memory of the session has lapsed: the look-up goes to the database.
      t.ctx.caches.sessions.deleteWhere(() => true);
      return (await buyer.client.get('/api/account/sessions')).json()[0].lastUsedAt as string;
    };
    const first = await lastUsed();
    t.clock.advance(30_000);
    expect(await lastUsed()).toBe(first);
    t.clock.advance(31_000);
    expect(await lastUsed()).not.toBe(first);
  });
});

describe('CSRF', () => {
  it('refuses every changing request without the token and changes nothing', async () => {
    const buyer = await signedInBuyer(t);
    const other = await secondBrowser(buyer.email);
    buyer.client.sendCsrfHeader = false;
    const attempts = [
      buyer.client.request('PATCH', '/api/account/profile', { name: 'Mallory', phone: '+919876543210' }),
      buyer.client.post('/api/account/password', {
        currentPassword: DEFAULT_PASSWORD,
        password: 'A new secret 77',
        confirmPassword: 'A new secret 77',
      }),
      buyer.client.post('/api/account/email', { email: uniqueEmail('csrf') }),
      buyer.client.post('/api/account/sessions/sign-out-others', {}),
      buyer.client.post('/api/account/passkeys/options', {}),
      buyer.client.post('/api/auth/passkey/options', {}),
    ];
    for (const response of await Promise.all(attempts)) expect(response.statusCode).toBe(403);
    buyer.client.sendCsrfHeader = true;
    expect((await buyer.client.get('/api/auth/check/')).json().user.name).toBe('Asha Verma');
    expect(await signedIn(other)).toBe(true);
  });
});
