import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app';
import type { RegisteredRoute } from './app';
import { SITE_MANIFEST } from './site/static';

/**
 * Issue 49 (docs/decisions/053-house-layout.md, "Schemas on routes"): every route declares a schema for the input it
 * takes, so Fastify validates it and the handler reads it typed. A route takes path parameters when its URL names
 * one, and a body or a query when its handler reads `request.body` or `request.query`. The walk is over every route
 * the app registered (Fastify's `onRoute`), the development-only ones (the Razorpay emulator, the dev mailbox)
 * included.
 *
 * Issue 62 (docs/decisions/065-every-route-declares-its-answers.md): every route declares its answers too, so each is
 * serialised from its schema and the OpenAPI document can show it. The app is built with everything a route may
 * depend on: the metrics token (GET /metrics) and a built site (its pages' routes).
 */

let t: TestApp;
let siteDir: string;

beforeAll(async () => {
  siteDir = mkdtempSync(path.join(tmpdir(), 'route-schemas-site-'));
  writeFileSync(
    path.join(siteDir, SITE_MANIFEST),
    JSON.stringify({ pages: { '/': 'index.html', '/Contact': 'Contact.html' }, notFound: '404.html' }),
  );
  for (const page of ['index.html', 'Contact.html', '404.html'])
    writeFileSync(path.join(siteDir, page), `<!doctype html><title>${page}</title>`);
  t = await createTestApp({ env: { METRICS_TOKEN: 'route-schemas-metrics-token' }, siteDir });
}, 120_000);

afterAll(async () => {
  await t?.close();
  rmSync(siteDir, { recursive: true, force: true });
});

type Part = 'params' | 'querystring' | 'body';

/**
 * The Razorpay emulator stands in for Razorpay's API: it refuses a body in Razorpay's own error shape
 * (`{error: {code, description, field}}`), which the gateway reads as it reads Razorpay's, so its handlers parse
 * their bodies themselves. Its path parameters are declared like every other route's.
 */
const RAZORPAY_SHAPED = /^\/emulator\/razorpay\//;

function missing(route: RegisteredRoute): Part[] {
  const source = String(route.handler);
  const takes: Record<Part, boolean> = {
    params: route.url.includes('/:'),
    querystring: /\.query\b/.test(source),
    body: /\.body\b/.test(source) && !RAZORPAY_SHAPED.test(route.url),
  };
  return (Object.keys(takes) as Part[]).filter((part) => takes[part] && !route.schema?.[part]);
}

/** What is wrong with a route's declared answers: none declared, or only refusals (no 2xx or 3xx answer). */
function undeclaredAnswers(route: RegisteredRoute): string | undefined {
  const statuses = Object.keys(route.schema?.response ?? {});
  if (statuses.length === 0) return 'no response schema';
  if (!statuses.some((status) => /^[23]/.test(status))) return 'no 2xx or 3xx answer';
  return undefined;
}

describe('route schemas', () => {
  it('are declared for the params, query and body of every route that takes them', () => {
    const routes = t.routes.filter((route) => route.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(100);
    const undeclared = routes
      .map((route) => ({ route, parts: missing(route) }))
      .filter(({ parts }) => parts.length > 0)
      .map(({ route, parts }) => `${route.method} ${route.url}: ${parts.join(', ')}`);
    expect(undeclared).toEqual([]);
  });

  it('would list a route that reads a body, a query or a path parameter it does not declare', () => {
    const handler = (request: { body: unknown; query: unknown }) => [request.body, request.query];
    const route = { method: 'POST', url: '/api/things/:id', handler } as unknown as RegisteredRoute;
    expect(missing(route)).toEqual(['params', 'querystring', 'body']);
    expect(missing({ ...route, schema: { params: {}, querystring: {}, body: {} } })).toEqual([]);
  });

  it('declare the answers of every route, its success among them', () => {
    const routes = t.routes.filter((route) => route.method !== 'HEAD');
    expect(routes.map((route) => route.url)).toEqual(expect.arrayContaining(['/', '/Contact', '/metrics']));
    const undeclared = routes
      .map((route) => ({ route, problem: undeclaredAnswers(route) }))
      .filter(({ problem }) => problem !== undefined)
      .map(({ route, problem }) => `${route.method} ${route.url}: ${problem}`);
    expect(undeclared).toEqual([]);
  });

  it('would list a route that declares no answer, or only its refusals', () => {
    const route = { method: 'GET', url: '/api/things', handler: () => [] } as unknown as RegisteredRoute;
    expect(undeclaredAnswers(route)).toBe('no response schema');
    expect(undeclaredAnswers({ ...route, schema: { response: { 401: {}, '5xx': {} } } })).toBe(
      'no 2xx or 3xx answer',
    );
    expect(undeclaredAnswers({ ...route, schema: { response: { 200: {}, 401: {} } } })).toBeUndefined();
  });

  it('answers a refused body as parseInput did: 400, the first message, one message per field', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/licenses/validate',
      payload: { licenseKey: 'x' },
    });
    expect(response.statusCode).toBe(400);
    const answer = response.json() as { code: string; message: string; fieldErrors: Record<string, string> };
    expect(answer.code).toBe('validation_error');
    expect(Object.keys(answer.fieldErrors)).toEqual(expect.arrayContaining(['toolId', 'fingerprint']));
    expect(answer.message).toBe(Object.values(answer.fieldErrors)[0]);
  });
});
