import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { $ZodType, safeParse } from 'zod/v4/core';
import { DEFAULT_PASSWORD, form, latestCode, mailsTo, signUp } from '../../test/support/auth-helpers';
import type { TestClient } from '../../test/support/client';
import { totpAt } from '../../test/support/dashboard-helpers';
import { shopTestAppForFile } from '../../test/support/file-apps';
import {
  nameAnsweringRoutes,
  type RecordedAnswer,
  readRecordings,
  recordAnswer,
  seededSigningKey,
  writeRecordings,
} from '../../test/support/recorded-answers';
import { INR_BILLING } from '../../test/support/shop-fixtures';
import { SoftPasskey } from '../../test/support/webauthn';
import { OFFLINE_REQUEST_PREFIX } from '../shared/offline-activation';
import { unsubscribeToken } from './account/email-preferences';
import { invalidateCatalogue } from './catalogue/catalogue-cache';
import { buildZip } from './catalogue/zip';
import { users } from './db/schema/accounts';
import { tools } from './db/schema/catalogue';
import { outbox } from './db/schema/mail';
import { webhookDeliveries } from './db/schema/webhooks';
import { answerKind } from './http/answers';
import { deactivationCodeOf } from './licenses/offline';
import { cliActor } from './operator/audit';
import { grantOperator } from './operator/roles';
import { webhookSignature } from './payments/signatures';
import { createWebhookWorker } from './webhooks/delivery';

/**
 * Issue 62: every route declares its answers, and a declaration must not change what a route answers (a serialiser
 * drops what its schema does not name and writes keys in the schema's order). A deterministic scenario (the test
 * clock, fixed names and inputs, the emulator's webhooks awaited) walks every route the app registers, in its
 * successes and its refusals, and then as a stranger; each answer's status, content type and body were recorded
 * on the code before the schemas were added (`recorded-answers/*.json`, made with RECORD_ANSWERS=1) and must stay
 * byte for byte what they were. Only what differs between runs by design is normalised (test/support/recorded-answers.ts).
 */

const FOLDER = path.join(import.meta.dirname, 'recorded-answers');
const RECORDING = process.env.RECORD_ANSWERS === '1';

/** Answers whose 200 body is not compared, and why. */
const BODY_NOT_COMPARED: Record<string, string> = {
  'GET /api/openapi.json': '<the OpenAPI document: made from the route schemas, which change with them>',
  'GET /metrics': "<Prometheus' figures: request timings, different on every run>",
};

/** A uuid that names nothing. */
const NOBODY = '00000000-0000-4000-8000-000000000000';

const t = shopTestAppForFile({
  env: {
    WEBHOOKS_ALLOW_LOOPBACK: '1',
    METRICS_TOKEN: 'answers-metrics-token-0123456789',
    LICENSE_SIGNING_KEY: seededSigningKey('recorded answers: licenses'),
    RELEASE_SIGNING_KEY: seededSigningKey('recorded answers: releases'),
  },
  prepare: nameAnsweringRoutes,
});
const played = new Map<string, Map<string, RecordedAnswer>>();
let area = new Map<string, RecordedAnswer>();
/** Every answer as it came, for the check against its route's declarations. */
const answered: Array<{ step: string; response: LightMyRequestResponse }> = [];

function section(name: string): void {
  area = new Map();
  played.set(name, area);
}

async function take(
  step: string,
  answer: Promise<LightMyRequestResponse> | LightMyRequestResponse,
): Promise<LightMyRequestResponse> {
  const response = await answer;
  if (area.has(step)) throw new Error(`step "${step}" is recorded twice`);
  const recorded = await recordAnswer(response, t.baseUrl);
  // A second between steps: rows made by different steps never tie on their times (lists sort by them).
  t.clock.advance(1000);
  const notCompared = BODY_NOT_COMPARED[recorded.route];
  area.set(step, notCompared && recorded.status === 200 ? { ...recorded, body: notCompared } : recorded);
  answered.push({ step, response });
  return response;
}

const inject = (
  method: 'GET' | 'POST',
  url: string,
  options: { headers?: Record<string, string>; payload?: string | object } = {},
) =>
  t.app.inject({
    method,
    url,
    headers: options.headers,
    payload: options.payload,
    remoteAddress: '192.0.2.50',
  });

/** A multipart form as the dashboard's upload dialogs send it: the small fields first, then the file. */
async function multipart(fields: Record<string, string>, file: { name: string; bytes: Buffer }) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  data.set('file', new Blob([new Uint8Array(file.bytes)]), file.name);
  const encoded = new Response(data);
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
  };
}

async function userIdOf(email: string): Promise<string> {
  const [row] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

/** The newest email of `kind` to `to`. */
async function mailTo(to: string, kind: string) {
  const [mail] = await mailsTo(t, to, kind);
  if (!mail) throw new Error(`no ${kind} email to ${to}`);
  return mail;
}

const firstMatch = (text: string, pattern: RegExp): string => {
  const found = pattern.exec(text)?.[1];
  if (!found) throw new Error(`${pattern} not found in:\n${text}`);
  return found;
};

/** A person who signs up through the real calls (not recorded: the accounts area records Asha's). */
async function person(name: string, email: string, ip: string): Promise<TestClient> {
  const client = await t.client({ ip });
  const signed = await signUp(t, client, { name, email });
  if (signed.statusCode !== 200) throw new Error(`sign-up of ${email}: ${signed.body}`);
  return client;
}

const json = <T>(response: LightMyRequestResponse) => response.json<T>();

async function playScenario(): Promise<void> {
  // ── The site, for anyone ──────────────────────────────────────────────────────────────────────────────────
  section('site');
  const visitor = await t.client({ ip: '203.0.113.1' });
  await take('health', inject('GET', '/api/health'));
  await take('ready', inject('GET', '/api/ready'));
  await take('the OpenAPI document', inject('GET', '/api/openapi.json'));
  await take('a CSRF token for a new visitor', inject('GET', '/api/csrf-token/'));
  await take('a CSRF token for a visitor who has one', visitor.get('/api/csrf-token/'));
  await take('location', visitor.get('/api/get-location/'));
  const message = {
    name: 'Meera Joshi',
    organisation: 'Joshi & Co',
    email: 'meera@answers.test',
    relatedTo: 'Services',
    description: 'We would like a quote for monthly bookkeeping.',
  };
  await take('contact', visitor.post('/api/contact', message));
  await take('contact: a bot fills the honeypot', visitor.post('/api/contact', { ...message, website: 'x' }));
  await take('contact: refused fields', visitor.post('/api/contact', { name: '', email: 'nope' }));
  for (let sent = 1; sent < 5; sent++) await visitor.post('/api/contact', message);
  await take('contact: too many from one address', visitor.post('/api/contact', message));
  await take('metrics without the token', inject('GET', '/metrics'));
  await take(
    'metrics',
    inject('GET', '/metrics', { headers: { authorization: `Bearer ${t.config.metricsToken}` } }),
  );

  // ── Accounts: Asha signs up, signs in and out, resets her password, and changes her account ─────────────
  section('accounts');
  const asha = await t.client({ ip: '203.0.113.2' });
  const ashaEmail = 'asha@answers.test';
  await take('auth check: signed out', asha.get('/api/auth/check/'));
  await take(
    'send a sign-up code',
    asha.post('/api/auth/send-otp/', form({ name: 'Asha Verma', email: ashaEmail })),
  );
  await take(
    'send a sign-up code: refused',
    asha.post('/api/auth/send-otp/', form({ name: '', email: 'nope' })),
  );
  const signupCode = await latestCode(t, ashaEmail, 'signup-code');
  const signup = {
    name: 'Asha Verma',
    email: ashaEmail,
    phone: '+919876543210',
    password: DEFAULT_PASSWORD,
  };
  await take(
    'sign up: wrong code',
    asha.post(
      '/api/auth/initiate-signup/',
      form({ ...signup, otp: signupCode === '1111' ? '2222' : '1111' }),
    ),
  );
  await take('sign up', asha.post('/api/auth/initiate-signup/', form({ ...signup, otp: signupCode })));
  await take('auth check: signed in', asha.get('/api/auth/check/'));
  await take('log out', asha.post('/api/auth/logout/'));
  await take(
    'log in: wrong password',
    asha.post('/api/auth/login/', form({ email: ashaEmail, password: 'not my password' })),
  );
  await take('log in', asha.post('/api/auth/login/', form({ email: ashaEmail, password: DEFAULT_PASSWORD })));
  await take('forgot password', asha.post('/api/auth/forgot-password/', form({ email: ashaEmail })));
  const resetCode = await latestCode(t, ashaEmail, 'password-reset-code');
  const wrongReset = resetCode === '111111' ? '222222' : '111111';
  await take(
    'check a reset code: wrong',
    asha.post('/api/auth/verify-otp/', { email: ashaEmail, otp: wrongReset }),
  );
  await take('check a reset code', asha.post('/api/auth/verify-otp/', { email: ashaEmail, otp: resetCode }));
  const ashaPassword = 'Pink city mornings 7';
  await take(
    'reset the password',
    asha.post('/api/auth/reset-password/', { email: ashaEmail, otp: resetCode, password: ashaPassword }),
  );
  await take(
    'log in with the new password',
    asha.post('/api/auth/login/', { email: ashaEmail, password: ashaPassword }),
  );

  await take(
    'confirm it is you: wrong password',
    asha.post('/api/account/reauth', { password: 'not my password' }),
  );
  await take('confirm it is you', asha.post('/api/account/reauth', { password: ashaPassword }));
  await take(
    'profile',
    asha.request('PATCH', '/api/account/profile', { name: 'Asha V. Verma', phone: '+919812345678' }),
  );
  await take('profile: refused', asha.request('PATCH', '/api/account/profile', { name: '', phone: '1' }));
  const newPassword = 'Hawa Mahal at dawn 9';
  await take(
    'change the password',
    asha.post('/api/account/password', {
      currentPassword: ashaPassword,
      password: newPassword,
      confirmPassword: newPassword,
    }),
  );
  await take(
    'change the password: wrong current one',
    asha.post('/api/account/password', {
      currentPassword: 'not my password',
      password: newPassword,
      confirmPassword: newPassword,
    }),
  );
  const ashaNewEmail = 'asha.verma@answers.test';
  await take('change the email', asha.post('/api/account/email', { email: ashaNewEmail }));
  const emailCode = firstMatch((await mailTo(ashaNewEmail, 'email-change-code')).text, /^\s+(\d{6})$/m);
  await take(
    'change the email: wrong code',
    asha.post('/api/account/email/confirm', {
      email: ashaNewEmail,
      code: emailCode === '111111' ? '222222' : '111111',
    }),
  );
  await take(
    'change the email: confirmed',
    asha.post('/api/account/email/confirm', { email: ashaNewEmail, code: emailCode }),
  );

  const ashaOnHerPhone = await t.client({ ip: '203.0.113.3' });
  await ashaOnHerPhone.post('/api/auth/login/', { email: ashaNewEmail, password: newPassword });
  const sessions = await take('sessions', asha.get('/api/account/sessions'));
  const phoneSession = json<Array<{ id: string; current: boolean }>>(sessions).find((each) => !each.current);
  await take('end a session: unknown', asha.request('DELETE', `/api/account/sessions/${NOBODY}`));
  await take('end a session', asha.request('DELETE', `/api/account/sessions/${phoneSession?.id}`));
  await ashaOnHerPhone.post('/api/auth/login/', { email: ashaNewEmail, password: newPassword });
  await take('sign out the other sessions', asha.post('/api/account/sessions/sign-out-others'));

  await take('passkeys: none yet', asha.get('/api/account/passkeys'));
  const creation = await take(
    'passkey: registration options',
    asha.post('/api/account/passkeys/options', {}),
  );
  const passkey = new SoftPasskey(t.baseUrl);
  const added = await take(
    'passkey: added',
    asha.post('/api/account/passkeys', {
      name: 'Work laptop',
      credential: passkey.register(creation.json()),
    }),
  );
  const passkeyId = json<{ passkeys: Array<{ id: string }> }>(added).passkeys[0]?.id;
  await take(
    'passkey: registration options, one passkey to exclude',
    asha.post('/api/account/passkeys/options', {}),
  );
  await take(
    'passkey: renamed',
    asha.request('PATCH', `/api/account/passkeys/${passkeyId}`, { name: 'Office laptop' }),
  );
  await take(
    'passkey: rename an unknown one',
    asha.request('PATCH', `/api/account/passkeys/${NOBODY}`, { name: 'X' }),
  );
  const ashaElsewhere = await t.client({ ip: '203.0.113.4' });
  const request = await take('passkey: sign-in options', ashaElsewhere.post('/api/auth/passkey/options', {}));
  await take(
    'passkey: sign in',
    ashaElsewhere.post('/api/auth/passkey/login', {
      credential: passkey.assert(json<{ challenge: string }>(request).challenge),
    }),
  );
  await take('passkey: removed', asha.request('DELETE', `/api/account/passkeys/${passkeyId}`));

  await take('email preferences', asha.get('/api/account/email-preferences'));
  await take(
    'email preferences: changed',
    asha.request('PATCH', '/api/account/email-preferences', { releases: false }),
  );
  await take(
    'email preferences: refused',
    asha.request('PATCH', '/api/account/email-preferences', { releases: 'no' }),
  );
  const ashaId = await userIdOf(ashaNewEmail);
  const token = unsubscribeToken(t.ctx.dataSecrets, ashaId, 'trials');
  await take('unsubscribe: what the link turns off', visitor.get(`/api/account/unsubscribe?token=${token}`));
  await take('unsubscribe: one click', inject('POST', `/api/account/unsubscribe?token=${token}`));
  await take('unsubscribe: not a link', visitor.get('/api/account/unsubscribe?token=nope'));

  // ── The operator signs in to the dashboard and stocks the shop ──────────────────────────────────────────────
  section('dashboard');
  const operatorEmail = 'ravi@answers.test';
  const operator = await person('Ravi Mehta', operatorEmail, '203.0.113.10');
  await grantOperator(t.ctx, operatorEmail, cliActor('answers'));
  await take('status: signed out', visitor.get('/api/admin/auth/status'));
  await take('status: a buyer', asha.get('/api/admin/auth/status'));
  await take('status: to enrol', operator.get('/api/admin/auth/status'));
  await take('enrol: a buyer', asha.post('/api/admin/auth/enrol', {}));
  const enrolment = await take('enrol', operator.post('/api/admin/auth/enrol', {}));
  const { secret } = json<{ secret: string }>(enrolment);
  const code = () => totpAt(t, secret);
  const wrong = async () => ((await code()) === '000000' ? '111111' : '000000');
  await take('enrol: wrong code', operator.post('/api/admin/auth/enrol/confirm', { code: await wrong() }));
  await take('enrol: confirmed', operator.post('/api/admin/auth/enrol/confirm', { code: await code() }));
  await take('status: ready', operator.get('/api/admin/auth/status'));
  await take('sign out of the dashboard', operator.post('/api/admin/auth/sign-out', {}));
  await take('status: to verify', operator.get('/api/admin/auth/status'));
  await take('a page before the second factor', operator.get('/api/admin/overview'));
  t.clock.advance(30_000);
  await take('verify: wrong code', operator.post('/api/admin/auth/verify', { code: await wrong() }));
  await take('verify', operator.post('/api/admin/auth/verify', { code: await code() }));
  const freshCode = async () => {
    t.clock.advance(30_000);
    return code();
  };

  await take('tools', operator.get('/api/admin/tools'));
  const toolFields = {
    name: 'Answers Toolkit',
    description: 'Merges, splits and stamps PDFs on Windows.',
    device: 'Windows',
    priceINR: '999',
    priceUSD: '12.99',
    comingSoon: false,
    active: true,
    delivery: 'license_key',
    activationLimit: '2',
    trialDays: '14',
  };
  await take('add a tool: no code', operator.post('/api/admin/tools', toolFields));
  await take(
    'add a tool: refused fields',
    operator.post('/api/admin/tools', { ...toolFields, priceINR: 'free' }),
  );
  const toolkit = json<{ id: string; defaultPackageId: string }>(
    await take('add a tool', operator.post('/api/admin/tools', { ...toolFields, code: await freshCode() })),
  );
  const floating = json<{ id: string }>(
    await take(
      'add a floating tool',
      operator.post('/api/admin/tools', {
        ...toolFields,
        name: 'Answers Floating Desk',
        licenseModel: 'floating',
        heartbeatMinutes: '10',
        code: await freshCode(),
      }),
    ),
  );
  const ledger = json<{ id: string }>(
    await take(
      'add a tool delivered as credentials',
      operator.post('/api/admin/tools', {
        ...toolFields,
        name: 'Answers Ledger Online',
        device: 'none',
        delivery: 'credentials',
        trialDays: '0',
        code: await freshCode(),
      }),
    ),
  );
  await take('a tool', operator.get(`/api/admin/tools/${toolkit.id}`));
  await take('a tool: unknown', operator.get(`/api/admin/tools/${NOBODY}`));
  await take('a tool: not an id', operator.get('/api/admin/tools/nope'));
  await take(
    'edit a tool',
    operator.post(`/api/admin/tools/${toolkit.id}`, {
      ...toolFields,
      description: 'Merges, splits, stamps and compresses PDFs on Windows.',
    }),
  );
  const toolFile = await multipart(
    { code: await freshCode() },
    { name: 'answers-toolkit.zip', bytes: buildZip([{ name: 'README.txt', content: 'Answers Toolkit' }]) },
  );
  await take(
    'upload the tool file',
    operator.request('POST', `/api/admin/tools/${ledger.id}/file`, toolFile.body, toolFile.headers),
  );
  const toolkitFile = await multipart(
    { code: await freshCode() },
    {
      name: 'answers-toolkit.zip',
      bytes: buildZip([{ name: 'README.txt', content: 'Answers Toolkit for Windows' }]),
    },
  );
  await operator.request(
    'POST',
    `/api/admin/tools/${toolkit.id}/file`,
    toolkitFile.body,
    toolkitFile.headers,
  );

  const release = json<{ id: string }>(
    await take(
      'create a release',
      operator.post(`/api/admin/tools/${toolkit.id}/releases`, {
        version: '1.1.0',
        notesMarkdown: '## What is new\n\n- Faster merging',
      }),
    ),
  );
  await take(
    'create a release: refused',
    operator.post(`/api/admin/tools/${toolkit.id}/releases`, { version: 'one' }),
  );
  await take(
    'edit a release',
    operator.request('PATCH', `/api/admin/releases/${release.id}`, {
      notesMarkdown: '## What is new\n\n- Faster merging\n- Bates stamps',
    }),
  );
  const addFile = async (releaseId: string, fields: Record<string, string>, name: string, bytes: Buffer) => {
    const body = await multipart(fields, { name, bytes });
    return operator.request('POST', `/api/admin/releases/${releaseId}/artifacts`, body.body, body.headers);
  };
  const upload = (step: string, fields: Record<string, string>, name: string, bytes: Buffer) =>
    take(step, addFile(release.id, fields, name, bytes));
  await upload(
    'add an installer',
    { platform: 'windows', arch: 'x64', kind: 'installer' },
    'AnswersToolkit-1.1.0-Setup.exe',
    Buffer.from('MZ the installer of Answers Toolkit 1.1.0'),
  );
  await upload(
    'add a Sparkle archive',
    { platform: 'windows', arch: 'x64', kind: 'sparkle' },
    'AnswersToolkit-1.1.0.zip',
    buildZip([{ name: 'AnswersToolkit.exe', content: 'MZ Answers Toolkit 1.1.0' }]),
  );
  const nuspec = `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd"><metadata><id>${toolkit.defaultPackageId}</id><title>Answers Toolkit</title><version>1.1.0</version><authors>Pinkcity Advisors</authors><description>Answers Toolkit</description><channel>win</channel><mainExe>AnswersToolkit.exe</mainExe></metadata></package>`;
  await upload(
    'add a Velopack package',
    { platform: 'windows', arch: 'x64', kind: 'velopack' },
    `${toolkit.defaultPackageId}-1.1.0-full.nupkg`,
    buildZip([
      { name: `${toolkit.defaultPackageId}.nuspec`, content: nuspec },
      { name: 'lib/app/AnswersToolkit.exe', content: 'MZ Answers Toolkit 1.1.0' },
    ]),
  );
  const extra = json<{ artifacts: Array<{ id: string; fileName: string }> }>(
    await upload(
      'add a file to remove',
      { platform: 'macos', arch: 'arm64', kind: 'installer' },
      'AnswersToolkit.dmg',
      Buffer.from('a disk image'),
    ),
  );
  const dmg = extra.artifacts.find((artifact) => artifact.fileName === 'AnswersToolkit.dmg');
  await take(
    'remove a file',
    operator.request('DELETE', `/api/admin/releases/${release.id}/artifacts/${dmg?.id}`),
  );
  await take(
    'add a file: no file',
    operator.request('POST', `/api/admin/releases/${release.id}/artifacts`, {}),
  );
  await take('publish: no code', operator.post(`/api/admin/releases/${release.id}/publish`, {}));
  await take(
    'publish',
    operator.post(`/api/admin/releases/${release.id}/publish`, { code: await freshCode() }),
  );
  const beta = json<{ id: string }>(
    await operator.post(`/api/admin/tools/${toolkit.id}/releases`, {
      version: '1.2.0-beta.1',
      channel: 'beta',
    }),
  );
  await addFile(
    beta.id,
    { platform: 'windows', arch: 'x64', kind: 'installer' },
    'AnswersToolkit-1.2.0-beta.1-Setup.exe',
    Buffer.from('MZ the installer of Answers Toolkit 1.2.0 beta 1'),
  );
  await operator.post(`/api/admin/releases/${beta.id}/publish`, { code: await freshCode() });
  await take('yank', operator.post(`/api/admin/releases/${beta.id}/yank`, { code: await freshCode() }));
  await take('releases of a tool', operator.get(`/api/admin/tools/${toolkit.id}/releases`));

  await take('coupons: none yet', operator.get('/api/admin/coupons'));
  await take('add a coupon', operator.post('/api/admin/coupons', { code: 'answers-10', percent: 10 }));
  await take('add a coupon: refused', operator.post('/api/admin/coupons', { code: '', percent: 200 }));
  await take('add a coupon: taken', operator.post('/api/admin/coupons', { code: 'ANSWERS-10', percent: 5 }));
  await take(
    'add a coupon for free copies of one tool',
    operator.post('/api/admin/coupons', { code: 'answers-free', percent: 100, toolIds: [floating.id] }),
  );
  await take('a coupon', operator.get('/api/admin/coupons/answers-10'));
  await take('a coupon: unknown', operator.get('/api/admin/coupons/NOPE'));

  await take('webhook endpoints: none yet', operator.get('/api/admin/webhooks'));
  const endpoint = json<{ id: string }>(
    await take(
      'add a webhook endpoint',
      operator.post('/api/admin/webhooks', {
        url: 'http://127.0.0.1:9/answers',
        events: ['order.paid', 'order.refunded'],
        description: 'The firm’s books',
        code: await freshCode(),
      }),
    ),
  );
  await take(
    'add a webhook endpoint: refused',
    operator.post('/api/admin/webhooks', { url: 'ftp://x', events: [], code: await freshCode() }),
  );

  // ── The shop: Asha looks, prices, buys, downloads and tries ───────────────────────────────────────────────
  section('shop');
  await take('catalogue: anonymous', visitor.get('/api/alltools/'));
  await take('catalogue: signed in', asha.get('/api/alltools/'));
  await take('payments config', asha.get('/api/payments/config/'));
  await take('my tools: none yet', asha.get('/api/my-tools/'));
  await take('the billing dialog opened', asha.post('/api/checkout/opened', { toolId: toolkit.id }));
  await take(
    'the billing dialog opened: unknown tool',
    asha.post('/api/checkout/opened', { toolId: NOBODY }),
  );
  await take('the billing dialog opened: refused', asha.post('/api/checkout/opened', { toolId: 'x' }));
  const quote = { toolId: toolkit.id, currency: 'INR', state: 'Rajasthan', country: 'India' };
  await take('quote', asha.post('/api/checkout/quote', quote));
  await take('quote with a coupon', asha.post('/api/checkout/quote', { ...quote, couponCode: 'answers-10' }));
  await take(
    'quote with an unknown coupon',
    asha.post('/api/checkout/quote', { ...quote, couponCode: 'NOPE' }),
  );
  await take(
    'quote in dollars for three seats',
    asha.post('/api/checkout/quote', { toolId: toolkit.id, currency: 'USD', country: 'Canada', seats: 3 }),
  );
  await take('quote: refused', asha.post('/api/checkout/quote', { ...quote, gstin: 'nope' }));
  await take(
    'check a coupon',
    asha.post('/api/coupons/check', { toolId: toolkit.id, currency: 'INR', code: 'answers-10' }),
  );
  await take(
    'check a coupon: unknown',
    asha.post('/api/coupons/check', { toolId: toolkit.id, currency: 'INR', code: 'NOPE' }),
  );

  const created = await take(
    'create a payment',
    asha.post('/api/create-payment/', {
      toolId: toolkit.id,
      currency: 'INR',
      billingDetails: INR_BILLING,
      couponCode: 'answers-10',
    }),
  );
  await take(
    'create a payment: refused',
    asha.post('/api/create-payment/', { toolId: toolkit.id, currency: 'INR' }),
  );
  const orderId = json<{ order_id: string }>(created).order_id;
  const keyId = { key_id: t.config.razorpay.keyId };
  await take('emulator: the checkout order', asha.get(`/emulator/razorpay/checkout/${orderId}`));
  const paid = await take(
    'emulator: pay',
    inject('POST', `/emulator/razorpay/checkout/${orderId}/pay`, { payload: keyId }),
  );
  await take(
    'emulator: pay again',
    inject('POST', `/emulator/razorpay/checkout/${orderId}/pay`, { payload: keyId }),
  );
  await take('verify the payment', asha.post('/api/verify-payment/', paid.json()));
  await t.emulator?.settled();
  await take('verify the payment again', asha.post('/api/verify-payment/', paid.json()));
  await take(
    'verify a payment: bad signature',
    asha.post('/api/verify-payment/', {
      ...json<Record<string, string>>(paid),
      razorpay_signature: 'f'.repeat(64),
    }),
  );
  const event = JSON.stringify({
    entity: 'event',
    account_id: 'acc_Answers000001',
    event: 'order.paid',
    contains: ['payment'],
    payload: {
      payment: {
        entity: {
          id: paid.json().razorpay_payment_id,
          order_id: orderId,
          status: 'captured',
          amount: 89_910,
          currency: 'INR',
        },
      },
    },
    created_at: 1_780_000_000,
  });
  const webhookHeaders = (signature: string) => ({
    'content-type': 'application/json',
    'x-razorpay-signature': signature,
    'x-razorpay-event-id': 'evt_answers0000001',
  });
  const secretOfWebhooks = t.config.razorpay.webhookSecret ?? '';
  await take(
    'razorpay webhook',
    inject('POST', '/api/razorpay/webhook/', {
      headers: webhookHeaders(webhookSignature(secretOfWebhooks, event)),
      payload: event,
    }),
  );
  await take(
    'razorpay webhook: again',
    inject('POST', '/api/razorpay/webhook/', {
      headers: webhookHeaders(webhookSignature(secretOfWebhooks, event)),
      payload: event,
    }),
  );
  await take(
    'razorpay webhook: bad signature',
    inject('POST', '/api/razorpay/webhook/', { headers: webhookHeaders('0'.repeat(64)), payload: event }),
  );

  await take('my tools', asha.get('/api/my-tools/'));
  await take('catalogue: signed in, bought', asha.get('/api/alltools/'));
  await take('send the key again', asha.post('/api/send-tool-credentials/', { toolId: toolkit.id }));
  await take(
    'send the key again: not bought',
    asha.post('/api/send-tool-credentials/', { toolId: ledger.id }),
  );
  const installers = json<
    Array<{ _id: string; currentVersion: { installers: Array<{ artifactId: string }> } | null }>
  >(await asha.get('/api/my-tools/'));
  const installerId = installers.find((tool) => tool._id === toolkit.id)?.currentVersion?.installers[0]
    ?.artifactId;
  const link = await take('an installer', asha.get(`/api/my-tools/installers/${installerId}`));
  await take('an installer: download', asha.get(String(link.headers.location)));
  await take('an installer: not one', asha.get(`/api/my-tools/installers/${NOBODY}`));
  const delivery = await mailTo(ashaNewEmail, 'license-delivery');
  const downloadPath = firstMatch(delivery.text, /https?:\/\/\S+(\/api\/downloads\/[\w-]{43})/);
  await take('download from the email', visitor.get(downloadPath));
  await take('download: unknown link', visitor.get(`/api/downloads/${'A'.repeat(43)}`));
  await take(
    'download: unknown link, asked as JSON',
    visitor.get(`/api/downloads/${'A'.repeat(43)}`, { accept: 'application/json' }),
  );
  await take('start a trial', asha.post('/api/trials/', { toolId: floating.id }));
  await take('start a trial: again', asha.post('/api/trials/', { toolId: floating.id }));
  await take('start a trial: a tool without trials', asha.post('/api/trials/', { toolId: ledger.id }));

  const ledgerOrder = json<{ order_id: string }>(
    await asha.post('/api/create-payment/', {
      toolId: ledger.id,
      currency: 'INR',
      billingDetails: INR_BILLING,
    }),
  ).order_id;
  const ledgerPaid = await inject('POST', `/emulator/razorpay/checkout/${ledgerOrder}/pay`, {
    payload: keyId,
  });
  await asha.post('/api/verify-payment/', ledgerPaid.json());
  await t.emulator?.settled();

  await take('orders', asha.get('/api/orders/'));
  const orders = json<Array<{ id: string; toolName: string }>>(await asha.get('/api/orders/'));
  const toolkitOrderId = orders.find((order) => order.toolName.startsWith('Answers Toolkit'))?.id;
  const ledgerOrderId = orders.find((order) => order.toolName === 'Answers Ledger Online')?.id;
  await take('an order', asha.get(`/api/orders/${toolkitOrderId}`));
  await take('an order: not hers', asha.get(`/api/orders/${NOBODY}`));
  await take('an invoice', asha.get(`/api/orders/${toolkitOrderId}/invoice.pdf`));
  await take('an invoice: not a document', asha.get(`/api/orders/${toolkitOrderId}/receipt.pdf`));
  await take(
    'correct the billing',
    asha.post(`/api/orders/${toolkitOrderId}/billing`, {
      gstin: '08AAPFP1234A1ZK',
      address: 'Ganpati Plaza, MI Road, Jaipur',
      state: 'Rajasthan',
    }),
  );
  await take(
    'correct the billing: refused',
    asha.post(`/api/orders/${toolkitOrderId}/billing`, { gstin: 'nope', address: '', state: 'Atlantis' }),
  );
  await take(
    'correct the billing: the same again',
    asha.post(`/api/orders/${toolkitOrderId}/billing`, {
      gstin: '08AAPFP1234A1ZK',
      address: 'Ganpati Plaza, MI Road, Jaipur',
      state: 'Rajasthan',
    }),
  );
  await take('the order after the correction', asha.get(`/api/orders/${toolkitOrderId}`));
  await take('a credit note', asha.get(`/api/orders/${toolkitOrderId}/credit-note.pdf`));
  await take(
    'ask for a refund',
    asha.post(`/api/orders/${ledgerOrderId}/refund-request`, {
      reason: 'does-not-work',
      description: 'It does not open on my laptop.',
    }),
  );
  await take(
    'ask for a refund: again',
    asha.post(`/api/orders/${ledgerOrderId}/refund-request`, {
      reason: 'does-not-work',
      description: 'It does not open on my laptop.',
    }),
  );
  await take(
    'ask for a refund: refused',
    asha.post(`/api/orders/${ledgerOrderId}/refund-request`, { reason: 'bored', description: 'x' }),
  );
  await take('an order with a refund request', asha.get(`/api/orders/${ledgerOrderId}`));

  // ── Licenses: Asha's tool activates, validates, checks for updates and reads its feeds ─────────────────────
  section('licenses');
  const licenseKey = firstMatch(delivery.text, /\b([2-9A-HJ-NP-Z]{5}(?:-[2-9A-HJ-NP-Z]{5}){3})\b/);
  const machine = { licenseKey, toolId: toolkit.id, fingerprint: 'answers-machine-0001' };
  const api = (operation: string, body: unknown) =>
    inject('POST', `/api/licenses/${operation}`, {
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const activated = await take('activate', api('activate', { ...machine, name: 'Asha’s desk' }));
  await take('activate: refused', api('activate', { licenseKey: 'x' }));
  await take(
    'activate: not JSON',
    inject('POST', '/api/licenses/activate', { headers: { 'content-type': 'text/plain' }, payload: 'hello' }),
  );
  await take('validate', api('validate', machine));
  await take('validate: unknown key', api('validate', { ...machine, licenseKey: 'AAAAA-BBBBB-CCCCC-DDDDD' }));
  await take(
    'validate: another machine',
    api('validate', { ...machine, fingerprint: 'answers-machine-0009' }),
  );
  await take('heartbeat of a per-device license', api('heartbeat', machine));
  await take(
    'update check',
    api('update-check', { ...machine, platform: 'windows', arch: 'x64', version: '1.0.0' }),
  );
  await take(
    'update check: up to date',
    api('update-check', { ...machine, platform: 'windows', arch: 'x64', version: '1.1.0' }),
  );
  await take('update check: refused', api('update-check', { ...machine, platform: 'beos' }));
  await take('license public keys', inject('GET', '/api/licenses/public-keys'));
  await take('release public key', inject('GET', '/api/updates/public-key'));

  const trialMail = await mailTo(ashaNewEmail, 'trial-delivery');
  const trialKey = firstMatch(trialMail.text, /\b([2-9A-HJ-NP-Z]{5}(?:-[2-9A-HJ-NP-Z]{5}){3})\b/);
  const seat = { licenseKey: trialKey, toolId: floating.id, fingerprint: 'answers-machine-0002' };
  await take('activate a floating trial', api('activate', { ...seat, name: 'Asha’s laptop' }));
  await take('heartbeat', api('heartbeat', seat));
  await take('deactivate', api('deactivate', seat));
  await take('deactivate: not activated', api('deactivate', seat));

  const { updates } = json<{ updates: { appcastUrl: string; velopackUrl: string } }>(activated);
  const feed = new URL(updates.appcastUrl).pathname.replace(/appcast\.xml$/, '');
  const appcast = await take('appcast', visitor.get(`${feed}appcast.xml`));
  await take(
    'appcast: unchanged',
    visitor.get(`${feed}appcast.xml`, { 'if-none-match': String(appcast.headers.etag) }),
  );
  await take('appcast: betas', visitor.get(`${feed}appcast.xml?channel=beta`));
  await take('appcast: an unknown platform', visitor.get(`${feed}appcast.xml?os=beos`));
  await take('Velopack feed', visitor.get(`${feed}releases.win.json`));
  await take('Squirrel RELEASES', visitor.get(`${feed}RELEASES`));
  await take('Velopack package', visitor.get(`${feed}${toolkit.defaultPackageId}-1.1.0-full.nupkg`));
  await take('a feed: unknown file', visitor.get(`${feed}nothing.json`));
  await take('a feed: unknown token', visitor.get(`/api/updates/${'A'.repeat(43)}/appcast.xml`));
  const archive = /<enclosure url="([^"]+)"/.exec(appcast.body)?.[1] ?? '';
  const archivePath = new URL(archive).pathname;
  await take('a feed file', visitor.get(archivePath));
  await take('a feed file: a range', visitor.get(archivePath, { range: 'bytes=0-3' }));
  await take('a feed file: an unsatisfiable range', visitor.get(archivePath, { range: 'bytes=99999-' }));
  await take(
    'a feed file: unchanged',
    visitor.get(archivePath, { 'if-none-match': String((await visitor.get(archivePath)).headers.etag) }),
  );
  await take('a feed file: unknown', visitor.get(`${feed}files/${NOBODY}/AnswersToolkit.zip`));

  // Asha holds three licenses, which GET /api/my-licenses/ lists in no set order: Kiran's and Dev's one each are
  // recorded below.
  const devices = json<Array<{ toolId: string; devices: Array<{ id: string }> }>>(
    await asha.get('/api/my-licenses/'),
  );
  const deviceId = devices.find((license) => license.toolId === toolkit.id)?.devices[0]?.id;
  await take('a license file', asha.get(`/api/my-licenses/devices/${deviceId}/license-file`));
  await take('a license file: unknown device', asha.get(`/api/my-licenses/devices/${NOBODY}/license-file`));
  await take('a license file: not an id', asha.get('/api/my-licenses/devices/nope/license-file'));
  await take('free a device', asha.post(`/api/my-licenses/devices/${deviceId}/deactivate`));
  await take('free a device: again', asha.post(`/api/my-licenses/devices/${deviceId}/deactivate`));
  await api('activate', { ...machine, name: 'Asha’s desk' });

  // ── A team: Kiran buys three seats and invites Dev ────────────────────────────────────────────────────────
  section('teams');
  const kiran = await person('Kiran Rao', 'kiran@answers.test', '203.0.113.20');
  const teamOrder = json<{ order_id: string }>(
    await kiran.post('/api/create-payment/', {
      toolId: toolkit.id,
      currency: 'INR',
      billingDetails: INR_BILLING,
      seats: 3,
    }),
  ).order_id;
  const teamPaid = await inject('POST', `/emulator/razorpay/checkout/${teamOrder}/pay`, { payload: keyId });
  await kiran.post('/api/verify-payment/', teamPaid.json());
  await t.emulator?.settled();
  const kiranLicenses = json<Array<{ toolId: string }>>(await kiran.get('/api/my-tools/'));
  const teamLicenseId = (kiranLicenses as unknown as Array<{ team?: { licenseId: string } }>).find(
    (tool) => tool.team,
  )?.team?.licenseId;
  await take('a team', kiran.get(`/api/teams/${teamLicenseId}`));
  await take('a team: not hers', asha.get(`/api/teams/${teamLicenseId}`));
  await take('a team: not an id', kiran.get('/api/teams/nope'));
  await take('invite', kiran.post(`/api/teams/${teamLicenseId}/invitations`, { email: 'dev@answers.test' }));
  await take('the team with an invitation', kiran.get(`/api/teams/${teamLicenseId}`));
  await take('invite: refused', kiran.post(`/api/teams/${teamLicenseId}/invitations`, { email: 'nope' }));
  const invitation = await mailTo('dev@answers.test', 'team-invitation');
  const invitationToken = firstMatch(invitation.text, /\/team-invitations?\/([\w-]{43})/);
  await take('an invitation', visitor.get(`/api/team-invitations/${invitationToken}`));
  await take('an invitation: unknown', visitor.get(`/api/team-invitations/${'A'.repeat(43)}`));
  const dev = await person('Dev Sharma', 'dev@answers.test', '203.0.113.21');
  await take('accept an invitation', dev.post(`/api/team-invitations/${invitationToken}/accept`));
  await take('accept an invitation: again', dev.post(`/api/team-invitations/${invitationToken}/accept`));
  const second = json<{ invitation: { id: string } }>(
    await take(
      'invite another',
      kiran.post(`/api/teams/${teamLicenseId}/invitations`, { email: 'neha@answers.test' }),
    ),
  );
  await take(
    'cancel an invitation',
    kiran.request('DELETE', `/api/teams/${teamLicenseId}/invitations/${second.invitation.id}`),
  );
  await take(
    'cancel an invitation: again',
    kiran.request('DELETE', `/api/teams/${teamLicenseId}/invitations/${second.invitation.id}`),
  );
  const team = json<{ members: Array<{ memberId: string; isOwner: boolean }> }>(
    await kiran.get(`/api/teams/${teamLicenseId}`),
  );
  const member = team.members.find((each) => !each.isOwner);
  await take('the team with its member', kiran.get(`/api/teams/${teamLicenseId}`));
  await take('my tools: a team owner', kiran.get('/api/my-tools/'));
  await take('my tools: a team member', dev.get('/api/my-tools/'));
  await take(
    'a free copy with a coupon',
    dev.post('/api/create-payment/', {
      toolId: floating.id,
      currency: 'INR',
      billingDetails: INR_BILLING,
      couponCode: 'answers-free',
    }),
  );
  await take('my licenses: a team owner', kiran.get('/api/my-licenses/'));
  await take('my licenses: a team member', dev.get('/api/my-licenses/'));
  await take(
    'remove a member',
    kiran.request('DELETE', `/api/teams/${teamLicenseId}/members/${member?.memberId}`),
  );
  await take(
    'remove a member: again',
    kiran.request('DELETE', `/api/teams/${teamLicenseId}/members/${member?.memberId}`),
  );

  // ── The Razorpay emulator's own API, as the gateway and the tests call it ─────────────────────────────────
  section('emulator');
  const basic = {
    authorization: `Basic ${Buffer.from(`${t.config.razorpay.keyId}:${t.config.razorpay.keySecret}`).toString('base64')}`,
  };
  const emulated = await take(
    'create an order',
    inject('POST', '/emulator/razorpay/v1/orders', {
      headers: basic,
      payload: { amount: 50_000, currency: 'INR', receipt: 'answers-1', notes: { purpose: 'answers' } },
    }),
  );
  await take(
    'create an order: refused',
    inject('POST', '/emulator/razorpay/v1/orders', {
      headers: basic,
      payload: { amount: 1, currency: 'INR' },
    }),
  );
  await take(
    'create an order: unauthenticated',
    inject('POST', '/emulator/razorpay/v1/orders', { payload: { amount: 50_000, currency: 'INR' } }),
  );
  const emulatedId = json<{ id: string }>(emulated).id;
  await take('an order', inject('GET', `/emulator/razorpay/v1/orders/${emulatedId}`, { headers: basic }));
  await take(
    'an order: unknown',
    inject('GET', '/emulator/razorpay/v1/orders/order_UNKNOWN0000000', { headers: basic }),
  );
  await take('the checkout script', inject('GET', '/emulator/checkout.js'));
  await take(
    'a checkout that fails',
    inject('POST', `/emulator/razorpay/checkout/${emulatedId}/fail`, { payload: keyId }),
  );
  await take(
    'a checkout: wrong key',
    inject('POST', `/emulator/razorpay/checkout/${emulatedId}/fail`, {
      payload: { key_id: 'rzp_test_nope' },
    }),
  );
  const payments = await take(
    "an order's payments",
    inject('GET', `/emulator/razorpay/v1/orders/${emulatedId}/payments`, { headers: basic }),
  );
  const failedPayment = json<{ items: Array<{ id: string }> }>(payments).items[0]?.id;
  await take(
    'a late capture',
    inject('POST', `/emulator/razorpay/test/payments/${failedPayment}/late-capture`, { headers: basic }),
  );
  await take(
    'a late capture: again',
    inject('POST', `/emulator/razorpay/test/payments/${failedPayment}/late-capture`, { headers: basic }),
  );
  await take(
    'a refund',
    inject('POST', `/emulator/razorpay/v1/payments/${failedPayment}/refund`, {
      headers: { ...basic, 'x-refund-idempotency': 'answers-refund-1' },
      payload: { amount: 10_000 },
    }),
  );
  await take(
    'a refund: again',
    inject('POST', `/emulator/razorpay/v1/payments/${failedPayment}/refund`, {
      headers: { ...basic, 'x-refund-idempotency': 'answers-refund-1' },
      payload: { amount: 10_000 },
    }),
  );
  await take(
    'a refund: too much',
    inject('POST', `/emulator/razorpay/v1/payments/${failedPayment}/refund`, {
      headers: basic,
      payload: { amount: 10_000_000 },
    }),
  );
  await take(
    'a dispute',
    inject('POST', `/emulator/razorpay/test/payments/${failedPayment}/dispute`, {
      headers: basic,
      payload: { status: 'created' },
    }),
  );
  await take(
    'a dispute: refused',
    inject('POST', `/emulator/razorpay/test/payments/${failedPayment}/dispute`, {
      headers: basic,
      payload: { status: 'maybe' },
    }),
  );
  await take(
    'a refund in the Dashboard',
    inject('POST', `/emulator/razorpay/test/payments/${failedPayment}/dashboard-refund`, {
      headers: basic,
      payload: {},
    }),
  );
  await take(
    'a refund in the Dashboard: nothing left',
    inject('POST', `/emulator/razorpay/test/payments/${failedPayment}/dashboard-refund`, {
      headers: basic,
      payload: {},
    }),
  );
  await t.emulator?.settled();

  // ── The operator's side of all that ───────────────────────────────────────────────────────────────────────
  section('dashboard-after-sales');
  await take('overview', operator.get('/api/admin/overview'));
  await take('orders', operator.get('/api/admin/orders'));
  await take(
    'orders: found',
    operator.get('/api/admin/orders?q=asha&status=paid&sort=amount&dir=asc&from=2026-05-01&to=2026-06-30'),
  );
  await take('orders: refused query', operator.get('/api/admin/orders?from=2026-13-01'));
  await take('an order', operator.get(`/api/admin/orders/${toolkitOrderId}`));
  await take('an order: unknown', operator.get(`/api/admin/orders/${NOBODY}`));
  await take('an order: not an id', operator.get('/api/admin/orders/nope'));
  await take('an invoice', operator.get(`/api/admin/orders/${toolkitOrderId}/invoice.pdf`));
  await take('a credit note: none', operator.get(`/api/admin/orders/${ledgerOrderId}/credit-note.pdf`));
  await take('send the delivery again', operator.post(`/api/admin/orders/${toolkitOrderId}/resend`, {}));
  await take('customers', operator.get('/api/admin/customers?sort=email&dir=asc'));
  await take('a customer', operator.get(`/api/admin/customers/${ashaId}`));
  await take('a customer: unknown', operator.get(`/api/admin/customers/${NOBODY}`));
  await take("a customer's data", operator.get(`/api/admin/customers/${ashaId}/export`));
  const customer = json<{ licenses: Array<{ id: string; devices: Array<{ id: string }> }> }>(
    await operator.get(`/api/admin/customers/${ashaId}`),
  );
  const held = customer.licenses.find((license) => license.devices.length > 0);
  await take(
    'free a device',
    operator.post(`/api/admin/licenses/${held?.id}/devices/${held?.devices[0]?.id}/deactivate`, {}),
  );
  await take(
    'free a device: again',
    operator.post(`/api/admin/licenses/${held?.id}/devices/${held?.devices[0]?.id}/deactivate`, {}),
  );
  await take(
    'reset the deactivations',
    operator.post(`/api/admin/licenses/${held?.id}/reset-deactivations`, {}),
  );
  const messages = await take('messages', operator.get('/api/admin/messages?show=all'));
  const messageId = json<{ items: Array<{ id: string }> }>(messages).items[0]?.id;
  await take('mark a message handled', operator.post(`/api/admin/messages/${messageId}/handled`, {}));
  await take('mark a message handled: again', operator.post(`/api/admin/messages/${messageId}/handled`, {}));
  await take(
    'mark a message handled: refused body',
    operator.post(`/api/admin/messages/${messageId}/handled`, { extra: true }),
  );
  const [failedMail] = await t.ctx.db
    .insert(outbox)
    .values({
      to: 'bounce@answers.test',
      subject: 'A mail that failed',
      html: '<p>Failed</p>',
      text: 'Failed',
      kind: 'test',
      status: 'failed',
      attempts: 5,
      lastError: '550 no such mailbox',
      createdAt: t.clock.now(),
      nextAttemptAt: t.clock.now(),
    })
    .returning({ id: outbox.id });
  await take('mail', operator.get('/api/admin/mail'));
  await take('send a mail again', operator.post(`/api/admin/mail/${failedMail?.id}/retry`, {}));
  await take('send a mail again: not failed', operator.post(`/api/admin/mail/${failedMail?.id}/retry`, {}));
  await take('send a mail again: unknown', operator.post('/api/admin/mail/999999/retry', {}));
  await take('invoices', operator.get('/api/admin/invoices?from=2026-04-01&to=2027-03-31'));
  await take('invoices: refused period', operator.get('/api/admin/invoices?from=2026-04-01&to=2026-03-01'));
  await take('GSTR-1 export', operator.get('/api/admin/invoices/export?from=2026-04-01&to=2027-03-31'));
  await take('trials of a tool', operator.get(`/api/admin/tools/${floating.id}/trials`));
  const trial = json<{ trials: Array<{ id: string }> }>(
    await operator.get(`/api/admin/tools/${floating.id}/trials`),
  ).trials[0];
  await take('extend a trial', operator.post(`/api/admin/trials/${trial?.id}/extend`, { days: 3 }));
  await take('extend a trial: refused', operator.post(`/api/admin/trials/${trial?.id}/extend`, { days: 0 }));
  await take('end a trial', operator.post(`/api/admin/trials/${trial?.id}/end`, {}));
  await take('end a trial: unknown', operator.post(`/api/admin/trials/${NOBODY}/end`, {}));
  const requests = await take('refund requests', operator.get('/api/admin/refund-requests'));
  const open = json<Array<{ id: string }>>(requests)[0]?.id;
  await take(
    'approve a refund request: wrong code',
    operator.post(`/api/admin/refund-requests/${open}/approve`, { code: await wrong() }),
  );
  const neha = await person('Neha Gupta', 'neha@answers.test', '203.0.113.22');
  const nehaOrder = json<{ order_id: string }>(
    await neha.post('/api/create-payment/', {
      toolId: ledger.id,
      currency: 'INR',
      billingDetails: INR_BILLING,
    }),
  ).order_id;
  const nehaPaid = await inject('POST', `/emulator/razorpay/checkout/${nehaOrder}/pay`, { payload: keyId });
  await neha.post('/api/verify-payment/', nehaPaid.json());
  await t.emulator?.settled();
  const nehaOrderId = json<Array<{ id: string }>>(await neha.get('/api/orders/'))[0]?.id;
  await neha.post(`/api/orders/${nehaOrderId}/refund-request`, {
    reason: 'charged-twice',
    description: 'I was charged twice for this.',
  });
  const both = json<Array<{ id: string; orderId: string }>>(await operator.get('/api/admin/refund-requests'));
  const nehas = both.find((each) => each.orderId === nehaOrderId)?.id;
  await take(
    'approve a refund request',
    operator.post(`/api/admin/refund-requests/${open}/approve`, { code: await freshCode() }),
  );
  await take(
    'decline a refund request',
    operator.post(`/api/admin/refund-requests/${nehas}/decline`, {
      reason: 'The second charge was refunded by your bank.',
    }),
  );
  await take(
    'decline a refund request: again',
    operator.post(`/api/admin/refund-requests/${nehas}/decline`, { reason: 'Again.' }),
  );
  await take(
    'refund an order: no reason',
    operator.post(`/api/admin/orders/${nehaOrderId}/refund`, { reason: '', code: await freshCode() }),
  );
  await take(
    'refund an order',
    operator.post(`/api/admin/orders/${nehaOrderId}/refund`, {
      reason: 'Goodwill refund',
      code: await freshCode(),
    }),
  );
  await take(
    'refund an order: again',
    operator.post(`/api/admin/orders/${nehaOrderId}/refund`, {
      reason: 'Goodwill refund',
      code: await freshCode(),
    }),
  );
  await t.emulator?.settled();
  await take('a coupon with its uses', operator.get('/api/admin/coupons/answers-10'));
  await take('disable a coupon', operator.post('/api/admin/coupons/ANSWERS-10/disable', {}));
  await take('coupons', operator.get('/api/admin/coupons'));
  // One attempt each (nothing listens on port 9), then given up, so that they may be redelivered.
  await createWebhookWorker(t.ctx).runOnce();
  await t.ctx.db
    .update(webhookDeliveries)
    .set({ status: 'failed' })
    .where(eq(webhookDeliveries.endpointId, endpoint.id));
  const deliveries = await take('webhook deliveries', operator.get(`/api/admin/webhooks/${endpoint.id}`));
  const firstDelivery = json<{ deliveries: Array<{ id: number }> }>(deliveries).deliveries.at(-1)?.id;
  const copy = await take(
    'redeliver',
    operator.post(`/api/admin/webhook-deliveries/${firstDelivery}/redeliver`, {}),
  );
  await take(
    'redeliver: still being tried',
    operator.post(`/api/admin/webhook-deliveries/${json<{ id: number }>(copy).id}/redeliver`, {}),
  );
  await take('disable a webhook endpoint', operator.post(`/api/admin/webhooks/${endpoint.id}/disable`, {}));
  await take('enable a webhook endpoint', operator.post(`/api/admin/webhooks/${endpoint.id}/enable`, {}));
  await take(
    'rotate a webhook secret',
    operator.post(`/api/admin/webhooks/${endpoint.id}/rotate-secret`, {}),
  );
  await take('webhook endpoints', operator.get('/api/admin/webhooks'));
  await take('a webhook endpoint: unknown', operator.get(`/api/admin/webhooks/${NOBODY}`));
  await take('activity', operator.get('/api/admin/activity?pageSize=5&sort=action&dir=asc'));
  await take('activity: a search', operator.get('/api/admin/activity?q=coupon'));

  // ── The development mailbox ───────────────────────────────────────────────────────────────────────────────
  section('dev-mailbox');
  await take(
    'the mailbox as JSON',
    visitor.get(`/dev/mailbox.json?to=${ashaNewEmail}&kind=license-delivery`),
  );
  await take('the mailbox page', visitor.get('/dev/mailbox?kind=license-delivery'));
  await take('the mailbox page: nothing', visitor.get('/dev/mailbox?to=nobody@answers.test'));
  await take('one email', visitor.get(`/dev/mailbox/${delivery.id}`));
  await take('one email: unknown', visitor.get('/dev/mailbox/999999'));

  // ── Asha takes her data; Leela deletes her account ────────────────────────────────────────────────────────
  section('data-rights');
  await take("Asha's data", asha.get('/api/account/export'));
  const leela = await person('Leela Nair', 'leela@answers.test', '203.0.113.30');
  await take(
    'delete the account: wrong password',
    leela.post('/api/account/delete', { password: 'not my password', email: 'leela@answers.test' }),
  );
  await take(
    'delete the account: wrong email',
    leela.post('/api/account/delete', { password: DEFAULT_PASSWORD, email: 'someone@answers.test' }),
  );
  await take(
    'delete the account',
    leela.post('/api/account/delete', { password: DEFAULT_PASSWORD, email: 'leela@answers.test' }),
  );
  await take('auth check after the deletion', leela.get('/api/auth/check/'));

  // ── Asha activates a computer without internet and frees it with its code (issue 67) ────────────────────────
  // Last, so the steps before keep the times they were recorded at. The request is written as the reference client
  // writes it, with a fixed nonce.
  section('computers-without-internet');
  const toolkitLicenseId = json<Array<{ toolId: string; licenseId: string }>>(
    await asha.get('/api/my-licenses/'),
  ).find((license) => license.toolId === toolkit.id)?.licenseId;
  const offlineRequest = `${OFFLINE_REQUEST_PREFIX}${Buffer.from(
    JSON.stringify({
      v: 1,
      toolId: toolkit.id,
      fingerprint: 'answers-offline-0001',
      name: 'Audit room',
      client: '1.0.0',
      nonce: 'answers-offline-nonce-01',
      createdAt: '2026-06-01T10:00:00.000Z',
    }),
  ).toString('base64url')}`;
  const offlineActivations = `/api/my-licenses/${toolkitLicenseId}/offline-activations`;
  const offlineResponse = await take(
    'activate a computer without internet',
    asha.post(offlineActivations, { request: offlineRequest }),
  );
  await take(
    'activate a computer without internet: not a request',
    asha.post(offlineActivations, { request: 'Please activate our computer' }),
  );
  await take(
    'activate a computer without internet: not her license',
    asha.post(`/api/my-licenses/${NOBODY}/offline-activations`, { request: offlineRequest }),
  );
  const responsePayload = JSON.parse(
    Buffer.from(json<{ payload: string }>(offlineResponse).payload, 'base64').toString(),
  );
  const deactivationCode = deactivationCodeOf(
    responsePayload.offline.deactivationKey,
    responsePayload.activationId,
  );
  const offlineDeactivations = `/api/my-licenses/${toolkitLicenseId}/offline-deactivations`;
  await take('free a computer without internet', asha.post(offlineDeactivations, { code: deactivationCode }));
  await take(
    'free a computer without internet: again',
    asha.post(offlineDeactivations, { code: deactivationCode }),
  );
  await take(
    'free a computer without internet: not a code',
    asha.post(offlineDeactivations, { code: 'nope' }),
  );

  // ── Strangers: every route, asked by someone signed out, with and without the CSRF token ─────────────────────
  section('strangers');
  const stranger = await t.client({ ip: '198.51.100.7' });
  const noToken = await t.client({ ip: '198.51.100.8' });
  noToken.sendCsrfHeader = false;
  const fill = (pattern: string) =>
    pattern.replace(/:(\w+)/g, (_match, name: string) =>
      name === 'file'
        ? 'invoice.pdf'
        : name === 'fileName'
          ? 'Setup.exe'
          : name === 'token'
            ? 'A'.repeat(43)
            : NOBODY,
    );
  for (const route of t.routes) {
    if (route.method === 'HEAD') continue;
    const method = route.method as 'GET' | 'POST' | 'PATCH' | 'DELETE';
    const body = method === 'GET' || method === 'DELETE' ? undefined : {};
    await take(`${route.method} ${route.url}`, stranger.request(method, fill(route.url), body));
    if (method !== 'GET' && route.url.startsWith('/api/'))
      await take(
        `${route.method} ${route.url}: no CSRF token`,
        noToken.request(method, fill(route.url), body),
      );
  }
}

beforeAll(async () => {
  // The default catalogue names both PDF toolkits alike, and the dashboard's list sorts by name: told apart here,
  // so the two rows come in one order on every run.
  await t.ctx.db.update(tools).set({ name: 'PDF Utility Toolkit for Mac' }).where(eq(tools.device, 'macOS'));
  invalidateCatalogue(t.ctx);
  await playScenario();
  if (RECORDING) writeRecordings(FOLDER, played);
}, 600_000);

const ajv = new Ajv2020({ strict: false });

/** Why an answer is not one its route declares, or undefined when it is. */
function undeclared(response: LightMyRequestResponse): string | undefined {
  const answeredBy = String(response.headers['x-answered-by']);
  const route = t.routes.find((each) => `${each.method} ${each.url}` === answeredBy);
  const declared = route?.schema?.response as Record<string, unknown> | undefined;
  const status = String(response.statusCode);
  const declaration = declared?.[status] ?? declared?.[`${status[0]}xx`] ?? declared?.default;
  if (!declaration) return `${status} is not declared`;
  const kind = answerKind(declaration);
  const type = String(response.headers['content-type'] ?? '').split(';')[0] ?? '';
  if (kind.kind === 'no body')
    return response.rawPayload.length === 0
      ? undefined
      : `${status} is declared without a body; it sent ${type}`;
  if (kind.kind === 'format')
    return type in kind.mediaTypes
      ? undefined
      : `${status} sent ${type}, not one of ${Object.keys(kind.mediaTypes)}`;
  if (type !== 'application/json') return `${status} is declared as JSON; it sent ${type}`;
  const body: unknown = response.json();
  if (kind.schema instanceof $ZodType) {
    const parsed = safeParse(kind.schema, body);
    return parsed.success ? undefined : `${status} does not fit its schema: ${z.prettifyError(parsed.error)}`;
  }
  const validate = ajv.compile(kind.schema as object);
  return validate(body) ? undefined : `${status} does not fit its schema: ${ajv.errorsText(validate.errors)}`;
}

describe('every answer the scenario met', () => {
  it('is one its route declares: the status, the kind of body, and a body that fits its schema', () => {
    const problems = answered
      .map(({ step, response }) => ({ step, response, problem: undeclared(response) }))
      .filter(({ problem }) => problem !== undefined)
      .map(({ step, response, problem }) => `${response.headers['x-answered-by']} (${step}): ${problem}`);
    expect(problems).toEqual([]);
  });
});

const recordings = RECORDING ? new Map<string, Record<string, RecordedAnswer>>() : readRecordings(FOLDER);

describe('the answers recorded before the routes declared their schemas', () => {
  it('are the steps the scenario plays, area by area', () => {
    const steps = (areas: Map<string, Iterable<string>>) =>
      Object.fromEntries([...areas].map(([name, each]) => [name, [...each]]));
    const recorded = new Map([...readRecordings(FOLDER)].map(([name, each]) => [name, Object.keys(each)]));
    expect(steps(new Map([...played].map(([name, each]) => [name, each.keys()])))).toEqual(steps(recorded));
  });

  for (const [name, steps] of recordings)
    describe(name, () => {
      for (const [step, recorded] of Object.entries(steps))
        it(step, () => {
          expect(played.get(name)?.get(step)).toEqual(recorded);
        });
    });
});
