import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD, uniqueIp } from '../../../test/support/auth-helpers';
import { signedInBuyer } from '../../../test/support/dashboard-helpers';
import { testAppForFile } from '../../../test/support/file-apps';
import { SoftPasskey } from '../../../test/support/webauthn';
import { ACCOUNT_MESSAGES } from '../../shared/account';

const t = testAppForFile();

const ORIGIN = 'http://localhost:3000';
const MINUTE = 60 * 1000;

/** A buyer who signed in more than 10 minutes ago, with a passkey added while the sign-in was fresh. */
async function staleBuyer() {
  const buyer = await signedInBuyer(t, 'sudo');
  const passkey = new SoftPasskey(ORIGIN);
  const options = (await buyer.client.post('/api/account/passkeys/options', {})).json();
  const added = await buyer.client.post('/api/account/passkeys', {
    name: 'Phone',
    credential: passkey.register(options),
  });
  expect(added.statusCode, added.body).toBe(200);
  const passkeyId = added.json().passkeys[0].id as string;
  const other = await t.client({ ip: uniqueIp() });
  await other.post('/api/auth/login/', { email: buyer.email, password: DEFAULT_PASSWORD });
  t.clock.advance(11 * MINUTE);
  return { ...buyer, passkey, passkeyId };
}

type Buyer = Awaited<ReturnType<typeof staleBuyer>>;

/** The risky changes, each as the account page makes it. */
const riskyCalls: Array<[string, (buyer: Buyer) => ReturnType<Buyer['client']['post']>]> = [
  ['email change', (buyer) => buyer.client.post('/api/account/email', { email: `new.${buyer.email}` })],
  ['passkey options', (buyer) => buyer.client.post('/api/account/passkeys/options', {})],
  [
    'passkey add',
    (buyer) =>
      buyer.client.post('/api/account/passkeys', {
        name: 'Stolen session key',
        credential: new SoftPasskey(ORIGIN).register({
          challenge: 'x',
          rp: { name: 'x', id: 'localhost' },
          user: { id: 'x', name: 'x', displayName: 'x' },
          pubKeyCredParams: [],
        }),
      }),
  ],
  ['passkey removal', (buyer) => buyer.client.request('DELETE', `/api/account/passkeys/${buyer.passkeyId}`)],
  ['sign out everywhere', (buyer) => buyer.client.post('/api/account/sessions/sign-out-others', {})],
  [
    'delete',
    (buyer) => buyer.client.post('/api/account/delete', { password: DEFAULT_PASSWORD, email: buyer.email }),
  ],
];

describe('a second sign-in before risky changes', () => {
  it('refuses each risky change 10 minutes after the sign-in with 403 reauth_required, changing nothing', async () => {
    const buyer = await staleBuyer();
    for (const [label, call] of riskyCalls) {
      const response = await call(buyer);
      expect(response.statusCode, label).toBe(403);
      expect(response.json(), label).toMatchObject({
        code: 'reauth_required',
        message: ACCOUNT_MESSAGES.reauthRequired,
      });
    }
    expect((await buyer.client.get('/api/account/passkeys')).json()).toHaveLength(1);
    expect((await buyer.client.get('/api/account/sessions')).json()).toHaveLength(2);
    // Changes that are not risky go on as before.
    const profile = await buyer.client.request('PATCH', '/api/account/profile', {
      name: 'Still Here',
      phone: '+919876543210',
    });
    expect(profile.statusCode, profile.body).toBe(200);
  });

  it('opens the window with the password: a wrong one is a 400 on the field, the right one lets the change through', async () => {
    const buyer = await staleBuyer();
    const wrong = await buyer.client.post('/api/account/reauth', { password: 'not it at all' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'wrong_password',
      fieldErrors: { password: ACCOUNT_MESSAGES.reauthPasswordWrong },
    });
    expect((await buyer.client.post('/api/account/sessions/sign-out-others', {})).statusCode).toBe(403);

    const right = await buyer.client.post('/api/account/reauth', { password: DEFAULT_PASSWORD });
    expect(right.statusCode, right.body).toBe(200);
    const ended = await buyer.client.post('/api/account/sessions/sign-out-others', {});
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().ended).toBe(1);
    const removed = await buyer.client.request('DELETE', `/api/account/passkeys/${buyer.passkeyId}`);
    expect(removed.statusCode, removed.body).toBe(200);

    // Ten minutes later it has closed again.
    t.clock.advance(10 * MINUTE);
    expect((await buyer.client.post('/api/account/passkeys/options', {})).statusCode).toBe(403);
  });

  it('opens the window with a passkey of the account (not of another), through the passkey sign-in challenge', async () => {
    const buyer = await staleBuyer();
    const stranger = await staleBuyer();
    const challenge = async () => (await buyer.client.post('/api/auth/passkey/options', {})).json().challenge;

    const foreign = await buyer.client.post('/api/account/reauth', {
      credential: stranger.passkey.assert(await challenge()),
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe(ACCOUNT_MESSAGES.reauthPasskeyOther);
    expect((await buyer.client.post('/api/account/email', { email: `x.${buyer.email}` })).statusCode).toBe(
      403,
    );

    const own = await buyer.client.post('/api/account/reauth', {
      credential: buyer.passkey.assert(await challenge()),
    });
    expect(own.statusCode, own.body).toBe(200);
    const moved = await buyer.client.post('/api/account/email', { email: `x.${buyer.email}` });
    expect(moved.statusCode, moved.body).toBe(200);
  });

  it('belongs to the session that made it: another browser of the same account is still asked', async () => {
    const buyer = await staleBuyer();
    const other = await t.client({ ip: uniqueIp() });
    await other.post('/api/auth/login/', { email: buyer.email, password: DEFAULT_PASSWORD });
    t.clock.advance(11 * MINUTE);
    expect((await buyer.client.post('/api/account/reauth', { password: DEFAULT_PASSWORD })).statusCode).toBe(
      200,
    );
    expect((await other.post('/api/account/passkeys/options', {})).statusCode).toBe(403);
    const signedOut = await t.client();
    expect((await signedOut.post('/api/account/reauth', { password: DEFAULT_PASSWORD })).statusCode).toBe(
      401,
    );
  });
});
