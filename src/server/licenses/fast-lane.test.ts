import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { licenseActivations, licenses } from '../db/schema';
import { createTestApp, type TestApp } from '../test-support/app';
import { fingerprint, type LicensedPurchase, licensedPurchase } from '../test-support/license-fixtures';
import { VALIDATE_PATH } from './fast-lane';

/**
 * The fast lane sits on the HTTP server, which `app.inject` never passes through: these tests send real requests
 * to the app listening on a port, and count what reaches Fastify to tell which of the two answered.
 */
let t: TestApp;
let base: string;
let reachedFastify = 0;
let address = 0;

beforeAll(async () => {
  t = await createTestApp({
    env: { TRUST_PROXY: 'true' },
    prepare: (app) =>
      app.addHook('onRequest', async (request) => {
        if (request.url.startsWith(VALIDATE_PATH)) reachedFastify += 1;
      }),
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());
// A new minute for every test: each starts with fresh limits.
beforeEach(() => t.clock.advance(60_000));

type Sent = { status: number; headers: IncomingHttpHeaders; text: string };

/** One POST over a real connection; a body given as chunks is sent chunked, with no declared length. */
function post(
  body: string | string[],
  options: { path?: string; contentType?: string; from?: string } = {},
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      'content-type': options.contentType ?? 'application/json',
      'x-forwarded-for': options.from ?? `10.9.${Math.floor(address / 250)}.${(address++ % 250) + 1}`,
    };
    if (typeof body === 'string') headers['content-length'] = String(Buffer.byteLength(body));
    const sent = httpRequest(
      `${base}${options.path ?? VALIDATE_PATH}`,
      { method: 'POST', headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    sent.on('error', reject);
    for (const chunk of [body].flat()) sent.write(chunk);
    sent.end();
  });
}

/** What reached Fastify while `send` ran. */
async function throughFastify<T>(send: () => Promise<T>): Promise<{ result: T; reached: number }> {
  const before = reachedFastify;
  const result = await send();
  return { result, reached: reachedFastify - before };
}

const withoutDate = ({ date: _date, ...headers }: IncomingHttpHeaders) => headers;

async function activated(): Promise<{ purchase: LicensedPurchase; body: string; machine: string }> {
  const purchase = await licensedPurchase(t.ctx.db);
  const machine = fingerprint('lane');
  const request = { licenseKey: purchase.licenseKey, toolId: purchase.toolId, fingerprint: machine };
  const activation = await post(JSON.stringify(request), { path: '/api/licenses/activate' });
  expect(JSON.parse(activation.text)).toMatchObject({ valid: true, code: 'VALID' });
  return { purchase, body: JSON.stringify(request), machine };
}

describe('the license API fast lane', () => {
  it('answers a repeated validate from memory with the very bytes and headers the route sent', async () => {
    const { body } = await activated();
    const first = await throughFastify(() => post(body));
    expect(first.reached).toBe(1);
    expect(first.result.status).toBe(200);
    expect(JSON.parse(first.result.text)).toMatchObject({ valid: true, code: 'VALID' });

    const again = await throughFastify(() => post(body));
    expect(again.reached).toBe(0);
    expect(again.result.status).toBe(200);
    expect(again.result.text).toBe(first.result.text);
    expect(withoutDate(again.result.headers)).toEqual(withoutDate(first.result.headers));
    expect(again.result.headers).toMatchObject({
      'cache-control': 'no-store',
      'content-type': 'application/json; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    });

    // The same request spelt differently is new to the lane: the route answers it, the same way.
    const spaced = await throughFastify(() => post(` ${body}`));
    expect(spaced.reached).toBe(1);
    expect(JSON.parse(spaced.result.text)).toMatchObject({ valid: true, code: 'VALID' });
  });

  it('forgets an answer as soon as the machine is freed, and lets the route write "last seen" when it is due', async () => {
    const { purchase, body, machine } = await activated();
    await post(body);
    const lastSeen = async () =>
      (
        await t.ctx.db
          .select({ at: licenseActivations.lastSeenAt })
          .from(licenseActivations)
          .where(eq(licenseActivations.fingerprint, machine))
      )[0]?.at?.getTime();
    const seenFirst = await lastSeen();

    t.clock.advance(5 * 60 * 1000);
    const due = await throughFastify(() => post(body));
    expect(due.reached).toBe(1);
    expect(JSON.parse(due.result.text)).toMatchObject({ valid: true, code: 'VALID' });
    expect(await lastSeen()).toBe(t.clock.now().getTime());
    expect(await lastSeen()).not.toBe(seenFirst);
    expect((await throughFastify(() => post(body))).reached).toBe(0);

    const freed = await post(body, { path: '/api/licenses/deactivate' });
    expect(JSON.parse(freed.text)).toMatchObject({ code: 'NOT_ACTIVATED', deactivated: true });
    const after = await throughFastify(() => post(body));
    expect(after.reached).toBe(1);
    expect(JSON.parse(after.result.text)).toMatchObject({ valid: false, code: 'NOT_ACTIVATED' });
    expect(purchase.licenseKey).toBeTruthy();
  });

  it('stops answering from memory within 2 seconds of a change made elsewhere (here, plain SQL)', async () => {
    const { purchase, body } = await activated();
    await post(body);
    expect((await throughFastify(() => post(body))).reached).toBe(0);
    await t.ctx.db.update(licenses).set({ status: 'revoked' }).where(eq(licenses.id, purchase.licenseId));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const after = await throughFastify(() => post(body));
    expect(after.reached).toBe(1);
    expect(JSON.parse(after.result.text)).toEqual({ valid: false, code: 'REVOKED' });
  });

  it('counts its answers against the same per-key limit as the route, and refuses the 61st call alike', async () => {
    const { body } = await activated();
    // The activation was the key's first call this minute.
    const statuses: number[] = [];
    for (let call = 0; call < 59; call++) statuses.push((await post(body)).status);
    expect(statuses.every((status) => status === 200)).toBe(true);

    const refused = await throughFastify(() => post(body));
    expect(refused.reached).toBe(0);
    expect(refused.result.status).toBe(429);
    expect(Number(refused.result.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.result.headers['cache-control']).toBe('no-store');
    const answer = JSON.parse(refused.result.text);
    expect(answer).toMatchObject({ valid: false, code: 'rate_limited' });

    // The route, sent the same key in another spelling, gives the same refusal.
    const viaRoute = await throughFastify(() => post(` ${body}`));
    expect(viaRoute.reached).toBe(1);
    expect(viaRoute.result.status).toBe(429);
    expect(JSON.parse(viaRoute.result.text)).toEqual(answer);
  });

  it('counts against the caller’s address as the route does (TRUST_PROXY: the forwarded address)', async () => {
    const from = '10.200.0.1';
    const bodies = await Promise.all([activated(), activated(), activated()]);
    let answered = 0;
    // Every body answered once by the route, then from memory, all from one address: 120 a minute in all.
    for (let call = 0; call < 120; call++) {
      const { status } = await post(bodies[call % 3]?.body ?? '', { from });
      if (status === 200) answered += 1;
    }
    expect(answered).toBe(120);
    const refused = await throughFastify(() => post(bodies[0]?.body ?? '', { from }));
    expect(refused.result.status).toBe(429);
    expect(refused.reached).toBe(0);
    expect((await post(bodies[0]?.body ?? '', { from: '10.200.0.2' })).status).toBe(200);
  });

  it('hands the route what it does not take, and the route answers it as before', async () => {
    const { body } = await activated();
    await post(body);

    // A body it read but cannot answer from memory: the route parses what the lane read.
    const broken = await throughFastify(() => post(body.slice(0, -1)));
    expect(broken.reached).toBe(1);
    expect(broken.result.status).toBe(400);
    expect(JSON.parse(broken.result.text)).toEqual({
      valid: false,
      code: 'bad_request',
      message: 'The request body is not valid JSON.',
    });
    const hostile = await post(JSON.stringify({ ...JSON.parse(body), name: 'PC\u0000' }));
    expect(hostile.status).toBe(400);
    expect(JSON.parse(hostile.text)).toMatchObject({ valid: false });
    const badField = await throughFastify(() =>
      post(JSON.stringify({ ...JSON.parse(body), fingerprint: 'x' })),
    );
    expect(badField.result.status).toBe(400);
    expect(JSON.parse(badField.result.text).fieldErrors).toHaveProperty('fingerprint');

    // Requests it never reads: chunked, another content type, a query string, too large a declared body.
    const chunked = await throughFastify(() => post([body.slice(0, 20), body.slice(20)]));
    expect(chunked.reached).toBe(1);
    expect(chunked.result.text).toBe((await post(body)).text);
    const text = await throughFastify(() => post(body, { contentType: 'text/plain' }));
    expect(text.reached).toBe(1);
    expect(text.result.status).toBe(415);
    const query = await throughFastify(() => post(body, { path: `${VALIDATE_PATH}?x=1` }));
    expect(query.reached).toBe(1);
    expect(JSON.parse(query.result.text)).toMatchObject({ valid: true, code: 'VALID' });
    // Refused by the app's declared-size check, before any route.
    const large = await post(body.padEnd(5000, ' '));
    expect(large.status).toBe(413);
    expect(JSON.parse(large.text)).toMatchObject({ code: 'payload_too_large' });
  });

  it('survives a caller that leaves in the middle of its body', async () => {
    const { body } = await activated();
    await new Promise<void>((resolve) => {
      const sent = httpRequest(`${base}${VALIDATE_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      });
      sent.on('error', () => resolve());
      sent.write(body.slice(0, 10), () => {
        sent.destroy();
        resolve();
      });
    });
    const next = await post(body);
    expect(next.status).toBe(200);
  });
});
