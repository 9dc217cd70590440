import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { renderEmail } from './layout';
import { enqueueMail } from './outbox';

describe('dev mailbox', () => {
  let t: TestApp;
  let first: number;
  let second: number;

  beforeAll(async () => {
    t = await createTestApp();
    const welcome = renderEmail({
      subject: 'Welcome <friend>',
      heading: 'Welcome',
      blocks: [{ kind: 'code', label: 'Your code', text: '4821' }],
    });
    first = await enqueueMail(
      t.ctx,
      t.ctx.db,
      { to: 'ann@example.com', kind: 'signup-code', ...welcome },
      t.clock.now(),
    );
    t.clock.advance(1000);
    const receipt = renderEmail({ subject: 'Receipt', heading: 'Receipt', blocks: [] });
    second = await enqueueMail(
      t.ctx,
      t.ctx.db,
      { to: 'bob@example.com', kind: 'receipt', ...receipt },
      t.clock.now(),
    );
  });
  afterAll(() => t.close());

  it('lists queued messages newest first as JSON, with their text', async () => {
    const client = await t.client();
    const response = await client.get('/dev/mailbox.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const { messages } = response.json();
    expect(messages.map((m: { id: number }) => m.id)).toEqual([second, first]);
    expect(messages[1]).toMatchObject({
      to: 'ann@example.com',
      subject: 'Welcome <friend>',
      kind: 'signup-code',
      status: 'pending',
    });
    expect(messages[1].text).toContain('4821');
  });

  it('filters the JSON list by recipient and kind', async () => {
    const client = await t.client();
    const byTo = (await client.get('/dev/mailbox.json?to=bob%40example.com')).json();
    expect(byTo.messages.map((m: { id: number }) => m.id)).toEqual([second]);
    const byKind = (await client.get('/dev/mailbox.json?kind=signup-code')).json();
    expect(byKind.messages.map((m: { id: number }) => m.id)).toEqual([first]);
    expect((await client.get('/dev/mailbox.json?bogus=1')).statusCode).toBe(400);
  });

  it('shows the list as an HTML page with escaped subjects and no script', async () => {
    const client = await t.client();
    const response = await client.get('/dev/mailbox');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('Welcome &lt;friend&gt;');
    expect(response.body).toContain(`href="/dev/mailbox/${first}"`);
    expect(response.body).not.toContain('<script');
    expect(response.body.indexOf(`/dev/mailbox/${second}"`)).toBeLessThan(
      response.body.indexOf(`/dev/mailbox/${first}"`),
    );
  });

  it('shows one message with its HTML in a sandboxed frame and its text part', async () => {
    const client = await t.client();
    const response = await client.get(`/dev/mailbox/${first}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/<iframe[^>]*sandbox=""[^>]*srcdoc="&lt;!doctype html&gt;/);
    expect(response.body).toContain('4821');
    expect(response.body).not.toContain('<script');
  });

  it('answers 404 for an unknown message and 400 for a malformed id', async () => {
    const client = await t.client();
    expect((await client.get('/dev/mailbox/999999')).statusCode).toBe(404);
    expect((await client.get('/dev/mailbox/abc')).statusCode).toBe(400);
  });
});

describe('dev mailbox in production', () => {
  it('is not registered at all', async () => {
    const t = await createTestApp({
      env: {
        NODE_ENV: 'production',
        FIRM_LEGAL_NAME: 'Pinkcity Advisors LLP',
        FIRM_ADDRESS: 'MI Road, Jaipur, Rajasthan 302001',
        FIRM_GSTIN: '08AAPFP1234A1ZK',
        PUBLIC_URL: 'https://pinkcityadvisors.in',
        SMTP_URL: 'smtp://127.0.0.1:2525',
        RAZORPAY_KEY_ID: 'rzp_live_x',
        RAZORPAY_KEY_SECRET: 'secret',
        RAZORPAY_WEBHOOK_SECRET: 'webhook-secret',
      },
    });
    try {
      await enqueueMail(t.ctx, t.ctx.db, {
        to: 'ann@example.com',
        kind: 'x',
        subject: 'S',
        html: '',
        text: 'T',
      });
      const client = await t.client();
      for (const url of ['/dev/mailbox', '/dev/mailbox.json', '/dev/mailbox/1']) {
        expect((await client.get(url)).statusCode).toBe(404);
      }
    } finally {
      await t.close();
    }
  });
});
