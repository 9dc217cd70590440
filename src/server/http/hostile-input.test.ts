import { randomUUID } from 'node:crypto';
import { count } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/support/client';
import { testAppForFile } from '../../../test/support/file-apps';
import { multipartBody } from '../../../test/support/forms';
import { catalogueRows, createUser, INR_BILLING, loginAs } from '../../../test/support/shop-fixtures';
import { sessions, users, verificationCodes } from '../db/schema/accounts';
import { contactMessages } from '../db/schema/contact';
import { outbox } from '../db/schema/mail';
import { orders, purchases } from '../db/schema/orders';
import { webhookEvents } from '../db/schema/payments';

/**
 * Every field of every endpoint that takes input, fed hostile values in JSON, urlencoded and multipart bodies:
 * never a 5xx, oversize bodies 413, and nothing stored and no mail queued. Each request starts from a valid body
 * with one field replaced, so a refusal is the hostile value's doing.
 */
const HOSTILE = {
  nul: 'a\u0000b',
  loneSurrogate: '\ud800',
  crlf: 'Eve\r\nBcc: victim@example.com',
  kib64: 'x'.repeat(64 * 1024),
  mib1: 'x'.repeat(1024 * 1024),
} as const;
type HostileKind = keyof typeof HOSTILE;
const OVERSIZE: ReadonlySet<HostileKind> = new Set(['kib64', 'mib1']);
const ENCODINGS = ['json', 'urlencoded', 'multipart'] as const;
type Encoding = (typeof ENCODINGS)[number];

type Endpoint = {
  url: string;
  /** A body the endpoint would accept (or refuse for a reason unrelated to text, such as an unknown code). */
  body: () => Record<string, unknown>;
  /** Fields that may hold line breaks: CR/LF there is legitimate input, tested for storage elsewhere. */
  multiline?: string[];
  signedIn?: boolean;
};

const t = testAppForFile();
let toolId: string;
let buyers: TestClient[];

const ENDPOINTS: Endpoint[] = [
  {
    url: '/api/contact',
    body: () => ({
      name: 'Asha Verma',
      organisation: 'Verma Textiles',
      email: 'asha@example.com',
      relatedTo: 'Other',
      description: 'We would like to talk about an audit.',
      website: '',
    }),
    multiline: ['description'],
  },
  { url: '/api/auth/login/', body: () => ({ email: 'asha@example.com', password: 'Correct horse 42' }) },
  { url: '/api/auth/send-otp/', body: () => ({ name: 'Asha Verma', email: 'asha.new@example.com' }) },
  {
    url: '/api/auth/initiate-signup/',
    body: () => ({
      name: 'Asha Verma',
      email: 'asha.new@example.com',
      phone: '+919876543210',
      password: 'Correct horse 42',
      otp: '1234',
      sentOtp: '1234',
    }),
  },
  { url: '/api/auth/forgot-password/', body: () => ({ email: 'asha@example.com' }) },
  { url: '/api/auth/verify-otp/', body: () => ({ email: 'asha@example.com', otp: '123456' }) },
  {
    url: '/api/auth/reset-password/',
    body: () => ({ email: 'asha@example.com', otp: '123456', password: 'Another horse 43' }),
  },
  {
    url: '/api/create-payment/',
    body: () => ({
      toolId,
      toolName: 'PDF Utility Toolkit',
      price: 499,
      currency: 'INR',
      billingDetails: { ...INR_BILLING },
    }),
    multiline: ['billingDetails.address'],
    signedIn: true,
  },
  {
    url: '/api/verify-payment/',
    body: () => ({
      razorpay_order_id: 'order_Hostile000001',
      razorpay_payment_id: 'pay_Hostile000001',
      razorpay_signature: 'f'.repeat(64),
      toolId,
      currency: 'INR',
    }),
    signedIn: true,
  },
  { url: '/api/send-tool-credentials/', body: () => ({ toolId }), signedIn: true },
  { url: '/api/checkout/opened', body: () => ({ toolId, couponCode: 'WELCOME10' }), signedIn: true },
];

/** The dotted paths of every string-or-scalar field of a body. */
function fieldsOf(body: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(body).flatMap(([key, value]) =>
    value && typeof value === 'object'
      ? fieldsOf(value as Record<string, unknown>, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

function withField(body: Record<string, unknown>, field: string, value: string): Record<string, unknown> {
  const copy = structuredClone(body);
  const parts = field.split('.');
  let target = copy;
  for (const part of parts.slice(0, -1)) target = target[part] as Record<string, unknown>;
  target[parts.at(-1) as string] = value;
  return copy;
}

/** Flat form fields: nested objects as dotted names, which the schemas refuse as unknown fields, never with a 5xx. */
const flat = (body: Record<string, unknown>) =>
  Object.fromEntries(
    fieldsOf(body).map((field) => [
      field,
      String(
        field.split('.').reduce<unknown>((value, part) => (value as Record<string, unknown>)[part], body),
      ),
    ]),
  );

function encode(
  body: Record<string, unknown>,
  encoding: Encoding,
): { payload: string | Buffer; type: string } {
  if (encoding === 'json') return { payload: JSON.stringify(body), type: 'application/json' };
  if (encoding === 'urlencoded')
    return { payload: new URLSearchParams(flat(body)).toString(), type: 'application/x-www-form-urlencoded' };
  const form = multipartBody(flat(body));
  return { payload: form.body, type: form.contentType };
}

async function tableCounts() {
  const tables = {
    users,
    sessions,
    contactMessages,
    verificationCodes,
    outbox,
    orders,
    purchases,
    webhookEvents,
  };
  const entries = await Promise.all(
    Object.entries(tables).map(async ([name, table]) => {
      const [row] = await t.ctx.db.select({ n: count() }).from(table);
      return [name, row?.n ?? 0] as const;
    }),
  );
  return Object.fromEntries(entries);
}

let ipCounter = 0;
const nextIp = () => `10.77.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`;

beforeAll(async () => {
  toolId = (await catalogueRows(t)).windows.id;
  const buyer = await createUser(t, { email: 'asha@example.com' });
  buyers = [await loginAs(t, buyer)];
}, 120_000);

describe('hostile input into every field of every endpoint', () => {
  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.url}: never a 5xx, oversize 413, nothing stored, no mail queued`, async () => {
      const before = await tableCounts();
      const failures: string[] = [];
      const anonymous = await t.client();
      for (const field of fieldsOf(endpoint.body())) {
        for (const [kind, value] of Object.entries(HOSTILE) as Array<[HostileKind, string]>) {
          if (kind === 'crlf' && endpoint.multiline?.includes(field)) continue;
          for (const encoding of ENCODINGS) {
            // Per-minute limits must not mask the parsing under test: each request starts a fresh minute.
            t.clock.advance(61_000);
            const client = endpoint.signedIn ? (buyers[0] as TestClient) : anonymous;
            const { payload, type } = encode(withField(endpoint.body(), field, value), encoding);
            const response = await t.app.inject({
              method: 'POST',
              url: endpoint.url,
              headers: {
                'content-type': type,
                cookie: [...client.cookies].map(([name, v]) => `${name}=${v}`).join('; '),
                'x-csrftoken': client.csrfToken ?? '',
              },
              payload,
              remoteAddress: nextIp(),
            });
            const label = `${field} ${kind} ${encoding}: ${response.statusCode} ${response.body.slice(0, 120)}`;
            if (response.statusCode >= 500) failures.push(label);
            else if (OVERSIZE.has(kind) && response.statusCode !== 413)
              failures.push(`expected 413 — ${label}`);
            else if (!OVERSIZE.has(kind) && (response.statusCode < 400 || response.statusCode === 429))
              failures.push(`expected a refusal — ${label}`);
            if (response.statusCode === 400 && encoding === 'json')
              expect(response.json().fieldErrors, label).toBeTypeOf('object');
          }
        }
      }
      expect(failures).toEqual([]);
      expect(await tableCounts()).toEqual(before);
    }, 300_000);
  }

  it('refuses hostile path parameters and query strings without a 5xx', async () => {
    const client = await t.client();
    for (const value of Object.values(HOSTILE).filter((v) => v.length < 1000)) {
      // A URL cannot carry a lone surrogate; its nearest equivalent is the bytes of one, which are not UTF-8.
      const encoded = value === HOSTILE.loneSurrogate ? '%ED%A0%80' : encodeURIComponent(value);
      for (const url of [
        `/api/downloads/${encoded}`,
        `/api/alltools/?search=${encoded}`,
        `/api/auth/check/?next=${encoded}`,
        `/api/get-location/?ip=${encoded}`,
      ]) {
        const response = await client.get(url);
        expect(response.statusCode, url).toBeLessThan(500);
      }
    }
    const response = await client.get('/api/downloads/abc%00def', { accept: 'application/json' });
    expect(response.statusCode).toBe(400);
  });

  it('refuses an id that is not one (36 characters but not a UUID, or holding %00) with a 4xx on every route', async () => {
    const [buyer] = buyers as [TestClient];
    const notIds = [
      '-'.repeat(36),
      'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
      `${'a'.repeat(17)}%00${'b'.repeat(16)}`,
    ];
    // Operator routes (/api/admin/) have their own walk in the dashboard's tests.
    const withIds = t.routes.filter(
      (route) => route.url.includes('/:') && !route.url.startsWith('/api/admin/') && route.method !== 'HEAD',
    );
    expect(withIds.map((route) => route.url)).toEqual(
      expect.arrayContaining([
        '/api/orders/:orderId/:file',
        '/api/my-licenses/devices/:activationId/deactivate',
      ]),
    );
    const failures: string[] = [];
    // One parameter at a time is hostile; the others hold values the route would accept.
    const plausible = (name: string) => (name === 'file' ? 'invoice.pdf' : randomUUID());
    const urls = (pattern: string) =>
      (pattern.match(/:\w+/g) ?? []).flatMap((hostile) =>
        notIds.map((notId) =>
          pattern.replace(/:\w+/g, (param) => (param === hostile ? notId : plausible(param.slice(1)))),
        ),
      );
    for (const route of withIds) {
      for (const url of urls(route.url)) {
        t.clock.advance(61_000);
        const response = await t.app.inject({
          method: route.method as 'GET' | 'POST',
          url,
          headers: {
            accept: 'application/json',
            cookie: [...buyer.cookies].map(([name, v]) => `${name}=${v}`).join('; '),
            'x-csrftoken': buyer.csrfToken ?? '',
            ...(route.method === 'GET' ? {} : { 'content-type': 'application/json' }),
          },
          ...(route.method === 'GET' ? {} : { payload: '{}' }),
          remoteAddress: nextIp(),
        });
        if (response.statusCode < 400 || response.statusCode >= 500)
          failures.push(`${route.method} ${url}: ${response.statusCode} ${response.body.slice(0, 100)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses a tool id in a body that is 36 characters but not a UUID with a field error', async () => {
    for (const endpoint of ENDPOINTS.filter((candidate) => 'toolId' in candidate.body())) {
      t.clock.advance(61_000);
      const [buyer] = buyers as [TestClient];
      const response = await buyer.post(endpoint.url, { ...endpoint.body(), toolId: '-'.repeat(36) });
      expect(response.statusCode, endpoint.url).toBe(400);
      expect(response.json().fieldErrors, endpoint.url).toHaveProperty('toolId');
    }
  });

  it('refuses a billing address holding U+0085 (or another layout control) with a field error, and stores nothing', async () => {
    const [buyer] = buyers as [TestClient];
    const before = await tableCounts();
    for (const control of ['\u0085', '\u2028', '\u202e']) {
      t.clock.advance(61_000);
      const order = ENDPOINTS.find((endpoint) => endpoint.url === '/api/create-payment/')?.body() ?? {};
      const billingDetails = { ...INR_BILLING, address: `12 Civil Lines${control}Jaipur 302006` };
      const response = await buyer.post('/api/create-payment/', { ...order, billingDetails });
      expect(response.statusCode).toBe(400);
      expect(response.json().fieldErrors).toEqual({
        'billingDetails.address': 'Must not contain control characters',
      });
    }
    expect(await tableCounts()).toEqual(before);
  });
});
