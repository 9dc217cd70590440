import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { appWithSmtp } from '../../../test/support/file-apps';
import { deliverDueMail, openedMails } from '../../../test/support/mail';
import { CONTACT_MESSAGES } from '../../shared/contact';
import { SITE } from '../../shared/site';
import { contactMessages } from '../db/schema/contact';
import { outbox } from '../db/schema/mail';
import { RETRY_DELAYS_MS } from '../mail/worker';
import { CONTACT_LIMIT } from './routes';

const valid = {
  name: '  Asha Verma ',
  organisation: ' Verma Textiles ',
  email: ' asha@example.in ',
  relatedTo: 'Services',
  description: '  We need help with GST filings for two branches.\nCan we talk next week?  ',
};

async function storedCounts(t: TestApp) {
  const messages = await t.ctx.db.select().from(contactMessages);
  const mails = await t.ctx.db.select().from(outbox);
  return { messages: messages.length, mails: mails.length };
}

describe('POST /api/contact', () => {
  let t: TestApp;
  let ip = 0;
  /** Each test posts from its own address so the hourly limit of one test never leaks into another. */
  const client = () => t.client({ ip: `203.0.113.${++ip}` });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.ctx.db.delete(outbox);
    await t.ctx.db.delete(contactMessages);
  });

  it('refuses a request without the X-CSRFToken header and stores nothing', async () => {
    const c = await client();
    c.sendCsrfHeader = false;
    const response = await c.post('/api/contact', valid);
    expect(response.statusCode).toBe(403);
    expect(await storedCounts(t)).toEqual({ messages: 0, mails: 0 });
  });

  it('stores the trimmed message and queues the firm notification and the acknowledgement', async () => {
    const c = await client();
    const response = await c.post('/api/contact', valid);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'success',
      message: "We'll get back to you as soon as possible.",
    });

    const [stored, ...others] = await t.ctx.db.select().from(contactMessages);
    expect(others).toHaveLength(0);
    expect(stored).toMatchObject({
      name: 'Asha Verma',
      organisation: 'Verma Textiles',
      email: 'asha@example.in',
      relatedTo: 'Services',
      description: 'We need help with GST filings for two branches.\nCan we talk next week?',
      ip: `203.0.113.${ip}`,
      createdAt: t.clock.now(),
    });

    const mails = openedMails(t.ctx, await t.ctx.db.select().from(outbox).orderBy(outbox.id));
    expect(mails.map((m) => [m.kind, m.to, m.status, m.ref])).toEqual([
      ['contact-notification', SITE.email, 'pending', `contact:${stored?.id}`],
      ['contact-acknowledgement', 'asha@example.in', 'pending', `contact:${stored?.id}`],
    ]);
    const [notification, acknowledgement] = mails;
    expect(notification?.text).toContain(
      'We need help with GST filings for two branches.\nCan we talk next week?',
    );
    expect(notification?.text).toContain('Verma Textiles');
    expect(acknowledgement?.text).not.toContain('GST filings');
  });

  it('leaves an empty organisation out rather than storing an empty string', async () => {
    const c = await client();
    const { organisation: _, ...withoutOrganisation } = valid;
    expect((await c.post('/api/contact', withoutOrganisation)).statusCode).toBe(200);
    const [stored] = await t.ctx.db.select().from(contactMessages);
    expect(stored?.organisation).toBeNull();
  });

  it('never lets what a visitor typed become HTML in an email', async () => {
    const c = await client();
    const response = await c.post('/api/contact', {
      ...valid,
      name: '<img src=x onerror=alert(1)>',
      description: '<script>alert("x")</script> & <b>bold</b>',
    });
    expect(response.statusCode).toBe(200);
    const [notification] = openedMails(
      t.ctx,
      await t.ctx.db.select().from(outbox).where(eq(outbox.kind, 'contact-notification')),
    );
    expect(notification?.html).not.toMatch(/<script|<img|<b>/);
    expect(notification?.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;');
    expect(notification?.text).toContain('<script>alert("x")</script> & <b>bold</b>');
  });

  it.each([
    ['an empty name', { name: '   ' }, 'name', CONTACT_MESSAGES.nameRequired],
    ['a missing email', { email: undefined }, 'email', CONTACT_MESSAGES.emailRequired],
    ['a malformed email', { email: 'abc' }, 'email', CONTACT_MESSAGES.emailInvalid],
    ['a missing topic', { relatedTo: undefined }, 'relatedTo', CONTACT_MESSAGES.relatedToRequired],
    ['an unknown topic', { relatedTo: 'Jobs' }, 'relatedTo', CONTACT_MESSAGES.relatedToRequired],
    ['a blank description', { description: ' \n ' }, 'description', CONTACT_MESSAGES.descriptionRequired],
  ])('answers %s with 400 and the spec message, storing nothing', async (_case, change, field, message) => {
    const c = await client();
    const response = await c.post('/api/contact', { ...valid, ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors[field]).toBe(message);
    expect(await storedCounts(t)).toEqual({ messages: 0, mails: 0 });
  });

  it('lists every bad field at once', async () => {
    const c = await client();
    const response = await c.post('/api/contact', { name: '', email: 'abc', relatedTo: '', description: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({
      name: CONTACT_MESSAGES.nameRequired,
      email: CONTACT_MESSAGES.emailInvalid,
      relatedTo: CONTACT_MESSAGES.relatedToRequired,
      description: CONTACT_MESSAGES.descriptionRequired,
    });
  });

  it('rejects unknown fields', async () => {
    const c = await client();
    const response = await c.post('/api/contact', { ...valid, phone: '123' });
    expect(response.statusCode).toBe(400);
    expect(await storedCounts(t)).toEqual({ messages: 0, mails: 0 });
  });

  it('rejects a description longer than the limit', async () => {
    const c = await client();
    const response = await c.post('/api/contact', { ...valid, description: 'x'.repeat(5001) });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.description).toBe('Must be at most 5000 characters');
  });

  it('answers a body over 64 KB with 413', async () => {
    const c = await client();
    const response = await c.post('/api/contact', { ...valid, description: 'x'.repeat(70 * 1024) });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'payload_too_large' });
    expect(await storedCounts(t)).toEqual({ messages: 0, mails: 0 });
  });

  it.each([
    ['malformed JSON', '{"name": "A",', 'application/json'],
    ['a JSON array', '[1, 2]', 'application/json'],
    ['JSON null', 'null', 'application/json'],
    ['an empty JSON body', '', 'application/json'],
  ])('answers %s with 400, never 500', async (_case, payload, contentType) => {
    const c = await client();
    const response = await c.post('/api/contact', payload, { 'content-type': contentType });
    expect(response.statusCode).toBe(400);
    expect(await storedCounts(t)).toEqual({ messages: 0, mails: 0 });
  });

  it('answers a body of an unsupported type with 415, and plain text with 400', async () => {
    const c = await client();
    const response = await c.post('/api/contact', '<name>A</name>', { 'content-type': 'application/xml' });
    expect(response.statusCode).toBe(415);
    const text = await c.post('/api/contact', 'name=A', { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(400);
  });

  it('tells a bot that fills the honeypot it succeeded, and stores and sends nothing', async () => {
    const c = await client();
    const response = await c.post('/api/contact', { ...valid, website: 'https://spam.example' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'success', message: CONTACT_MESSAGES.success });
    expect(await storedCounts(t)).toEqual({ messages: 0, mails: 0 });
  });

  it('allows 5 messages an hour from one address, then 429 until the next hour', async () => {
    const c = await client();
    for (let i = 0; i < CONTACT_LIMIT.limit; i++) {
      expect((await c.post('/api/contact', valid)).statusCode).toBe(200);
    }
    const refused = await c.post('/api/contact', valid);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(
      'Too many messages from this address. Please try again later or contact us by phone or email.',
    );
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await storedCounts(t)).toEqual({ messages: 5, mails: 10 });

    const neighbour = await client();
    expect((await neighbour.post('/api/contact', valid)).statusCode).toBe(200);

    t.clock.advance(60 * 60 * 1000);
    expect((await c.post('/api/contact', valid)).statusCode).toBe(200);
    expect(await storedCounts(t)).toEqual({ messages: 7, mails: 14 });
  });

  it('does not count rejected or honeypot submissions against the limit', async () => {
    const c = await client();
    for (let i = 0; i < 6; i++) await c.post('/api/contact', { ...valid, email: 'abc' });
    for (let i = 0; i < 6; i++) await c.post('/api/contact', { ...valid, website: 'x' });
    expect((await c.post('/api/contact', valid)).statusCode).toBe(200);
  });

  it('addresses the firm notification to MAIL_TO_FIRM when it is set', async () => {
    const other = await createTestApp({ env: { MAIL_TO_FIRM: 'enquiries@firm.example' } });
    try {
      const c = await other.client();
      expect((await c.post('/api/contact', valid)).statusCode).toBe(200);
      const [notification] = await other.ctx.db
        .select()
        .from(outbox)
        .where(eq(outbox.kind, 'contact-notification'));
      expect(notification?.to).toBe('enquiries@firm.example');
    } finally {
      await other.close();
    }
  });
});

describe('contact emails over SMTP', () => {
  const { t, smtp } = appWithSmtp(createTestApp, { each: true });

  it('delivers the notification to the firm and the acknowledgement to the sender', async () => {
    const c = await t.client();
    expect((await c.post('/api/contact', valid)).statusCode).toBe(200);
    expect(await deliverDueMail(t.ctx)).toMatchObject({ sent: 2, retried: 0, failed: 0 });

    const notification = await smtp.waitFor((mail) => mail.to.includes(SITE.email));
    expect(notification.subject).toBe('New enquiry (Services) from Asha Verma');
    expect(notification.from).toBe('no-reply@pinkcityadvisors.in');
    expect(notification.text).toContain('We need help with GST filings for two branches.');
    expect(notification.text).toContain('asha@example.in');

    const acknowledgement = await smtp.waitFor((mail) => mail.to.includes('asha@example.in'));
    expect(acknowledgement.subject).toBe(`We received your message — ${SITE.name}`);
    expect(acknowledgement.text).toContain("We'll get back to you as soon as possible.");
    expect(smtp.messages).toHaveLength(2);

    const rows = await t.ctx.db.select().from(outbox);
    expect(
      rows.every((row) => row.status === 'sent' && row.sentAt?.getTime() === t.clock.now().getTime()),
    ).toBe(true);
  });

  it('keeps the message while SMTP is down and delivers it exactly once when it is back', async () => {
    const port = smtp.port;
    await smtp.stop();

    const c = await t.client();
    expect((await c.post('/api/contact', valid)).statusCode).toBe(200);
    expect(await t.ctx.db.select().from(contactMessages)).toHaveLength(1);

    expect(await deliverDueMail(t.ctx)).toMatchObject({ claimed: 2, sent: 0, retried: 2 });
    for (const row of await t.ctx.db.select().from(outbox)) {
      expect(row.status).toBe('pending');
      expect(row.attempts).toBe(1);
      expect(row.lastError).toMatch(/ECONNREFUSED|ESOCKET|connect/i);
      expect(row.nextAttemptAt.getTime()).toBe(t.clock.now().getTime() + (RETRY_DELAYS_MS[0] ?? 0));
    }

    await smtp.start(port);
    expect(await deliverDueMail(t.ctx)).toMatchObject({ claimed: 0 });
    t.clock.advance(RETRY_DELAYS_MS[0] ?? 0);
    expect(await deliverDueMail(t.ctx)).toMatchObject({ claimed: 2, sent: 2 });
    t.clock.advance(24 * 60 * 60 * 1000);
    expect(await deliverDueMail(t.ctx)).toMatchObject({ claimed: 0 });

    expect(smtp.messages.map((mail) => mail.to)).toEqual([[SITE.email], ['asha@example.in']]);
    for (const row of await t.ctx.db.select().from(outbox)) {
      expect(row).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    }
  });
});
