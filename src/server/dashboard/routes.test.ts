import { desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/support/client';
import {
  enrol,
  freshTotp,
  signedInBuyer,
  signedInOperator,
  totpAt,
  verifiedOperator,
} from '../../../test/support/dashboard-helpers';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { multipartFile } from '../../../test/support/forms';
import { fingerprint } from '../../../test/support/license-fixtures';
import { installerUpload } from '../../../test/support/release-fixtures';
import {
  addTool,
  buyThroughEmulator,
  INR_BILLING,
  newBuyer,
  TOOL_FORM,
} from '../../../test/support/shop-fixtures';
import { DASHBOARD_MESSAGES } from '../../shared/dashboard';
import { createReleaseSchema } from '../../shared/release-schemas';
import { newWebhookEndpointSchema } from '../../shared/webhooks';
import { users } from '../db/schema/accounts';
import { toolEditions, tools } from '../db/schema/catalogue';
import { contactMessages } from '../db/schema/contact';
import { licenseActivations, licenses } from '../db/schema/licenses';
import { outbox } from '../db/schema/mail';
import { adminSessions, auditLog, operators } from '../db/schema/operator';
import { orders, purchases } from '../db/schema/orders';
import { webhookDeliveries } from '../db/schema/webhooks';
import { indiaDate } from '../invoices/numbering';
import { activateLicense } from '../licenses/activate';
import { suspendLicense } from '../licenses/operator';
import { revealLicenseKey } from '../licenses/secrets-at-rest';
import { cliActor } from '../operator/audit';
import { revokeOperator } from '../operator/roles';
import { recordTransfer } from '../orders/receipts';
import { addArtifact, createRelease } from '../releases/operator';
import { startTrial } from '../trials/trials';
import { addWebhookEndpoint } from '../webhooks/operator';
import { DASHBOARD_IDLE_MS, DASHBOARD_MAX_MS } from './session';

const FIRM_BILLING = {
  address: 'Unit 4, Trade Centre, Bandra Kurla Complex, Mumbai',
  state: 'Maharashtra',
  country: 'India',
  gstin: '27AAPFU0939F1ZV',
  currency: 'INR',
};

/**
 * Proformas for the route table (issue 68), asked for by a firm as the checkout asks: one left awaiting payment; two
 * cancelled as their expiry leaves them, each with the whole amount transferred after it (a late payment); one with
 * TDS and its Form 16A uploaded.
 */
async function proformaFixtures(toolId: string, today: string): Promise<Fixtures['proformas']> {
  const firm = await newBuyer(t);
  const ask = async (tds: boolean) => {
    const asked = await firm.client.post('/api/checkout/proforma', {
      toolId,
      currency: 'INR',
      billingDetails: FIRM_BILLING,
      seats: 5,
      ...(tds ? { tds: true, pan: 'AAPFU0939F' } : {}),
    });
    if (asked.statusCode !== 200) throw new Error(`proforma refused: ${asked.body}`);
    return asked.json<{ orderId: string; amountDue: number }>();
  };
  const lateTransfer = async (utr: string) => {
    const { orderId, amountDue } = await ask(false);
    await t.ctx.db.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, orderId));
    const outcome = await recordTransfer(t.ctx, {
      orderId,
      amount: amountDue,
      utr,
      date: today,
      actor: cliActor('tester'),
      source: 'admin',
    });
    if (outcome.result !== 'late') throw new Error(`expected a late payment, got ${outcome.result}`);
    return orderId;
  };
  const withForm16a = (await ask(true)).orderId;
  const upload = multipartFile('file', 'Form16A.pdf', Buffer.from('%PDF-1.4\n%%EOF\n'));
  const uploaded = await firm.client.post(`/api/orders/${withForm16a}/tds-certificate`, upload.body, {
    'content-type': upload.contentType,
  });
  if (uploaded.statusCode !== 200) throw new Error(`Form 16A refused: ${uploaded.body}`);
  return {
    open: (await ask(false)).orderId,
    lateToSettle: await lateTransfer('ROUTELATE0001'),
    lateToReturn: await lateTransfer('ROUTELATE0002'),
    withForm16a,
  };
}

type Call = {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  body?: Record<string, unknown> | string;
  headers?: Record<string, string>;
};

/** What the endpoint table's requests act on: a paid order with its license, device, message and mail. */
type Fixtures = {
  orderId: string;
  /** Two buyers' open refund requests, one to approve and one to decline. */
  refundRequests: { approve: string; decline: string };
  customerId: string;
  toolId: string;
  licenseId: string;
  deviceId: string;
  messageId: string;
  mailId: number;
  trialId: string;
  /** A draft release of the tool with one file. */
  releaseId: string;
  artifactId: string;
  webhookId: string;
  /** A delivery already made, which may be redelivered. */
  webhookDeliveryId: number;
  /**
   * Orders paid against a proforma (issue 68): one awaiting transfers, two cancelled with a late transfer (one to
   * settle with it, one to return it), and one whose buyer deducts TDS and has uploaded its Form 16A.
   */
  proformas: { open: string; lateToSettle: string; lateToReturn: string; withForm16a: string };
  /** Today in India, the value date of a transfer. */
  today: string;
  /** A TOTP code not used yet, for the actions that ask for one. */
  freshCode(): Promise<string>;
};

/** A multipart body as the dashboard's upload form sends it: the code first, then the file. */
async function uploadForm(code: string): Promise<Pick<Call, 'body' | 'headers'>> {
  const form = new FormData();
  form.set('code', code);
  form.set('file', new Blob(['MZ a small installer']), 'setup.exe');
  const encoded = new Response(form);
  return {
    body: Buffer.from(await encoded.arrayBuffer()).toString('latin1'),
    headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
  };
}

const TOOL_FIELDS = {
  ...TOOL_FORM,
  name: 'Route Table Tool',
  description: 'Made by the endpoint table.',
  priceINR: '999',
  priceUSD: '12.99',
  activationLimit: '2',
};

/**
 * Every /api/admin/ route Fastify has registered, outside the sign-in steps (/api/admin/auth/, tested below),
 * with a request that succeeds for a verified operator. The test checks this table against the app's route
 * table, so a new endpoint without a row fails it. Rows run in this order: the refund comes after the resend.
 */
const ENDPOINTS: Record<string, (fx: Fixtures) => Call | Promise<Call>> = {
  'GET /api/admin/overview': () => ({ method: 'GET', url: '/api/admin/overview' }),
  'GET /api/admin/orders': () => ({
    method: 'GET',
    url: '/api/admin/orders?q=order_x&status=paid&from=2026-05-01&to=2026-06-01&sort=amount&dir=asc',
  }),
  'GET /api/admin/orders/:id': (fx) => ({ method: 'GET', url: `/api/admin/orders/${fx.orderId}` }),
  'GET /api/admin/orders/:id/:file': (fx) => ({
    method: 'GET',
    url: `/api/admin/orders/${fx.orderId}/invoice.pdf`,
  }),
  'GET /api/admin/customers': () => ({ method: 'GET', url: '/api/admin/customers?q=example&sort=email' }),
  'GET /api/admin/customers/:id': (fx) => ({ method: 'GET', url: `/api/admin/customers/${fx.customerId}` }),
  'GET /api/admin/customers/:id/export': (fx) => ({
    method: 'GET',
    url: `/api/admin/customers/${fx.customerId}/export`,
  }),
  'GET /api/admin/tools': () => ({ method: 'GET', url: '/api/admin/tools' }),
  'GET /api/admin/tools/:id': (fx) => ({ method: 'GET', url: `/api/admin/tools/${fx.toolId}` }),
  'POST /api/admin/tools': async (fx) => ({
    method: 'POST',
    url: '/api/admin/tools',
    body: { ...TOOL_FIELDS, code: await fx.freshCode() },
  }),
  'POST /api/admin/tools/:id': async (fx) => ({
    method: 'POST',
    url: `/api/admin/tools/${fx.toolId}`,
    body: { ...TOOL_FIELDS, priceINR: '1099', code: await fx.freshCode() },
  }),
  'POST /api/admin/tools/:id/file': async (fx) => ({
    method: 'POST',
    url: `/api/admin/tools/${fx.toolId}/file`,
    ...(await uploadForm(await fx.freshCode())),
  }),
  'GET /api/admin/tools/:id/trials': (fx) => ({ method: 'GET', url: `/api/admin/tools/${fx.toolId}/trials` }),
  'POST /api/admin/trials/:id/extend': (fx) => ({
    method: 'POST',
    url: `/api/admin/trials/${fx.trialId}/extend`,
    body: { days: 3 },
  }),
  'POST /api/admin/trials/:id/end': (fx) => ({
    method: 'POST',
    url: `/api/admin/trials/${fx.trialId}/end`,
    body: {},
  }),
  'GET /api/admin/coupons': () => ({ method: 'GET', url: '/api/admin/coupons' }),
  'POST /api/admin/coupons': () => ({
    method: 'POST',
    url: '/api/admin/coupons',
    body: { code: 'ROUTES-10', percent: 10 },
  }),
  'GET /api/admin/coupons/:code': () => ({ method: 'GET', url: '/api/admin/coupons/routes-10' }),
  'POST /api/admin/coupons/:code/disable': () => ({
    method: 'POST',
    url: '/api/admin/coupons/ROUTES-10/disable',
    body: {},
  }),
  'GET /api/admin/webhooks': () => ({ method: 'GET', url: '/api/admin/webhooks' }),
  'POST /api/admin/webhooks': async (fx) => ({
    method: 'POST',
    url: '/api/admin/webhooks',
    body: { url: 'http://127.0.0.1:9/routes', events: ['order.paid'], code: await fx.freshCode() },
  }),
  'GET /api/admin/webhooks/:id': (fx) => ({ method: 'GET', url: `/api/admin/webhooks/${fx.webhookId}` }),
  'POST /api/admin/webhooks/:id/disable': (fx) => ({
    method: 'POST',
    url: `/api/admin/webhooks/${fx.webhookId}/disable`,
    body: {},
  }),
  'POST /api/admin/webhooks/:id/enable': (fx) => ({
    method: 'POST',
    url: `/api/admin/webhooks/${fx.webhookId}/enable`,
    body: {},
  }),
  'POST /api/admin/webhooks/:id/rotate-secret': (fx) => ({
    method: 'POST',
    url: `/api/admin/webhooks/${fx.webhookId}/rotate-secret`,
    body: {},
  }),
  'POST /api/admin/webhook-deliveries/:id/redeliver': (fx) => ({
    method: 'POST',
    url: `/api/admin/webhook-deliveries/${fx.webhookDeliveryId}/redeliver`,
    body: {},
  }),
  'GET /api/admin/refund-requests': () => ({ method: 'GET', url: '/api/admin/refund-requests' }),
  'POST /api/admin/refund-requests/:id/approve': async (fx) => ({
    method: 'POST',
    url: `/api/admin/refund-requests/${fx.refundRequests.approve}/approve`,
    body: { code: await fx.freshCode() },
  }),
  'POST /api/admin/refund-requests/:id/decline': (fx) => ({
    method: 'POST',
    url: `/api/admin/refund-requests/${fx.refundRequests.decline}/decline`,
    body: { reason: 'Route table check' },
  }),
  'GET /api/admin/messages': () => ({ method: 'GET', url: '/api/admin/messages?show=all' }),
  'POST /api/admin/messages/:id/handled': (fx) => ({
    method: 'POST',
    url: `/api/admin/messages/${fx.messageId}/handled`,
    body: {},
  }),
  'GET /api/admin/mail': () => ({ method: 'GET', url: '/api/admin/mail' }),
  'POST /api/admin/mail/:id/retry': (fx) => ({
    method: 'POST',
    url: `/api/admin/mail/${fx.mailId}/retry`,
    body: {},
  }),
  'POST /api/admin/licenses/:id/devices/:deviceId/deactivate': (fx) => ({
    method: 'POST',
    url: `/api/admin/licenses/${fx.licenseId}/devices/${fx.deviceId}/deactivate`,
    body: {},
  }),
  'POST /api/admin/licenses/:id/reset-deactivations': (fx) => ({
    method: 'POST',
    url: `/api/admin/licenses/${fx.licenseId}/reset-deactivations`,
    body: {},
  }),
  'POST /api/admin/licenses/:id/suspend': (fx) => ({
    method: 'POST',
    url: `/api/admin/licenses/${fx.licenseId}/suspend`,
    body: { reason: 'The key was posted on a public forum' },
  }),
  // Suspended first (also when run alone), so the operator's call has a suspension to lift.
  'POST /api/admin/licenses/:id/reinstate': async (fx) => {
    await suspendLicense(
      t.ctx,
      { license: { licenseId: fx.licenseId }, reason: 'Shared key' },
      cliActor('tester'),
    );
    return { method: 'POST', url: `/api/admin/licenses/${fx.licenseId}/reinstate`, body: {} };
  },
  'GET /api/admin/invoices': () => ({
    method: 'GET',
    url: '/api/admin/invoices?from=2026-04-01&to=2026-12-31',
  }),
  'GET /api/admin/tds': () => ({ method: 'GET', url: '/api/admin/tds?quarter=2026-Q3' }),
  'POST /api/admin/orders/:id/transfers': (fx) => ({
    method: 'POST',
    url: `/api/admin/orders/${fx.proformas.open}/transfers`,
    body: { amount: '1,000.00', utr: 'ROUTETABLE0001', date: fx.today },
  }),
  'POST /api/admin/orders/:id/late-payment/settle': (fx) => ({
    method: 'POST',
    url: `/api/admin/orders/${fx.proformas.lateToSettle}/late-payment/settle`,
    body: {},
  }),
  'POST /api/admin/orders/:id/late-payment/return': async (fx) => ({
    method: 'POST',
    url: `/api/admin/orders/${fx.proformas.lateToReturn}/late-payment/return`,
    body: { utr: 'ROUTERETURN0001', code: await fx.freshCode() },
  }),
  'POST /api/admin/orders/:id/tds-certificate/checked': (fx) => ({
    method: 'POST',
    url: `/api/admin/orders/${fx.proformas.withForm16a}/tds-certificate/checked`,
    body: {},
  }),
  'GET /api/admin/orders/:id/tds-certificate.pdf': (fx) => ({
    method: 'GET',
    url: `/api/admin/orders/${fx.proformas.withForm16a}/tds-certificate.pdf`,
  }),
  'GET /api/admin/invoices/export': () => ({
    method: 'GET',
    url: '/api/admin/invoices/export?from=2026-04-01&to=2026-12-31',
  }),
  'POST /api/admin/orders/:id/resend': (fx) => ({
    method: 'POST',
    url: `/api/admin/orders/${fx.orderId}/resend`,
    body: {},
  }),
  'POST /api/admin/orders/:id/refund': async (fx) => ({
    method: 'POST',
    url: `/api/admin/orders/${fx.orderId}/refund`,
    body: { reason: 'Route table check', code: await fx.freshCode() },
  }),
  'GET /api/admin/tools/:id/releases': (fx) => ({
    method: 'GET',
    url: `/api/admin/tools/${fx.toolId}/releases`,
  }),
  'POST /api/admin/tools/:id/releases': (fx) => ({
    method: 'POST',
    url: `/api/admin/tools/${fx.toolId}/releases`,
    body: { version: '2.0.0', channel: 'beta', notesMarkdown: '', critical: false },
  }),
  'PATCH /api/admin/releases/:id': (fx) => ({
    method: 'PATCH',
    url: `/api/admin/releases/${fx.releaseId}`,
    body: { notesMarkdown: '## Route table' },
  }),
  'POST /api/admin/releases/:id/artifacts': async (fx) => {
    const form = new FormData();
    for (const [name, value] of Object.entries({ platform: 'macos', arch: 'arm64', kind: 'installer' }))
      form.set(name, value);
    form.set('file', new Blob(['a small disk image']), 'Tool.dmg');
    const encoded = new Response(form);
    return {
      method: 'POST',
      url: `/api/admin/releases/${fx.releaseId}/artifacts`,
      body: Buffer.from(await encoded.arrayBuffer()).toString('latin1'),
      headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
    };
  },
  'DELETE /api/admin/releases/:id/artifacts/:artifactId': (fx) => ({
    method: 'DELETE',
    url: `/api/admin/releases/${fx.releaseId}/artifacts/${fx.artifactId}`,
  }),
  'POST /api/admin/releases/:id/publish': async (fx) => ({
    method: 'POST',
    url: `/api/admin/releases/${fx.releaseId}/publish`,
    body: { code: await fx.freshCode() },
  }),
  // Published at 100 %: halting it is a change every state but halted allows.
  'POST /api/admin/releases/:id/rollout': async (fx) => ({
    method: 'POST',
    url: `/api/admin/releases/${fx.releaseId}/rollout`,
    body: { code: await fx.freshCode(), change: { action: 'halt' } },
  }),
  'GET /api/admin/tools/:id/adoption': (fx) => ({
    method: 'GET',
    url: `/api/admin/tools/${fx.toolId}/adoption`,
  }),
  'POST /api/admin/releases/:id/yank': async (fx) => ({
    method: 'POST',
    url: `/api/admin/releases/${fx.releaseId}/yank`,
    body: { code: await fx.freshCode() },
  }),
  'GET /api/admin/activity': () => ({
    method: 'GET',
    url: '/api/admin/activity?pageSize=5&sort=action&dir=asc&q=sign',
  }),
  // Last: an edition makes the tool one sold by editions, which the rows before do not expect.
  'GET /api/admin/tools/:id/editions': (fx) => ({
    method: 'GET',
    url: `/api/admin/tools/${fx.toolId}/editions`,
  }),
  'POST /api/admin/tools/:id/editions': async (fx) => ({
    method: 'POST',
    url: `/api/admin/tools/${fx.toolId}/editions`,
    body: { name: 'Route table Pro', priceInrPaise: 299_900, code: await fx.freshCode() },
  }),
  'POST /api/admin/tools/:id/editions/:editionId': async (fx) => {
    const [edition] = await t.ctx.db
      .select({ id: toolEditions.id })
      .from(toolEditions)
      .where(eq(toolEditions.toolId, fx.toolId))
      .limit(1);
    return {
      method: 'POST',
      url: `/api/admin/tools/${fx.toolId}/editions/${edition?.id ?? 'none'}`,
      body: { entitlements: ['ocr'] },
    };
  },
};

/** The sign-in steps: open to a signed-in operator before the second factor, tested one by one below. */
const SIGN_IN_ROUTES = [
  'GET /api/admin/auth/status',
  'POST /api/admin/auth/enrol',
  'POST /api/admin/auth/enrol/confirm',
  'POST /api/admin/auth/verify',
  'POST /api/admin/auth/sign-out',
];

const t = shopTestAppForFile({ env: { WEBHOOKS_ALLOW_LOOPBACK: '1' } });

const call = (client: TestClient, request: Call) =>
  client.request(request.method, request.url, request.body, request.headers);

describe('who reaches /api/admin/', () => {
  let signedOut: TestClient;
  let buyer: TestClient;
  let unverified: TestClient;
  let notEnrolled: TestClient;
  let verified: TestClient;
  let fixtures: Fixtures;

  beforeAll(async () => {
    signedOut = await t.client({ ip: '198.51.100.1' });
    buyer = (await signedInBuyer(t)).client;
    notEnrolled = (await signedInOperator(t)).client;
    // Enrolled, then signed in again on a new site session: the second factor has not been passed in this one.
    const enrolled = await verifiedOperator(t);
    unverified = await t.client({ ip: '198.51.100.2' });
    const login = await unverified.post(
      '/api/auth/login/',
      new URLSearchParams({ email: enrolled.email, password: 'Correct horse 42' }),
    );
    expect(login.statusCode).toBe(200);
    verified = enrolled.client;

    const customer = await newBuyer(t);
    const tool = await addTool(t, { device: 'Windows' });
    const order = await buyThroughEmulator(t, customer.client, tool.id);
    const [license] = await t.ctx.db
      .select({ id: licenses.id, licenseKeySealed: licenses.licenseKeySealed })
      .from(licenses)
      .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
      .where(eq(purchases.orderId, order.id));
    await activateLicense(t.ctx, {
      licenseKey: (license && revealLicenseKey(t.ctx.dataSecrets, license)) ?? '',
      toolId: tool.id,
      fingerprint: fingerprint(),
      name: 'Route table PC',
    });
    const [device] = await t.ctx.db
      .select({ id: licenseActivations.id })
      .from(licenseActivations)
      .where(eq(licenseActivations.licenseId, license?.id ?? ''));
    const [message] = await t.ctx.db
      .insert(contactMessages)
      .values({ name: 'Route', email: 'route@example.com', relatedTo: 'Products', description: 'Hello' })
      .returning({ id: contactMessages.id });
    const [mail] = await t.ctx.db
      .insert(outbox)
      .values({ to: 'x@example.com', subject: 'S', html: 'h', text: 't', kind: 'test', status: 'failed' })
      .returning({ id: outbox.id });
    const trialTool = await addTool(t, { trialDays: 14 });
    const trial = await startTrial(t.ctx, customer.user.id, trialTool.id);
    if (!license || !device || !message || !mail) throw new Error('fixtures');
    const release = await createRelease(
      t.ctx,
      tool.id,
      createReleaseSchema.parse({ version: '1.1.0' }),
      cliActor('tester'),
    );
    const { artifact } = await addArtifact(t.ctx, release.id, installerUpload(), cliActor('tester'));
    const webhook = await addWebhookEndpoint(
      t.ctx,
      cliActor('tester'),
      newWebhookEndpointSchema.parse({
        url: 'http://127.0.0.1:9/fixture',
        events: ['order.paid'],
      }),
    );
    const [delivery] = await t.ctx.db
      .insert(webhookDeliveries)
      .values({
        endpointId: webhook.id,
        messageId: 'msg_fixture',
        event: 'order.paid',
        payload: {},
        status: 'failed',
      })
      .returning({ id: webhookDeliveries.id });
    if (!delivery) throw new Error('fixtures');
    const refundRequestOf = async () => {
      const asker = await newBuyer(t);
      const paid = await buyThroughEmulator(t, asker.client, tool.id);
      const asked = await asker.client.post(`/api/orders/${paid.id}/refund-request`, {
        reason: 'does-not-work',
        description: 'It does not start on my machine.',
      });
      return asked.json<{ id: string }>().id;
    };
    const today = indiaDate(t.clock.now());
    const proformas = await proformaFixtures(tool.id, today);
    fixtures = {
      proformas,
      today,
      webhookId: webhook.id,
      webhookDeliveryId: delivery.id,
      refundRequests: { approve: await refundRequestOf(), decline: await refundRequestOf() },
      releaseId: release.id,
      artifactId: artifact.id,
      orderId: order.id,
      customerId: customer.user.id,
      toolId: tool.id,
      licenseId: license.id,
      deviceId: device.id,
      messageId: message.id,
      mailId: mail.id,
      trialId: trial.trialId,
      freshCode: () => freshTotp(t, enrolled.secret),
    };
  }, 120_000);

  it('has a row for every /api/admin/ route the app registered', () => {
    const registered = t.routes
      .filter((route) => route.url.startsWith('/api/admin/') && route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.url}`);
    expect(registered.length).toBeGreaterThan(20);
    expect([...registered].sort()).toEqual([...Object.keys(ENDPOINTS), ...SIGN_IN_ROUTES].sort());
  });

  for (const [route, request] of Object.entries(ENDPOINTS)) {
    it(`${route}: 401 signed out, 403 buyer, 403 without second factor, 2xx with it`, async () => {
      const endpoint = await request(fixtures);
      expect((await call(signedOut, endpoint)).statusCode).toBe(401);
      const asBuyer = await call(buyer, endpoint);
      expect(asBuyer.statusCode).toBe(403);
      expect(asBuyer.json().code).toBe('not_operator');
      const asNotEnrolled = await call(notEnrolled, endpoint);
      expect(asNotEnrolled.statusCode).toBe(403);
      expect(asNotEnrolled.json().code).toBe('second_factor_required');
      const asUnverified = await call(unverified, endpoint);
      expect(asUnverified.statusCode).toBe(403);
      expect(asUnverified.json().code).toBe('second_factor_required');
      const asOperator = await call(verified, endpoint);
      expect(asOperator.statusCode, asOperator.body).toBeGreaterThanOrEqual(200);
      expect(asOperator.statusCode, asOperator.body).toBeLessThan(300);
      expect(asOperator.headers['cache-control']).toBe('no-store');
    });
  }

  it('checks who is asking before reading a body or an id: strangers get 401/403, never the schema', async () => {
    const malformedId = '-'.repeat(36);
    const routes = [
      ...Object.keys(ENDPOINTS),
      ...SIGN_IN_ROUTES.filter((route) => !route.endsWith('/status')),
    ];
    for (const route of routes) {
      const [method, pattern] = route.split(' ') as [Call['method'], string];
      const url = pattern.replace(/:\w+/g, (name) => (name === ':file' ? 'invoice.pdf' : malformedId));
      for (const body of [{ bogus: 1, code: 'x'.repeat(500) }, '{"not json', undefined]) {
        const request: Call = { method, url: `${url}?from=2026-13-01&page=-1`, body };
        if (typeof body === 'string') request.headers = { 'content-type': 'application/json' };
        const anonymous = await call(signedOut, request);
        expect(anonymous.statusCode, `${route} signed out: ${anonymous.body}`).toBe(401);
        const asBuyer = await call(buyer, request);
        expect(asBuyer.statusCode, `${route} as a buyer: ${asBuyer.body}`).toBe(403);
        expect(asBuyer.body).not.toContain('fieldErrors');
      }
    }
  });

  it('answers a malformed id or an impossible date with 400 and field errors, not 500', async () => {
    const malformedId = '-'.repeat(36);
    for (const route of Object.keys(ENDPOINTS).filter((name) => name.includes(':id'))) {
      const [method, pattern] = route.split(' ') as [Call['method'], string];
      const url = pattern.replace(/:\w+/g, (name) => (name === ':file' ? 'invoice.pdf' : malformedId));
      const response = await call(verified, { method, url, body: method === 'POST' ? {} : undefined });
      expect(response.statusCode, `${route}: ${response.body}`).toBe(400);
      expect(Object.keys(response.json().fieldErrors ?? {}), route).toContain('id');
    }
    for (const url of [
      '/api/admin/orders?from=2026-13-01',
      '/api/admin/orders?to=2026-02-30',
      '/api/admin/invoices?from=2026-13-01&to=2026-12-31',
    ]) {
      const response = await verified.get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().fieldErrors).toBeDefined();
    }
  });

  it('refuses an upload named with a NUL or another control character, and stores nothing', async () => {
    const before = await verified.get(`/api/admin/tools/${fixtures.toolId}`);
    for (const name of ['setup%00.exe', 'set\u0001up.exe']) {
      const code = await fixtures.freshCode();
      const boundary = 'control-name-boundary';
      const body = [
        `--${boundary}`,
        'Content-Disposition: form-data; name="code"',
        '',
        code,
        `--${boundary}`,
        `Content-Disposition: form-data; name="file"; filename*=UTF-8''${encodeURIComponent(name).replace(/%2500/g, '%00')}`,
        'Content-Type: application/octet-stream',
        '',
        'MZ installer',
        `--${boundary}--`,
        '',
      ].join('\r\n');
      const response = await verified.request('POST', `/api/admin/tools/${fixtures.toolId}/file`, body, {
        'content-type': `multipart/form-data; boundary=${boundary}`,
      });
      expect(response.statusCode, response.body).toBe(400);
    }
    const after = await verified.get(`/api/admin/tools/${fixtures.toolId}`);
    expect(after.json().file).toEqual(before.json().file);
  });

  it('tells each caller where it stands, always with 200', async () => {
    const status = async (client: TestClient) => {
      const response = await client.get('/api/admin/auth/status');
      expect(response.statusCode).toBe(200);
      return response.json().state;
    };
    expect(await status(signedOut)).toBe('signed_out');
    expect(await status(buyer)).toBe('not_operator');
    expect(await status(notEnrolled)).toBe('enrol');
    expect(await status(unverified)).toBe('verify');
    expect(await status(verified)).toBe('ready');
  });

  it('refuses a buyer trying to enrol or verify', async () => {
    expect((await buyer.post('/api/admin/auth/enrol', {})).statusCode).toBe(403);
    expect((await buyer.post('/api/admin/auth/verify', { code: '123456' })).statusCode).toBe(403);
    expect((await signedOut.post('/api/admin/auth/verify', { code: '123456' })).statusCode).toBe(401);
  });

  it('refuses a dashboard action without the CSRF header', async () => {
    verified.sendCsrfHeader = false;
    try {
      const response = await verified.post('/api/admin/auth/sign-out', {});
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('csrf_failed');
    } finally {
      verified.sendCsrfHeader = true;
    }
    expect((await verified.get('/api/admin/overview')).statusCode).toBe(200);
  });
});

describe('enrolment', () => {
  it('shows the secret as text and QR code, and accepts it only with a right code', async () => {
    const { client, email } = await signedInOperator(t);
    const started = await client.post('/api/admin/auth/enrol', {});
    expect(started.statusCode).toBe(200);
    const body = started.json() as { secret: string; otpauthUrl: string; qrSvg: string };
    expect(body.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(body.otpauthUrl).toContain(`secret=${body.secret}`);
    expect(body.otpauthUrl).toContain(encodeURIComponent(email));
    expect(body.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    const wrong = await client.post('/api/admin/auth/enrol/confirm', {
      code: '000000' === (await totpAt(t, body.secret)) ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors).toEqual({ code: DASHBOARD_MESSAGES.wrongCode });
    expect((await client.get('/api/admin/overview')).statusCode).toBe(403);

    const malformed = await client.post('/api/admin/auth/enrol/confirm', { code: '12ab56', extra: 1 });
    expect(malformed.statusCode).toBe(400);
    expect(Object.keys(malformed.json().fieldErrors)).toContain('code');

    const confirmed = await client.post('/api/admin/auth/enrol/confirm', {
      code: await totpAt(t, body.secret),
    });
    expect(confirmed.statusCode).toBe(200);
    const { recoveryCodes } = confirmed.json() as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    expect((await client.get('/api/admin/overview')).statusCode).toBe(200);

    // Stored encrypted and hashed: neither the secret nor a recovery code appears in the database as shown.
    const [row] = await t.ctx.db
      .select()
      .from(operators)
      .innerJoin(adminSessions, eq(adminSessions.userId, operators.userId));
    expect(JSON.stringify(row)).not.toContain(body.secret);
    const again = await client.post('/api/admin/auth/enrol', {});
    expect(again.statusCode).toBe(409);
  });
});

// Each case signs in several times; password hashing (scrypt) is slow on a busy machine.
describe('second factor at sign-in', { timeout: 120_000 }, () => {
  async function freshSession(email: string) {
    const client = await t.client({ ip: `192.0.2.${Math.floor(Math.random() * 250) + 1}` });
    const login = await client.post(
      '/api/auth/login/',
      new URLSearchParams({ email, password: 'Correct horse 42' }),
    );
    expect(login.statusCode).toBe(200);
    return client;
  }

  it('accepts a right code once and refuses it when replayed', async () => {
    const operator = await verifiedOperator(t);
    t.clock.advance(60_000);
    const first = await freshSession(operator.email);
    const code = await totpAt(t, operator.secret);
    expect((await first.post('/api/admin/auth/verify', { code })).statusCode).toBe(200);
    expect((await first.get('/api/admin/overview')).statusCode).toBe(200);

    const second = await freshSession(operator.email);
    const replay = await second.post('/api/admin/auth/verify', { code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('wrong_code');
    expect((await second.get('/api/admin/overview')).statusCode).toBe(403);
    // A code from two steps back is outside the drift allowance.
    t.clock.advance(30_000);
    expect(
      (await second.post('/api/admin/auth/verify', { code: await totpAt(t, operator.secret, -2) }))
        .statusCode,
    ).toBe(400);
    expect(
      (await second.post('/api/admin/auth/verify', { code: await totpAt(t, operator.secret) })).statusCode,
    ).toBe(200);
  });

  it('answers 429 at the sixth wrong code and then refuses even a right one', async () => {
    const operator = await verifiedOperator(t);
    t.clock.advance(60_000);
    const client = await freshSession(operator.email);
    const right = await totpAt(t, operator.secret);
    const wrong = right === '999999' ? '999998' : '999999';
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await client.post('/api/admin/auth/verify', { code: wrong })).statusCode).toBe(400);
    }
    const sixth = await client.post('/api/admin/auth/verify', { code: wrong });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.headers['retry-after']).toBeDefined();
    expect(sixth.json().message).toBe(DASHBOARD_MESSAGES.tooManyCodes);
    expect((await client.post('/api/admin/auth/verify', { code: right })).statusCode).toBe(429);
    expect((await client.get('/api/admin/overview')).statusCode).toBe(403);
    t.clock.advance(15 * 60 * 1000);
    expect(
      (await client.post('/api/admin/auth/verify', { code: await totpAt(t, operator.secret) })).statusCode,
    ).toBe(200);

    // Each wrong code and each refusal past the lock is in the audit log, without the code that was tried.
    const entries = await t.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `user:${operator.email}`))
      .orderBy(auditLog.id);
    const actions = entries.map((entry) => entry.action);
    expect(actions.filter((action) => action === 'second_factor.wrong_code')).toHaveLength(5);
    expect(actions.filter((action) => action === 'second_factor.locked_out')).toHaveLength(2);
    for (const entry of entries.filter((row) => row.action.startsWith('second_factor.'))) {
      expect(entry.actor).toBe(operator.email);
      if (entry.action !== 'second_factor.enrol') expect(entry.after).toEqual({ purpose: 'sign_in' });
      expect(JSON.stringify(entry)).not.toContain(wrong);
      expect(JSON.stringify(entry)).not.toContain(right);
    }
    const activity = await client.get('/api/admin/activity?q=second_factor.locked_out');
    expect(activity.json().total).toBeGreaterThanOrEqual(2);
  });

  it('takes each recovery code once', async () => {
    const operator = await verifiedOperator(t);
    const [recovery] = operator.recoveryCodes;
    if (!recovery) throw new Error('no recovery code');
    const first = await freshSession(operator.email);
    expect((await first.post('/api/admin/auth/verify', { code: recovery.toLowerCase() })).statusCode).toBe(
      200,
    );
    const second = await freshSession(operator.email);
    expect((await second.post('/api/admin/auth/verify', { code: recovery })).statusCode).toBe(400);
    expect((await second.get('/api/admin/overview')).statusCode).toBe(403);
  });

  it('ends the dashboard session after 30 minutes idle, after 12 hours, and with the site session', async () => {
    const operator = await verifiedOperator(t);
    const { client } = operator;
    t.clock.advance(DASHBOARD_IDLE_MS - 60_000);
    expect((await client.get('/api/admin/overview')).statusCode).toBe(200);
    t.clock.advance(DASHBOARD_IDLE_MS - 60_000);
    expect((await client.get('/api/admin/overview')).statusCode).toBe(200);
    t.clock.advance(DASHBOARD_IDLE_MS + 1000);
    expect((await client.get('/api/admin/overview')).json().code).toBe('second_factor_required');

    const busy = await freshSession(operator.email);
    t.clock.advance(60_000);
    expect(
      (await busy.post('/api/admin/auth/verify', { code: await totpAt(t, operator.secret) })).statusCode,
    ).toBe(200);
    for (let elapsed = 0; elapsed < DASHBOARD_MAX_MS; elapsed += 20 * 60 * 1000) {
      expect((await busy.get('/api/admin/overview')).statusCode).toBe(200);
      t.clock.advance(20 * 60 * 1000);
    }
    expect((await busy.get('/api/admin/overview')).statusCode).toBe(403);

    const leaving = await freshSession(operator.email);
    t.clock.advance(60_000);
    expect(
      (await leaving.post('/api/admin/auth/verify', { code: await totpAt(t, operator.secret) })).statusCode,
    ).toBe(200);
    expect((await leaving.post('/api/auth/logout/')).statusCode).toBe(200);
    expect((await leaving.get('/api/admin/overview')).statusCode).toBe(401);
  });

  it('loses every door when the role is removed', async () => {
    const operator = await verifiedOperator(t);
    await revokeOperator(t.ctx, operator.email, cliActor('tester'));
    expect((await operator.client.get('/api/admin/overview')).json().code).toBe('not_operator');
  });
});

describe('audit log', () => {
  it('records granting, enrolment and sign-in, newest first', async () => {
    const operator = await signedInOperator(t);
    await enrol(t, operator.client);
    const response = await operator.client.get(`/api/admin/activity?q=${encodeURIComponent(operator.email)}`);
    expect(response.statusCode).toBe(200);
    const page = response.json() as { items: Array<{ action: string; actor: string }>; total: number };
    expect(page.items.map((entry) => [entry.actor, entry.action])).toEqual([
      [operator.email, 'second_factor.enrol'],
      ['cli:tester', 'operator.grant'],
    ]);
    expect(page.total).toBe(2);
  });

  it('offers no way to change it', async () => {
    const { client } = await verifiedOperator(t);
    const [latest] = await t.ctx.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const response = await client.request(method, `/api/admin/activity/${latest?.id}`, { action: 'x' });
      expect(response.statusCode).toBe(404);
    }
  });
});

describe('overview', () => {
  it('sums paid orders by Indian calendar day and currency', async () => {
    const operator = await verifiedOperator(t);
    const { client } = operator;
    const [tool] = await t.ctx.db
      .insert(tools)
      .values({ name: 'Overview Tool', description: 'x', priceInrPaise: 49_900, priceUsdCents: 799 })
      .returning();
    const [user] = await t.ctx.db.select().from(users).limit(1);
    if (!tool || !user) throw new Error('fixtures');
    const now = t.clock.now().getTime();
    const paid = (
      amount: number,
      currency: 'INR' | 'USD',
      agoMs: number,
      status: 'paid' | 'refunded' = 'paid',
    ) => ({
      userId: user.id,
      toolId: tool.id,
      razorpayOrderId: `order_ov${Math.random().toString(36).slice(2, 12)}`,
      amount,
      currency,
      billing: INR_BILLING,
      status,
      paidAt: new Date(now - agoMs),
    });
    const before = (await client.get('/api/admin/overview')).json();
    await t.ctx.db
      .insert(orders)
      .values([
        paid(49_900, 'INR', 0),
        paid(799, 'USD', 0),
        paid(49_900, 'INR', 3 * 86_400_000),
        paid(49_900, 'INR', 20 * 86_400_000),
        paid(99_900, 'INR', 40 * 86_400_000),
        paid(49_900, 'INR', 0, 'refunded'),
      ]);
    const after = (await client.get('/api/admin/overview')).json();
    const delta = (key: 'today' | 'last7Days' | 'last30Days') => ({
      orders: after.periods[key].orders - before.periods[key].orders,
      INR: after.periods[key].revenue.INR - before.periods[key].revenue.INR,
      USD: after.periods[key].revenue.USD - before.periods[key].revenue.USD,
    });
    expect(delta('today')).toEqual({ orders: 2, INR: 49_900, USD: 799 });
    expect(delta('last7Days')).toEqual({ orders: 3, INR: 99_800, USD: 799 });
    expect(delta('last30Days')).toEqual({ orders: 4, INR: 149_700, USD: 799 });
    expect(after.daily).toHaveLength(30);
    expect(after.daily.at(-1).day).toBe(new Date(now + 5.5 * 3_600_000).toISOString().slice(0, 10));
  });
});
