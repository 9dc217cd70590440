import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueIp } from '../../../test/support/auth-helpers';
import type { TestClient } from '../../../test/support/client';
import { verifiedOperator } from '../../../test/support/dashboard-helpers';
import { testAppForFile } from '../../../test/support/file-apps';
import { catalogueRows } from '../../../test/support/shop-fixtures';

/**
 * Issue 50: out-of-range input is a 4xx, never a 500. Every route the app registered is called by a buyer and by a
 * verified operator with huge integers, impossible dates and 10 KB strings in its path, its query and each field of
 * its body (the field names the API uses), and no answer is a 5xx.
 */

const TEN_KB = 'x'.repeat(10 * 1024);
const VALUES: unknown[] = [1e20, '99999999999999999999', -1e308, '2026-02-30', '2026-13-45', TEN_KB];
const PATH_VALUES = ['99999999999999999999', '2026-02-30', TEN_KB];
const QUERY = new URLSearchParams({
  page: '99999999999999999999',
  limit: '99999999999999999999',
  offset: '-99999999999999999999',
  from: '2026-02-30',
  to: '2026-13-45',
  days: '99999999999999999999',
  cursor: TEN_KB,
  q: TEN_KB,
  search: TEN_KB,
  status: TEN_KB,
}).toString();
const FIELDS = [
  'toolId',
  'version',
  'code',
  'couponCode',
  'email',
  'name',
  'phone',
  'password',
  'currentPassword',
  'percent',
  'amountInr',
  'amountUsd',
  'maxUses',
  'startsAt',
  'endsAt',
  'trialDays',
  'days',
  'priceInr',
  'priceUsd',
  'activationLimit',
  'currency',
  'fingerprint',
  'licenseKey',
  'platform',
  'arch',
  'channel',
  'quantity',
  'seats',
  'reason',
  'description',
  'amount',
  'from',
  'to',
];
/** Values a field of that name would accept, so that the body gets past its other fields to the one replaced. */
const PLAUSIBLE: Record<string, unknown> = {
  version: '1.0.0',
  code: 'ABCD',
  email: 'sweep@example.com',
  name: 'Sweep Tester',
  phone: '+919876543210',
  password: 'Correct horse 42',
  currency: 'INR',
  fingerprint: 'sweep-machine-000001',
  licenseKey: 'AAAAA-BBBBB-CCCCC-DDDDD',
  platform: 'windows',
  arch: 'x64',
  percent: 10,
};

/** Routes that end the caller's own session or account: called last would hide nothing, called first would. */
const SKIPPED = /logout|\/account\/delete|sign-out|\/emulator\//;

const t = testAppForFile();
let toolId: string;
let callers: Array<{ label: string; client: TestClient }>;

beforeAll(async () => {
  toolId = (await catalogueRows(t)).windows.id;
  const operator = await verifiedOperator(t);
  const buyer = await t.client({ ip: uniqueIp() });
  callers = [
    { label: 'buyer', client: buyer },
    { label: 'operator', client: operator.client },
  ];
});

const withPath = (url: string, value: string) =>
  url.replace(/:[A-Za-z]+/g, encodeURIComponent(value)).replace('*', value);

/**
 * The fields a route's body declares, when its schema is an object (each gets every value, named in FIELDS or
 * not); otherwise every name the API uses. A field the body does not declare is dropped (a strict body refuses
 * it) before the handler runs, so sending it alone asks what an empty body asks.
 */
function fieldsOf(route: { schema?: { body?: unknown } }): string[] {
  const shape = (route.schema?.body as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : FIELDS;
}

const plausible = (field: string) => (field.endsWith('Id') ? toolId : (PLAUSIBLE[field] ?? 'x'));

/**
 * A body with the fields this route asks for, learnt from its answers to what is missing: the site's
 * `fieldErrors`, or (the license API) a message that starts with the field's name. Each is then replaced in turn.
 */
async function goodBody(client: TestClient, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string) {
  // The license API's fields (its errors name one at a time, in words of their own).
  const good: Record<string, unknown> = url.startsWith('/api/licenses/')
    ? { licenseKey: PLAUSIBLE.licenseKey, toolId, fingerprint: PLAUSIBLE.fingerprint }
    : {};
  for (let round = 0; round < 10; round++) {
    const answer = await client.request(method, withPath(url, '00000000-0000-4000-8000-000000000000'), good);
    if (answer.statusCode !== 400) break;
    const body = answer.json() as { fieldErrors?: Record<string, string>; message?: string };
    const named = /^([a-z][A-Za-z]*)\b/.exec(body.message ?? '')?.[1];
    const asked = [
      ...Object.keys(body.fieldErrors ?? {}),
      ...(named && (named in PLAUSIBLE || named.endsWith('Id')) ? [named] : []),
    ].filter((field) => !(field in good));
    if (asked.length === 0) break;
    for (const field of asked) good[field] = plausible(field);
  }
  return good;
}

describe('out-of-range input on every route', () => {
  it('never answers 5xx', async () => {
    const failures: string[] = [];
    const routes = t.routes.filter(
      (route) => !SKIPPED.test(route.url) && ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method),
    );
    expect(routes.length).toBeGreaterThan(50);
    for (const { client, label } of callers) {
      for (const route of routes) {
        // A new minute for every route: its rate limits answer the values, not the sweep's pace.
        t.clock.advance(61_000);
        const method = route.method as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
        const urls =
          route.url.includes(':') || route.url.includes('*')
            ? PATH_VALUES.map((value) => withPath(route.url, value))
            : [route.url];
        const bodies: Array<Record<string, unknown> | undefined> =
          method === 'GET'
            ? [undefined]
            : fieldsOf(route).flatMap((field) => VALUES.map((value) => ({ [field]: value })));
        if (method !== 'GET') {
          const good = await goodBody(client, method, route.url);
          for (const field of Object.keys(good))
            for (const value of VALUES) bodies.push({ ...good, [field]: value });
        }
        for (const url of urls) {
          for (const body of bodies) {
            const target = method === 'GET' ? `${url}?${QUERY}` : url;
            const response = await client.request(method, target, body);
            if (response.statusCode >= 500)
              failures.push(
                `${label} ${method} ${route.url} ${JSON.stringify(body)?.slice(0, 80)} → ${response.statusCode}`,
              );
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('answers update-check with a 20-digit major version 400, naming the field', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/licenses/update-check',
      payload: {
        licenseKey: 'AAAAA-BBBBB-CCCCC-DDDDD',
        toolId: '00000000-0000-4000-8000-000000000000',
        fingerprint: 'sweep-machine-000001',
        platform: 'windows',
        arch: 'x64',
        version: '99999999999999999999.0.0',
      },
    });
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json())).toContain('version');
  });
});
