import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD, form, signUp, uniqueEmail, uniqueIp } from '../../../test/support/auth-helpers';
import type { TestClient } from '../../../test/support/client';
import { testAppForFile } from '../../../test/support/file-apps';
import { AUTH_MESSAGES } from '../../shared/auth';
import { sessions, users } from '../db/schema/accounts';
import { hashPassword } from './passwords';
import { LOGIN_FAILURES_PER_ACCOUNT } from './routes';
import { hashSessionId, SESSION_COOKIE } from './session';
import { SESSION_CACHE_TTL_MS } from './session-cache';

const t = testAppForFile();
let email: string;
beforeAll(async () => {
  email = uniqueEmail('login');
  const client = await t.client({ ip: uniqueIp() });
  const response = await signUp(t, client, {
    email: email.replace('login', 'Login'),
    phone: '+447700900123',
  });
  expect(response.statusCode).toBe(200);
});

const login = (client: TestClient, fields: Record<string, string>) =>
  client.post('/api/auth/login/', form(fields));

/** The cookie as sent in Set-Cookie, split into its attributes. */
function setCookie(response: { headers: Record<string, unknown> }, name: string): string[] | undefined {
  const header = response.headers['set-cookie'];
  const all = Array.isArray(header) ? header : header ? [String(header)] : [];
  return all.find((cookie: string) => cookie.startsWith(`${name}=`))?.split(/;\s*/);
}

describe('POST /api/auth/login/', () => {
  it('logs in with the email in any case and answers with the user', async () => {
    const client = await t.client({ ip: uniqueIp() });
    const response = await login(client, { email: email.toUpperCase(), password: DEFAULT_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: { name: 'Asha Verma', email: email.replace('login', 'Login'), phone: '+447700900123' },
      message: AUTH_MESSAGES.loginSuccess,
    });
    expect((await client.get('/api/auth/check/')).json()).toMatchObject({ loggedin: true });
  });

  it('replaces a hash made at another cost at the next login, with one at the configured cost', async () => {
    const client = await t.client({ ip: uniqueIp() });
    const stored = () =>
      t.ctx.db
        .select({ hash: users.passwordHash })
        .from(users)
        .where(eq(users.email, email.replace('login', 'Login')));
    // As production made it (cost 17); the test app hashes at the cost PASSWORD_HASH_COST gives it.
    await t.ctx.db
      .update(users)
      .set({ passwordHash: await hashPassword(DEFAULT_PASSWORD) })
      .where(eq(users.email, email.replace('login', 'Login')));
    expect((await stored())[0]?.hash).toMatch(/^scrypt\$17\$/);
    expect((await login(client, { email, password: DEFAULT_PASSWORD })).statusCode).toBe(200);
    const [after] = await stored();
    expect(after?.hash).toMatch(new RegExp(`^scrypt\\$${t.ctx.config.passwordHashCost}\\$8\\$1\\$`));
    expect(t.ctx.config.passwordHashCost).not.toBe(17);
    expect((await login(client, { email, password: DEFAULT_PASSWORD })).statusCode).toBe(200);
  });

  it('answers an unknown email and a wrong password identically', async () => {
    const client = await t.client({ ip: uniqueIp() });
    const wrongPassword = await login(client, { email, password: 'not the password' });
    const unknownEmail = await login(client, { email: uniqueEmail('nobody'), password: 'not the password' });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(wrongPassword.statusCode);
    expect(unknownEmail.body).toBe(wrongPassword.body);
    expect(wrongPassword.json().error).toBe(AUTH_MESSAGES.loginFailed);
    expect(unknownEmail.headers['set-cookie']).toBeUndefined();
    expect(wrongPassword.headers['set-cookie']).toBeUndefined();
  });

  it('issues a new session id and a new csrftoken at login, and the old session id is worthless', async () => {
    const client = await t.client({ ip: uniqueIp() });
    expect((await login(client, { email, password: DEFAULT_PASSWORD })).statusCode).toBe(200);
    const firstSession = client.cookies.get(SESSION_COOKIE);
    const firstCsrf = client.csrfToken;
    expect((await login(client, { email, password: DEFAULT_PASSWORD })).statusCode).toBe(200);
    expect(client.cookies.get(SESSION_COOKIE)).toMatch(/^[\w-]{43}$/);
    expect(client.cookies.get(SESSION_COOKIE)).not.toBe(firstSession);
    expect(client.csrfToken).toMatch(/^[\w-]{43}$/);
    expect(client.csrfToken).not.toBe(firstCsrf);

    const stale = await t.client({ ip: uniqueIp() });
    stale.cookies.set(SESSION_COOKIE, firstSession ?? '');
    expect((await stale.get('/api/auth/check/')).json()).toEqual({ loggedin: false, user: null });
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, path /, for 14 days, not Secure outside production', async () => {
    const client = await t.client({ ip: uniqueIp() });
    const response = await login(client, { email, password: DEFAULT_PASSWORD });
    const attributes = setCookie(response, SESSION_COOKIE);
    expect(attributes).toBeDefined();
    expect(attributes).toContain('HttpOnly');
    expect(attributes).toContain('SameSite=Lax');
    expect(attributes).toContain('Path=/');
    expect(attributes).not.toContain('Secure');
    const expires = attributes?.find((part) => part.startsWith('Expires='))?.slice('Expires='.length);
    expect(new Date(expires ?? '').getTime()).toBe(t.clock.now().getTime() + 14 * 24 * 60 * 60 * 1000);
    const csrf = setCookie(response, 'csrftoken');
    expect(csrf).toContain('SameSite=Lax');
    expect(csrf).not.toContain('HttpOnly');
  });

  it('ends a session after 14 days', async () => {
    const client = await t.client({ ip: uniqueIp() });
    await login(client, { email, password: DEFAULT_PASSWORD });
    t.clock.advance(14 * 24 * 60 * 60 * 1000 - 1000);
    expect((await client.get('/api/auth/check/')).json().loggedin).toBe(true);
    t.clock.advance(1000);
    expect((await client.get('/api/auth/check/')).json().loggedin).toBe(false);
  });

  it('allows 10 login attempts per minute from one address', async () => {
    const client = await t.client({ ip: uniqueIp() });
    for (let i = 0; i < 10; i++) {
      expect((await login(client, { email: uniqueEmail('spray'), password: 'guess123' })).statusCode).toBe(
        401,
      );
    }
    const blocked = await login(client, { email, password: DEFAULT_PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().error).toBe(AUTH_MESSAGES.tooManyLogins);
  });

  it('allows 10 failures per 15 minutes per account, from any address, for known and unknown emails alike', async () => {
    const target = uniqueEmail('target');
    const owner = await t.client({ ip: uniqueIp() });
    expect((await signUp(t, owner, { email: target })).statusCode).toBe(200);
    const unknown = uniqueEmail('ghost');
    for (let i = 0; i < 10; i++) {
      const attacker = await t.client({ ip: uniqueIp() });
      expect((await login(attacker, { email: target, password: `guess-${i}-x` })).statusCode).toBe(401);
      expect((await login(attacker, { email: unknown, password: `guess-${i}-x` })).statusCode).toBe(401);
    }
    const rightPassword = await login(await t.client({ ip: uniqueIp() }), {
      email: target,
      password: DEFAULT_PASSWORD,
    });
    expect(rightPassword.statusCode).toBe(429);
    expect(rightPassword.json().error).toBe(AUTH_MESSAGES.tooManyFailures);
    const ghost = await login(await t.client({ ip: uniqueIp() }), { email: unknown, password: 'whatever1' });
    expect(ghost.statusCode).toBe(429);
    expect(ghost.body).toBe(rightPassword.body);
    t.clock.advance(15 * 60 * 1000);
    expect(
      (await login(await t.client({ ip: uniqueIp() }), { email: target, password: DEFAULT_PASSWORD }))
        .statusCode,
    ).toBe(200);
  }, 120_000);
  it('checks at most 10 of 20 concurrent wrong passwords for one account from 20 addresses; the rest get 429', async () => {
    const target = uniqueEmail('raced');
    const owner = await t.client({ ip: uniqueIp() });
    expect((await signUp(t, owner, { email: target })).statusCode).toBe(200);
    const attackers = await Promise.all(Array.from({ length: 20 }, () => t.client({ ip: uniqueIp() })));
    const answers = await Promise.all(
      attackers.map((attacker, i) => login(attacker, { email: target, password: `guess-${i}-x` })),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses.filter((status) => status === 401)).toHaveLength(LOGIN_FAILURES_PER_ACCOUNT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 - LOGIN_FAILURES_PER_ACCOUNT);
  }, 120_000);

  it('gives a correct password its unit of the failure budget back', async () => {
    const target = uniqueEmail('refund');
    const owner = await t.client({ ip: uniqueIp() });
    expect((await signUp(t, owner, { email: target })).statusCode).toBe(200);
    for (let i = 0; i <= LOGIN_FAILURES_PER_ACCOUNT; i++) {
      const client = await t.client({ ip: uniqueIp() });
      expect((await login(client, { email: target, password: DEFAULT_PASSWORD })).statusCode).toBe(200);
    }
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) {
      const client = await t.client({ ip: uniqueIp() });
      expect((await login(client, { email: target, password: `guess-${i}-x` })).statusCode).toBe(401);
    }
  }, 120_000);
});

describe('POST /api/auth/logout/', () => {
  it('deletes the session on the server and clears the cookie', async () => {
    const client = await t.client({ ip: uniqueIp() });
    await login(client, { email, password: DEFAULT_PASSWORD });
    const session = client.cookies.get(SESSION_COOKIE) ?? '';
    const response = await client.post('/api/auth/logout/');
    expect(response.statusCode).toBe(200);
    const cleared = setCookie(response, SESSION_COOKIE);
    expect(cleared?.[0]).toBe(`${SESSION_COOKIE}=`);
    expect(client.cookies.has(SESSION_COOKIE)).toBe(false);

    const replay = await t.client({ ip: uniqueIp() });
    replay.cookies.set(SESSION_COOKIE, session);
    expect((await replay.get('/api/auth/check/')).json()).toEqual({ loggedin: false, user: null });
  });
});

describe('a session ended by another instance or the admin', () => {
  it('stops working on this instance within the session cache time', async () => {
    const client = await t.client({ ip: uniqueIp() });
    await login(client, { email, password: DEFAULT_PASSWORD });
    expect((await client.get('/api/auth/check/')).json().loggedin).toBe(true);
    const idHash = hashSessionId(client.cookies.get(SESSION_COOKIE) ?? '');
    await t.ctx.db.delete(sessions).where(eq(sessions.idHash, idHash));
    await sleep(SESSION_CACHE_TTL_MS + 50);
    expect((await client.get('/api/auth/check/')).json()).toEqual({ loggedin: false, user: null });
  });
});

describe('GET /api/auth/check/', () => {
  it('answers loggedin false with no user for a visitor, and is never cached', async () => {
    const client = await t.client({ ip: uniqueIp() });
    const response = await client.get('/api/auth/check/');
    expect(response.json()).toEqual({ loggedin: false, user: null });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('clears a cookie that names no session', async () => {
    const client = await t.client({ ip: uniqueIp() });
    client.cookies.set(SESSION_COOKIE, 'x'.repeat(43));
    const response = await client.get('/api/auth/check/');
    expect(response.json().loggedin).toBe(false);
    expect(setCookie(response, SESSION_COOKIE)?.[0]).toBe(`${SESSION_COOKIE}=`);
  });
});
