import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { appWithSmtp, shopTestAppForFile } from '../../../test/support/file-apps';
import { deliverDueMail } from '../../../test/support/mail';
import {
  addTool,
  buyTool,
  catalogueRows,
  createShopTestApp,
  downloadLinkIn,
  effectsOf,
  newBuyer,
} from '../../../test/support/shop-fixtures';
import { DOWNLOAD_LINK_VALID_MS } from '../../shared/constants';
import { licenses } from '../db/schema/licenses';
import { outbox } from '../db/schema/mail';
import { orderEvents, purchases } from '../db/schema/orders';
import { LICENSE_KEY_PATTERN } from '../licenses/create';
import { revealPassword } from '../licenses/secrets-at-rest';

const t = shopTestAppForFile();
let catalogue: Awaited<ReturnType<typeof catalogueRows>>;
beforeAll(async () => {
  catalogue = await catalogueRows(t);
});

/** The path part of an emailed download link, for app.inject. */
const pathOf = (link: string) => new URL(link).pathname;

async function purchaseWithLink(toolId = catalogue.windows.id) {
  const buyer = await newBuyer(t);
  const bought = await buyTool(t, buyer.client, toolId);
  const effects = await effectsOf(t, bought.order.id);
  const mail = effects.deliveries[0];
  if (!mail) throw new Error('no delivery email');
  return { ...buyer, ...bought, mail, link: downloadLinkIn(mail.text) };
}

describe('GET /api/downloads/:token', () => {
  it('streams the exact file bytes with a download filename, with or without a session', async () => {
    const { client, link } = await purchaseWithLink();
    const expected = await t.ctx.storage.read(catalogue.windows.fileKey ?? '');

    const response = await fetch(link, { redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="pdf-utility-toolkit-windows.zip"; filename*=UTF-8''pdf-utility-toolkit-windows.zip`,
    );
    expect(response.headers.get('content-length')).toBe(String(expected?.length));
    expect(response.headers.get('cache-control')).toContain('no-store');
    expect(Buffer.from(await response.arrayBuffer()).equals(expected ?? Buffer.alloc(0))).toBe(true);

    const withSession = await client.get(pathOf(link));
    expect(withSession.statusCode).toBe(200);
    expect(withSession.rawPayload.equals(expected ?? Buffer.alloc(0))).toBe(true);
  });

  it('sends an expired link to the invalid-link page', async () => {
    const { link } = await purchaseWithLink(catalogue.macos.id);
    t.clock.advance(DOWNLOAD_LINK_VALID_MS - 60_000);
    expect((await t.app.inject({ url: pathOf(link) })).statusCode).toBe(200);
    t.clock.advance(60_000);
    const expired = await t.app.inject({ url: pathOf(link) });
    expect(expired.statusCode).toBe(302);
    expect(expired.headers.location).toBe('/utility-tools/invalid-link');
  });

  it('sends unknown, malformed and foreign links to the invalid-link page', async () => {
    const { link } = await purchaseWithLink();
    const unknown = await t.app.inject({ url: `/api/downloads/${'A'.repeat(43)}` });
    expect(unknown.statusCode).toBe(302);
    expect(unknown.headers.location).toBe('/utility-tools/invalid-link');
    const malformed = await t.app.inject({ url: '/api/downloads/..%2F..%2Fetc%2Fpasswd' });
    expect(malformed.headers.location).toBe('/utility-tools/invalid-link');

    const stranger = await newBuyer(t);
    const foreign = await stranger.client.get(pathOf(link));
    expect(foreign.statusCode).toBe(302);
    expect(foreign.headers.location).toBe('/utility-tools/invalid-link');
    const foreignJson = await stranger.client.get(pathOf(link), { accept: 'application/json' });
    expect(foreignJson.statusCode).toBe(404);
  });

  it('stops working once the purchase is refunded', async () => {
    const { link, order } = await purchaseWithLink(catalogue.macos.id);
    await t.ctx.db
      .update(purchases)
      .set({ refundedAt: t.clock.now() })
      .where(eq(purchases.orderId, order.id));
    const response = await t.app.inject({ url: pathOf(link) });
    expect(response.headers.location).toBe('/utility-tools/invalid-link');
  });
});

describe('POST /api/send-tool-credentials/', () => {
  it('re-sends the same key with a fresh link to the owner', async () => {
    const { client, order, mail, link } = await purchaseWithLink();
    const response = await client.post('/api/send-tool-credentials/', { toolId: catalogue.windows.id });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'success', message: 'Credentials sent to your email!' });

    const { resends } = await effectsOf(t, order.id);
    expect(resends).toHaveLength(1);
    const key = /[2-9A-HJKMNP-Z]{5}(-[2-9A-HJKMNP-Z]{5}){3}/.exec(mail.text)?.[0];
    expect(key).toMatch(LICENSE_KEY_PATTERN);
    expect(resends[0]?.text).toContain(key);
    expect(resends[0]?.text).toContain('₹1,499.00');
    const freshLink = downloadLinkIn(resends[0]?.text ?? '');
    expect(freshLink).not.toBe(link);

    // The fresh link outlives the first one.
    t.clock.advance(DOWNLOAD_LINK_VALID_MS / 2);
    await client.post('/api/send-tool-credentials/', { toolId: catalogue.windows.id });
    const latest = (await effectsOf(t, order.id)).resends.at(-1);
    t.clock.advance(DOWNLOAD_LINK_VALID_MS / 2 + 1000);
    expect((await t.app.inject({ url: pathOf(link) })).statusCode).toBe(302);
    expect((await t.app.inject({ url: pathOf(downloadLinkIn(latest?.text ?? '')) })).statusCode).toBe(200);
    // The web's resend records itself on the order's history, as the operator's does.
    const events = await t.ctx.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(events.filter((event) => event.kind === 'resent').map((event) => event.detail)).toEqual([
      { source: 'web', outboxId: resends[0]?.id },
      { source: 'web', outboxId: latest?.id },
    ]);
  });

  it('answers 404 for a tool the caller has not bought, and 401 when logged out', async () => {
    const { user, client } = await newBuyer(t);
    const response = await client.post('/api/send-tool-credentials/', { toolId: catalogue.macos.id });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ status: 'error', message: 'You have not purchased this tool.' });
    const mails = await t.ctx.db.select().from(outbox).where(eq(outbox.to, user.email));
    expect(mails).toHaveLength(0);

    const anonymous = await (await t.client()).post('/api/send-tool-credentials/', {
      toolId: catalogue.macos.id,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('limits re-sends to five an hour per tool', async () => {
    const { client, order } = await purchaseWithLink(catalogue.macos.id);
    for (let i = 0; i < 5; i++) {
      expect(
        (await client.post('/api/send-tool-credentials/', { toolId: catalogue.macos.id })).statusCode,
      ).toBe(200);
    }
    const sixth = await client.post('/api/send-tool-credentials/', { toolId: catalogue.macos.id });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().message).toMatch(/try again later/);
    expect((await effectsOf(t, order.id)).resends).toHaveLength(5);
  });
});

describe('credentials delivery', () => {
  it('emails a username and password for a tool delivered as credentials', async () => {
    const tool = await addTool(t, { name: 'Online Ledger', delivery: 'credentials', priceInrPaise: 250_000 });
    const buyer = await newBuyer(t);
    const { order } = await buyTool(t, buyer.client, tool.id);
    const [license] = await t.ctx.db
      .select()
      .from(licenses)
      .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
      .where(eq(purchases.orderId, order.id));
    expect(license?.licenses.licenseKeySealed).toBeNull();
    expect(license?.licenses.username).toMatch(/^pca-[a-z2-9]{8}$/);
    const password = license && revealPassword(t.ctx.dataSecrets, license.licenses);
    expect(password).toHaveLength(16);

    const mail = (await effectsOf(t, order.id)).deliveries[0];
    expect(mail?.subject).toBe('Your Online Ledger sign-in details');
    expect(mail?.text).toContain(license?.licenses.username);
    expect(mail?.text).toContain(password);
    expect(mail?.text).toContain('₹2,500.00');
    // No file to download, so no link.
    expect(mail?.text).not.toContain('/api/downloads/');
  });
});

describe('SMTP down at purchase time', () => {
  const { t: shop, smtp } = appWithSmtp(createShopTestApp);

  it('commits the purchase and delivers the email once SMTP is back', async () => {
    const { windows } = await catalogueRows(shop);
    await smtp.stop();
    const buyer = await newBuyer(shop);
    const { order } = await buyTool(shop, buyer.client, windows.id);
    expect(order.status).toBe('paid');

    const down = await deliverDueMail(shop.ctx);
    expect(down).toMatchObject({ sent: 0, retried: 1 });
    expect((await effectsOf(shop, order.id)).purchases).toBe(1);

    await smtp.start();
    shop.clock.advance(2 * 60_000);
    const up = await deliverDueMail(shop.ctx);
    expect(up).toMatchObject({ sent: 1 });
    const received = await smtp.waitFor((mail) => mail.to.includes(buyer.user.email));
    expect(received.subject).toBe('Your PDF Utility Toolkit (Windows) license key');
    expect(received.text).toMatch(/[2-9A-HJKMNP-Z]{5}(-[2-9A-HJKMNP-Z]{5}){3}/);
    expect(received.text).toContain('₹1,499.00');
    expect(received.text).toContain(`${shop.baseUrl}/api/downloads/`);
  });
});
