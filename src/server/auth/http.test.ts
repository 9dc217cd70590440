import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/app';
import {
  DEFAULT_PASSWORD,
  form,
  mailsTo,
  signUp,
  uniqueEmail,
  uniqueIp,
} from '../../../test/support/auth-helpers';
import { testAppForFile } from '../../../test/support/file-apps';
import { SESSION_COOKIE } from './session';

const t = testAppForFile();

const AUTH_POSTS = [
  '/api/auth/login/',
  '/api/auth/logout/',
  '/api/auth/send-otp/',
  '/api/auth/initiate-signup/',
  '/api/auth/forgot-password/',
  '/api/auth/verify-otp/',
  '/api/auth/reset-password/',
];

describe('CSRF on the auth API', () => {
  it.each(AUTH_POSTS)('refuses POST %s without X-CSRFToken', async (path) => {
    const client = await t.client({ ip: uniqueIp() });
    client.sendCsrfHeader = false;
    const email = uniqueEmail('csrf');
    const response = await client.post(
      path,
      form({ name: 'A', email, password: DEFAULT_PASSWORD, otp: '1234' }),
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('csrf_failed');
    expect(await mailsTo(t, email)).toHaveLength(0);
  });

  it('does not let a cross-site form log the visitor out', async () => {
    const client = await t.client({ ip: uniqueIp() });
    const email = uniqueEmail('csrf');
    await signUp(t, client, { email });
    client.sendCsrfHeader = false;
    expect((await client.post('/api/auth/logout/')).statusCode).toBe(403);
    expect((await client.get('/api/auth/check/')).json().loggedin).toBe(true);
  });
});

const multipart = (boundary: string, parts: string[]) =>
  `${parts.map((part) => `--${boundary}\r\n${part}\r\n`).join('')}--${boundary}--\r\n`;

describe('bad bodies get a 4xx, never a 500', () => {
  const cases: Array<{ name: string; body: string; type: string; status: number[] }> = [
    { name: 'malformed JSON', body: '{"email": ', type: 'application/json', status: [400] },
    { name: 'JSON array', body: '[1,2,3]', type: 'application/json', status: [400] },
    {
      name: 'JSON with non-string fields',
      body: '{"email":{"$ne":1},"password":[1]}',
      type: 'application/json',
      status: [400],
    },
    { name: 'empty JSON body', body: '', type: 'application/json', status: [400] },
    {
      name: 'repeated form field',
      body: 'email=a%40b.co&email=c%40d.co&password=xxxxxxx',
      type: 'application/x-www-form-urlencoded',
      status: [400],
    },
    {
      name: 'oversized JSON',
      body: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(70 * 1024) }),
      type: 'application/json',
      status: [413],
    },
    {
      name: 'oversized form',
      body: `email=a%40b.co&password=${'x'.repeat(20 * 1024)}`,
      type: 'application/x-www-form-urlencoded',
      status: [413],
    },
    { name: 'plain text', body: 'email=a@b.co', type: 'text/plain', status: [400, 415] },
    { name: 'unsupported content type', body: '<email/>', type: 'application/xml', status: [415] },
    { name: 'multipart without a boundary', body: 'garbage', type: 'multipart/form-data', status: [400] },
    {
      name: 'truncated multipart',
      body: '--xyz\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.co',
      type: 'multipart/form-data; boundary=xyz',
      status: [400],
    },
    {
      name: 'multipart with a file',
      body: multipart('xyz', [
        'Content-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello',
      ]),
      type: 'multipart/form-data; boundary=xyz',
      status: [413],
    },
    {
      name: 'multipart with an oversized field',
      body: multipart('xyz', [`Content-Disposition: form-data; name="password"\r\n\r\n${'x'.repeat(2048)}`]),
      type: 'multipart/form-data; boundary=xyz',
      status: [400, 413],
    },
    {
      name: 'multipart with too many fields',
      body: multipart(
        'xyz',
        Array.from({ length: 12 }, (_, i) => `Content-Disposition: form-data; name="f${i}"\r\n\r\nx`),
      ),
      type: 'multipart/form-data; boundary=xyz',
      status: [413],
    },
  ];

  for (const path of [
    '/api/auth/login/',
    '/api/auth/send-otp/',
    '/api/auth/initiate-signup/',
    '/api/auth/reset-password/',
  ]) {
    it.each(cases)(`${path}: $name`, async ({ body, type, status }) => {
      const client = await t.client({ ip: uniqueIp() });
      const response = await client.post(path, body, { 'content-type': type });
      expect(status).toContain(response.statusCode);
      expect(response.json()).toMatchObject({ status: 'error' });
      expect(response.body).not.toMatch(/stack|at [A-Za-z]+ \(/);
    });
  }

  it('answers a POST with no body at all with field errors', async () => {
    const client = await t.client({ ip: uniqueIp() });
    const response = await client.post('/api/auth/login/');
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toHaveProperty('email');
  });
});

describe('in production', () => {
  it('marks the session cookie Secure', async () => {
    const prod = await createTestApp({
      env: {
        NODE_ENV: 'production',
        FIRM_LEGAL_NAME: 'Pinkcity Advisors LLP',
        FIRM_ADDRESS: 'MI Road, Jaipur, Rajasthan 302001',
        FIRM_GSTIN: '08AAPFP1234A1ZK',
        PUBLIC_URL: 'https://pinkcityadvisors.example',
        SMTP_URL: 'smtp://127.0.0.1:2525',
        RAZORPAY_KEY_ID: 'rzp_test_x',
        RAZORPAY_KEY_SECRET: 'secret',
        RAZORPAY_WEBHOOK_SECRET: 'whsecret',
      },
    });
    try {
      const client = await prod.client({ ip: uniqueIp() });
      const email = uniqueEmail('prod');
      const response = await signUp(prod, client, { email });
      expect(response.statusCode).toBe(200);
      const header = response.headers['set-cookie'];
      const cookies = Array.isArray(header) ? header : [String(header)];
      const session = cookies.find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
      expect(session?.split(/;\s*/)).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Secure']));
    } finally {
      await prod.close();
    }
  });
});
