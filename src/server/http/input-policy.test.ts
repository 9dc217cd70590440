import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { testAppForFile } from '../../../test/support/file-apps';
import { multipartBody } from '../../../test/support/forms';
import { INPUT_MESSAGES, MAX_INPUT_DEPTH } from '../../shared/input-policy';
import { contactMessages } from '../db/schema/contact';
import { webhookEvents } from '../db/schema/payments';
import { webhookSignature } from '../payments/signatures';
import { WEBHOOK_PATH } from '../payments/webhook';
import { FORM_BODY_LIMIT } from './form-data';

const t = testAppForFile();

describe('hostile bytes', () => {
  it('refuses NUL in a contact name with a field error and stores nothing', async () => {
    const client = await t.client({ ip: '10.9.0.1' });
    const response = await client.post('/api/contact', {
      name: 'a\u0000b',
      email: 'eve@example.com',
      relatedTo: 'Other',
      description: 'hello',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ name: INPUT_MESSAGES.controlCharacter });
    expect(await t.ctx.db.select().from(contactMessages)).toHaveLength(0);
  });

  it('refuses a lone surrogate deep in a JSON body', async () => {
    const client = await t.client({ ip: '10.9.0.2' });
    const response = await client.post(
      '/api/create-payment/',
      '{"toolId":"00000000-0000-4000-8000-000000000000","currency":"INR","billingDetails":{"address":"\\ud800","currency":"INR"}}',
      { 'content-type': 'application/json' },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ 'billingDetails.address': INPUT_MESSAGES.invalidText });
  });

  it('refuses NUL in a path parameter instead of handing it to the database', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/downloads/abc%00def' });
    expect(response.statusCode).toBe(400);
  });

  it('answers 413 to an oversize multipart form, declared or streamed, as it does to urlencoded', async () => {
    const client = await t.client({ ip: '10.9.0.3' });
    const huge = 'x'.repeat(1024 * 1024);
    const form = multipartBody({ email: 'eve@example.com', password: huge });
    /** The form sent as a stream, with no length declared for the limit to read up front. */
    const streamedLogin = (body: ReturnType<typeof multipartBody>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        headers: {
          'content-type': body.contentType,
          'x-csrftoken': client.csrfToken ?? '',
          cookie: `csrftoken=${client.csrfToken}`,
        },
        payload: Readable.from([body.body]),
        remoteAddress: '10.9.0.3',
      });
    const declared = await client.post('/api/auth/login/', form.body.toString('utf8'), {
      'content-type': form.contentType,
    });
    expect(declared.statusCode).toBe(413);
    expect(declared.json().code).toBe('payload_too_large');

    const streamed = await streamedLogin(form);
    expect(streamed.statusCode).toBe(413);

    const justOver = multipartBody({ email: 'eve@example.com', password: 'y'.repeat(FORM_BODY_LIMIT) });
    const over = await streamedLogin(justOver);
    expect(over.statusCode).toBe(413);

    const urlencoded = await client.post(
      '/api/auth/login/',
      new URLSearchParams({ email: 'e@x.io', password: huge }),
    );
    expect(urlencoded.statusCode).toBe(413);
  });

  it('refuses NUL in a multipart field the same way as in JSON', async () => {
    const client = await t.client({ ip: '10.9.0.4' });
    const form = multipartBody({ email: 'eve\u0000@example.com', password: 'whatever1' });
    const response = await client.post('/api/auth/login/', form.body.toString('utf8'), {
      'content-type': form.contentType,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ email: INPUT_MESSAGES.controlCharacter });
  });

  it('answers 400 to a signed webhook whose strings hold NUL or a lone surrogate, and records no event', async () => {
    for (const id of ['pay_\\u0000x', 'pay_\\ud800']) {
      const raw = `{"event":"payment.captured","payload":{"payment":{"entity":{"id":"${id}","order_id":"order_x","amount":100,"currency":"INR"}}}}`;
      const response = await t.app.inject({
        method: 'POST',
        url: WEBHOOK_PATH,
        headers: {
          'content-type': 'application/json',
          'x-razorpay-signature': webhookSignature(t.config.razorpay.webhookSecret ?? '', raw),
          'x-razorpay-event-id': `evt_hostile_${id.length}`,
        },
        payload: raw,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('invalid_event');
    }
    expect(await t.ctx.db.select().from(webhookEvents)).toHaveLength(0);
  });
});

describe('deeply nested bodies', () => {
  const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const BODY_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
  const takesBody = (method: string): method is (typeof BODY_METHODS)[number] =>
    (BODY_METHODS as readonly string[]).includes(method);
  const bodyRoutes = () =>
    t.routes.flatMap(({ method, url }) => (takesBody(method) ? [{ method, url }] : []));
  const urlOf = (url: string) => url.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');

  it('are refused on every route that takes a body, never with a 500; the policy answers 400 naming the field', async () => {
    const client = await t.client({ ip: '10.9.0.20' });
    const answers: string[] = [];
    for (const route of bodyRoutes()) {
      for (const body of [deepArray(10_000), deepObject(10_000), `{"name":${deepArray(10_000)}}`]) {
        const response = await client.request(route.method, urlOf(route.url), body, {
          'content-type': 'application/json',
        });
        answers.push(`${route.method} ${route.url} ${response.statusCode}`);
        expect(response.statusCode, `${route.method} ${route.url}: ${response.body}`).toBeLessThan(500);
      }
    }
    expect(answers.length).toBeGreaterThan(30);
    // Routes that read no body schema of their own are answered by the policy itself.
    const logout = await client.post('/api/auth/logout/', deepArray(10_000), {
      'content-type': 'application/json',
    });
    expect(logout.statusCode).toBe(400);
    expect(logout.json().message).toBe(INPUT_MESSAGES.tooDeep(MAX_INPUT_DEPTH));
    const object = await client.post('/api/account/passkeys/options', deepObject(10_000), {
      'content-type': 'application/json',
    });
    expect(object.statusCode).toBe(400);
    expect(Object.keys(object.json().fieldErrors)[0]).toMatch(/^(a\.)+a$/);
  }, 120_000);

  it('refuses 100,000 levels, sent with or without a length, before any handler sees them', async () => {
    const client = await t.client({ ip: '10.9.0.21' });
    for (const body of [deepArray(100_000), deepObject(100_000)]) {
      const declared = await client.post('/api/auth/logout/', body, { 'content-type': 'application/json' });
      expect(declared.statusCode).toBe(413);
      const streamed = await t.app.inject({
        method: 'POST',
        url: '/api/licenses/validate',
        headers: { 'content-type': 'application/json' },
        payload: Readable.from([Buffer.from(body)]),
      });
      expect(streamed.statusCode).toBe(413);
    }
  });

  it('walks a body of many shallow fields, the limit counting depth only', async () => {
    const client = await t.client({ ip: '10.9.0.22' });
    const wide = JSON.stringify({ list: Array.from({ length: 5_000 }, () => ['ok']) });
    const response = await client.post('/api/auth/logout/', wide, { 'content-type': 'application/json' });
    expect(response.statusCode).toBeLessThan(300);
  });
});
