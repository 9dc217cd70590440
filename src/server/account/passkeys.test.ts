import { describe, expect, it } from 'vitest';
import { uniqueIp } from '../../../test/support/auth-helpers';
import type { TestClient } from '../../../test/support/client';
import { signedInBuyer } from '../../../test/support/dashboard-helpers';
import { testAppForFile } from '../../../test/support/file-apps';
import { SoftPasskey } from '../../../test/support/webauthn';
import { ACCOUNT_MESSAGES } from '../../shared/account';

const t = testAppForFile();

const ORIGIN = 'http://localhost:3000';

/** A buyer with one passkey added from the account page. */
async function buyerWithPasskey() {
  const buyer = await signedInBuyer(t);
  const passkey = new SoftPasskey(ORIGIN);
  const options = (await buyer.client.post('/api/account/passkeys/options', {})).json();
  expect(options.authenticatorSelection).toMatchObject({
    residentKey: 'required',
    userVerification: 'required',
  });
  expect(options.rp.id).toBe('localhost');
  const added = await buyer.client.post('/api/account/passkeys', {
    name: 'Work laptop',
    credential: passkey.register(options),
  });
  expect(added.statusCode).toBe(200);
  return { ...buyer, passkey };
}

/** A fresh browser at the login dialog: the challenge the server gave it. */
async function loginChallenge(): Promise<{ client: TestClient; challenge: string }> {
  const client = await t.client({ ip: uniqueIp() });
  const options = (await client.post('/api/auth/passkey/options', {})).json();
  expect(options.userVerification).toBe('required');
  expect(options.allowCredentials ?? []).toEqual([]);
  return { client, challenge: options.challenge };
}

const signedIn = async (client: TestClient) =>
  (await client.get('/api/auth/check/')).json().loggedin as boolean;

describe('passkeys', () => {
  it('are added, named, renamed and removed by their owner only', async () => {
    const buyer = await buyerWithPasskey();
    const [listed] = (await buyer.client.get('/api/account/passkeys')).json();
    expect(listed).toMatchObject({ name: 'Work laptop', lastUsedAt: null });

    const stranger = await signedInBuyer(t, 'stranger');
    expect(
      (await stranger.client.request('PATCH', `/api/account/passkeys/${listed.id}`, { name: 'Mine' }))
        .statusCode,
    ).toBe(404);
    expect((await stranger.client.request('DELETE', `/api/account/passkeys/${listed.id}`)).statusCode).toBe(
      404,
    );

    const empty = await buyer.client.request('PATCH', `/api/account/passkeys/${listed.id}`, { name: '  ' });
    expect(empty.json().fieldErrors).toEqual({ name: ACCOUNT_MESSAGES.passkeyNameRequired });
    const renamed = await buyer.client.request('PATCH', `/api/account/passkeys/${listed.id}`, {
      name: 'Phone',
    });
    expect(renamed.json().passkeys[0].name).toBe('Phone');
    const removed = await buyer.client.request('DELETE', `/api/account/passkeys/${listed.id}`);
    expect(removed.json().passkeys).toEqual([]);
  });

  it('sign a fresh browser in, once per challenge, and record the use', async () => {
    const buyer = await buyerWithPasskey();
    const { client, challenge } = await loginChallenge();
    const assertion = buyer.passkey.assert(challenge);
    const response = await client.post('/api/auth/passkey/login', { credential: assertion });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.email).toBe(buyer.email);
    expect(await signedIn(client)).toBe(true);
    expect((await buyer.client.get('/api/account/passkeys')).json()[0].lastUsedAt).not.toBeNull();

    const replay = await (await t.client({ ip: uniqueIp() })).post('/api/auth/passkey/login', {
      credential: assertion,
    });
    expect(replay.statusCode).toBe(400);
  });

  it('refuse a forged assertion with a 400 and no session', async () => {
    const buyer = await buyerWithPasskey();
    const forgeries: Array<(challenge: string) => unknown> = [
      // A bad signature.
      (challenge) => {
        const assertion = buyer.passkey.assert(challenge);
        const signature = Buffer.from(assertion.response.signature, 'base64url');
        signature.writeUInt8(signature.readUInt8(signature.length - 1) ^ 1, signature.length - 1);
        return {
          ...assertion,
          response: { ...assertion.response, signature: signature.toString('base64url') },
        };
      },
      // A challenge this server never gave.
      () => buyer.passkey.assert(Buffer.from('a challenge nobody issued here').toString('base64url')),
      // A credential this server does not know.
      (challenge) => new SoftPasskey(ORIGIN).assert(challenge),
      // Another site's origin.
      (challenge) => buyer.passkey.assert(challenge, { origin: 'https://phishing.example' }),
      // A counter below the one last seen (a cloned authenticator): the server saw 2.
      (challenge) => {
        buyer.passkey.counter = 1;
        return buyer.passkey.assert(challenge, { advanceCounter: false });
      },
    ];
    buyer.passkey.counter = 1; // the authenticator has counted a use elsewhere: the honest sign-in reports 2
    const honest = await loginChallenge();
    expect(
      (
        await honest.client.post('/api/auth/passkey/login', {
          credential: buyer.passkey.assert(honest.challenge),
        })
      ).statusCode,
    ).toBe(200);
    for (const forge of forgeries) {
      const { client, challenge } = await loginChallenge();
      const response = await client.post('/api/auth/passkey/login', { credential: forge(challenge) });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('passkey_refused');
      expect(client.cookies.has('sessionid')).toBe(false);
      expect(await signedIn(client)).toBe(false);
    }
  });

  it('refuse a registration answered for a challenge of another session', async () => {
    const buyer = await signedInBuyer(t);
    const other = await signedInBuyer(t);
    const options = (await other.client.post('/api/account/passkeys/options', {})).json();
    const response = await buyer.client.post('/api/account/passkeys', {
      name: 'Stolen',
      credential: new SoftPasskey(ORIGIN).register(options),
    });
    expect(response.statusCode).toBe(400);
    expect((await buyer.client.get('/api/account/passkeys')).json()).toEqual([]);
  });

  it('refuse requests without the CSRF token', async () => {
    const buyer = await buyerWithPasskey();
    const [listed] = (await buyer.client.get('/api/account/passkeys')).json();
    buyer.client.sendCsrfHeader = false;
    expect((await buyer.client.request('DELETE', `/api/account/passkeys/${listed.id}`)).statusCode).toBe(403);
    const { client, challenge } = await loginChallenge();
    client.sendCsrfHeader = false;
    const login = await client.post('/api/auth/passkey/login', {
      credential: buyer.passkey.assert(challenge),
    });
    expect(login.statusCode).toBe(403);
    buyer.client.sendCsrfHeader = true;
    expect((await buyer.client.get('/api/account/passkeys')).json()).toHaveLength(1);
  });
});
