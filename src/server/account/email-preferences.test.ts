import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/support/client';
import { signedInBuyer } from '../../../test/support/dashboard-helpers';
import { testAppForFile } from '../../../test/support/file-apps';
import { users } from '../db/schema/accounts';
import { unsubscribeToken, unsubscribeUrls } from './email-preferences';

const t = testAppForFile();

/** The four optional emails of an account: all on, as a new account has them, but for those `off`. */
const preferences = (
  off: Partial<Record<'releases' | 'trials' | 'checkoutReminders' | 'renewalReminders', false>> = {},
) => ({
  releases: true,
  trials: true,
  checkoutReminders: true,
  renewalReminders: true,
  ...off,
});

/** The account's optional emails as its page reads them. */
const preferencesOf = async (client: TestClient) =>
  (await client.get('/api/account/email-preferences')).json();

async function buyerWithToken(topic: 'releases' | 'trials') {
  const buyer = await signedInBuyer(t);
  const [user] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, buyer.email));
  const userId = user?.id ?? '';
  return { ...buyer, userId, token: unsubscribeToken(t.ctx.dataSecrets, userId, topic) };
}

describe('email preferences', () => {
  it('are on by default and change only for the signed-in account, with the CSRF token', async () => {
    const buyer = await signedInBuyer(t);
    expect(await preferencesOf(buyer.client)).toEqual(preferences());

    buyer.client.sendCsrfHeader = false;
    const forged = await buyer.client.request('PATCH', '/api/account/email-preferences', { trials: false });
    expect(forged.statusCode).toBe(403);
    buyer.client.sendCsrfHeader = true;

    const changed = await buyer.client.request('PATCH', '/api/account/email-preferences', { trials: false });
    expect(changed.json()).toEqual(preferences({ trials: false }));
    const bad = await buyer.client.request('PATCH', '/api/account/email-preferences', { trials: 'no' });
    expect(bad.statusCode).toBe(400);
    expect(await preferencesOf(buyer.client)).toEqual(preferences({ trials: false }));

    const stranger = await t.client();
    expect((await stranger.get('/api/account/email-preferences')).statusCode).toBe(401);
  });

  it('one-click unsubscribe works signed out, without a CSRF token, for that topic only (RFC 8058)', async () => {
    const buyer = await buyerWithToken('releases');
    const urls = unsubscribeUrls(t.ctx, buyer.userId, 'releases');
    expect(urls.oneClick).toContain('/api/account/unsubscribe?token=');

    const mailProvider = await t.client();
    mailProvider.sendCsrfHeader = false;
    const described = await mailProvider.get(
      `/api/account/unsubscribe?token=${encodeURIComponent(buyer.token)}`,
    );
    expect(described.json()).toEqual({ topic: 'releases' });
    expect(await preferencesOf(buyer.client)).toEqual(preferences());

    const response = await mailProvider.post(
      `/api/account/unsubscribe?token=${encodeURIComponent(buyer.token)}`,
      'List-Unsubscribe=One-Click',
      { 'content-type': 'application/x-www-form-urlencoded' },
    );
    expect(response.statusCode).toBe(200);
    expect(await preferencesOf(buyer.client)).toEqual(preferences({ releases: false }));
  });

  it('refuses a forged or altered token and changes nothing', async () => {
    const buyer = await buyerWithToken('trials');
    const other = await buyerWithToken('trials');
    const swapped = buyer.token.replace(buyer.userId, other.userId);
    const otherTopic = buyer.token.replace('.trials.', '.releases.');
    for (const token of [swapped, otherTopic, 'x', `${buyer.token}.extra`]) {
      const response = await (await t.client()).post(
        `/api/account/unsubscribe?token=${encodeURIComponent(token)}`,
        {},
      );
      expect(response.statusCode, token).toBe(400);
      expect(response.json()).toMatchObject({ message: 'This unsubscribe link is not valid.' });
    }
    expect(await preferencesOf(other.client)).toEqual(preferences());
    expect(await preferencesOf(buyer.client)).toEqual(preferences());
  });
});
