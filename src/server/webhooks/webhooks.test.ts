import { generateKeyPairSync } from 'node:crypto';
import { Readable } from 'node:stream';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addTool,
  buyThroughEmulator,
  catalogueRows,
  createShopTestApp,
  eventually,
  newBuyer,
  type ShopTestApp,
} from '../../../test/support/shop-fixtures';
import { WebhookReceiver } from '../../../test/support/webhook-receiver';
import { createReleaseSchema } from '../../shared/release-schemas';
import { newWebhookEndpointSchema, WEBHOOK_EVENTS, type WebhookEvent } from '../../shared/webhooks';
import { eraseAccount } from '../data-rights/erasure';
import { licenses } from '../db/schema/licenses';
import { outbox } from '../db/schema/mail';
import { auditLog } from '../db/schema/operator';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../db/schema/webhooks';
import { backgroundJobs, startJobs } from '../jobs';
import { loadConfig } from '../kernel/config';
import type { AppContext } from '../kernel/context';
import { createDataSecrets } from '../kernel/data-secrets';
import { revealLicenseKey } from '../licenses/secrets-at-rest';
import { cliActor } from '../operator/audit';
import { applyDispute } from '../orders/disputes';
import { refundOrder } from '../orders/refund';
import { addArtifact, createRelease, publishRelease } from '../releases/operator';
import { sendTrialEmails } from '../trials/reminders';
import { startTrial } from '../trials/trials';
import { createWebhookWorker, WEBHOOK_SHUTDOWN_GRACE_MS } from './delivery';
import { enqueueWebhookEvent } from './events';
import {
  addWebhookEndpoint,
  listWebhookDeliveries,
  redeliverWebhook,
  setWebhookEndpointEnabled,
} from './operator';
import { openEndpointSecret, sealWebhookSecrets } from './secrets';

/**
 * Outgoing webhooks end to end (decision 046): the real app, a real purchase and refund through the Razorpay
 * emulator, and a receiver on loopback (allowed by WEBHOOKS_ALLOW_LOOPBACK) that verifies every request with the
 * maintained `standardwebhooks` library.
 */
const actor = cliActor('webhook-test');
let t: ShopTestApp;
let receiver: WebhookReceiver;
let catalogue: Awaited<ReturnType<typeof catalogueRows>>;

beforeAll(async () => {
  t = await createShopTestApp({ env: { WEBHOOKS_ALLOW_LOOPBACK: '1' } });
  receiver = await new WebhookReceiver().start();
  catalogue = await catalogueRows(t);
});

afterAll(async () => {
  await receiver.close();
  await t.close();
});

const drain = () => createWebhookWorker(t.ctx).drain();

/** An endpoint on the test receiver at `path`, added as the operator adds one. */
const endpointAt = (path: string, events: WebhookEvent[], description?: string) =>
  addWebhookEndpoint(
    t.ctx,
    actor,
    newWebhookEndpointSchema.parse({ url: receiver.url(path), events, ...(description && { description }) }),
  );

describe('a purchase and its refund', () => {
  it('reach the receiver as order.paid, then order.refunded and license.revoked, each signed with its secret', async () => {
    const endpoint = await endpointAt(
      '/orders',
      ['order.paid', 'order.refunded', 'license.revoked'],
      'Accounting',
    );
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // The secret is stored sealed, and the audit log names the endpoint without it.
    const [stored] = await t.ctx.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id));
    expect(stored?.secret).not.toContain(endpoint.secret.slice(6));
    const audit = await t.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `webhook:${endpoint.id}`));
    expect(audit.map((row) => row.action)).toEqual(['webhook.add']);
    expect(JSON.stringify(audit)).not.toContain(endpoint.secret.slice(6));

    const { user, client } = await newBuyer(t);
    const order = await buyThroughEmulator(t, client, catalogue.windows.id);
    expect((await drain()).delivered).toBe(1);
    const [paid] = receiver.at('/orders');
    if (!paid) throw new Error('order.paid was not received');
    const payload = WebhookReceiver.verify(paid, endpoint.secret);
    expect(payload.type).toBe('order.paid');
    expect(payload.data).toMatchObject({
      order: {
        id: order.id,
        status: 'paid',
        toolId: catalogue.windows.id,
        amount: order.amount,
        currency: 'INR',
      },
      customer: { id: user.id, email: user.email },
    });
    // A wrong secret does not verify.
    expect(() => WebhookReceiver.verify(paid, `whsec_${Buffer.alloc(32).toString('base64')}`)).toThrow();
    const [license] = await t.ctx.db
      .select()
      .from(licenses)
      .where(eq(licenses.id, String(payload.data.licenseId)));
    if (!license) throw new Error('the payload names no license');
    const key = revealLicenseKey(t.ctx.dataSecrets, license);
    expect(key).toBeTruthy();
    expect(paid.body).not.toContain(String(key));

    await refundOrder(t.ctx, { orderId: order.id, source: 'admin', reason: 'Changed mind' });
    await t.emulator?.settled();
    expect((await drain()).delivered).toBe(2);
    const later = receiver
      .at('/orders')
      .slice(1)
      .map((request) => WebhookReceiver.verify(request, endpoint.secret));
    expect(later.map((event) => event.type).sort()).toEqual(['license.revoked', 'order.refunded']);
    expect(later.find((event) => event.type === 'license.revoked')?.data).toMatchObject({
      license: { id: license.id, status: 'revoked' },
      orderId: order.id,
    });
    expect(later.find((event) => event.type === 'order.refunded')?.data).toMatchObject({
      order: { id: order.id, status: 'refunded' },
      refund: { amount: order.amount, currency: 'INR', reason: 'Changed mind' },
    });
    await setWebhookEndpointEnabled(t.ctx, actor, endpoint.id, false);
  });
});

describe('every operation that reports an event', () => {
  it('queues trial, license, release and dispute events in its own transaction', async () => {
    const endpoint = await endpointAt('/all', [...WEBHOOK_EVENTS]);
    const trialTool = await addTool(t, { device: 'Windows', trialDays: 14 });
    const { user, client } = await newBuyer(t);
    const trial = await startTrial(t.ctx, user.id, trialTool.id);
    const order = await buyThroughEmulator(t, client, trialTool.id);
    const other = await newBuyer(t);
    const ending = await startTrial(t.ctx, other.user.id, trialTool.id);
    t.clock.advance(15 * 24 * 60 * 60_000);
    await sendTrialEmails(t.ctx);
    await t.ctx.db.transaction((tx) =>
      applyDispute(t.ctx, tx, 'created', { id: 'disp_1', paymentId: order.razorpayPaymentId ?? never() }),
    );
    await t.ctx.db.transaction((tx) =>
      applyDispute(t.ctx, tx, 'won', { id: 'disp_1', paymentId: order.razorpayPaymentId ?? never() }),
    );
    const release = await createRelease(
      t.ctx,
      trialTool.id,
      createReleaseSchema.parse({ version: '2.0.0' }),
      actor,
    );
    await addArtifact(
      t.ctx,
      release.id,
      {
        platform: 'windows',
        arch: 'x64',
        kind: 'installer',
        fileName: 'Setup.exe',
        stream: Readable.from([Buffer.from('MZ')]),
      },
      actor,
    );
    await publishRelease(t.ctx, release.id, actor);
    await drain();

    const events = receiver.at('/all').map((request) => WebhookReceiver.verify(request, endpoint.secret));
    const of = (type: string) => events.filter((event) => event.type === type).map((event) => event.data);
    expect(of('trial.started').map((data) => (data.trial as { id: string }).id)).toEqual([
      trial.trialId,
      ending.trialId,
    ]);
    expect(of('trial.converted')).toMatchObject([{ trial: { id: trial.trialId }, customerId: user.id }]);
    expect(of('trial.expired')).toMatchObject([{ trial: { id: ending.trialId }, customerId: other.user.id }]);
    expect(of('order.paid')).toMatchObject([{ order: { id: order.id } }]);
    expect(of('license.created')).toMatchObject([
      { license: { id: trial.licenseId, status: 'active' }, orderId: order.id },
    ]);
    expect(of('license.suspended')).toMatchObject([
      { license: { id: trial.licenseId, status: 'suspended' } },
    ]);
    expect(of('license.reinstated')).toMatchObject([{ license: { id: trial.licenseId, status: 'active' } }]);
    expect(of('release.published')).toMatchObject([
      { release: { id: release.id, toolId: trialTool.id, version: '2.0.0', channel: 'stable' } },
    ]);
    await setWebhookEndpointEnabled(t.ctx, actor, endpoint.id, false);
  });
});

describe('erasure', () => {
  it('sends customer.erased and leaves no address in any stored payload about the customer', async () => {
    const endpoint = await endpointAt('/erasure', ['order.paid', 'customer.erased']);
    const { user, client } = await newBuyer(t);
    await buyThroughEmulator(t, client, catalogue.macos.id);
    await drain();
    expect(receiver.at('/erasure')[0]?.body).toContain(user.email);
    await eraseAccount(t.ctx, user.id, { kind: 'buyer', userId: user.id });
    await drain();
    const erased = WebhookReceiver.verify(receiver.at('/erasure')[1] ?? never(), endpoint.secret);
    expect(erased).toMatchObject({ type: 'customer.erased', data: { customer: { id: user.id } } });
    const stored = await t.ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.customerId, user.id));
    expect(stored.map((row) => row.event).sort()).toEqual(['customer.erased', 'order.paid']);
    expect(JSON.stringify(stored)).not.toContain(user.email);
    expect(stored.find((row) => row.event === 'order.paid')?.payload).toMatchObject({
      data: { customer: { id: user.id, erased: true } },
    });
    await setWebhookEndpointEnabled(t.ctx, actor, endpoint.id, false);
  });
});

const never = (): never => {
  throw new Error('expected a request');
};

describe('retries', () => {
  it('deliver on the third attempt to a receiver that answered 500 twice, with three attempts logged', async () => {
    const endpoint = await endpointAt('/flaky', ['release.published']);
    receiver.answer('/flaky', 500, 500);
    await t.ctx.db.transaction((tx) =>
      enqueueWebhookEvent(tx, 'release.published', { release: { id: 'r1' } }, { at: t.clock.now() }),
    );
    expect(await drain()).toMatchObject({ claimed: 1, retried: 1 });
    // Not due again until its retry time.
    expect((await drain()).claimed).toBe(0);
    t.clock.advance(60_000);
    expect(await drain()).toMatchObject({ claimed: 1, retried: 1 });
    t.clock.advance(5 * 60_000);
    expect(await drain()).toMatchObject({ claimed: 1, delivered: 1 });

    const requests = receiver.at('/flaky');
    expect(requests).toHaveLength(3);
    // One message: the same webhook-id on every attempt, each verifying.
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    for (const request of requests)
      expect(WebhookReceiver.verify(request, endpoint.secret).type).toBe('release.published');
    const { deliveries } = await listWebhookDeliveries(t.ctx, endpoint.id);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.state).toBe('delivered');
    expect(deliveries[0]?.attempts.map((attempt) => [attempt.attempt, attempt.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 204],
    ]);
    expect(deliveries[0]?.attempts[0]?.excerpt).toBe('receiver says 500');

    // Redelivering sends the same message once more, as a new delivery; audited.
    const again = await redeliverWebhook(t.ctx, actor, String(deliveries[0]?.id));
    expect((await drain()).delivered).toBe(1);
    expect(receiver.at('/flaky')[3]?.headers['webhook-id']).toBe(requests[0]?.headers['webhook-id']);
    expect((await listWebhookDeliveries(t.ctx, endpoint.id)).deliveries[0]?.id).toBe(again.id);
    await setWebhookEndpointEnabled(t.ctx, actor, endpoint.id, false);
  });

  it('counts a redirect (never followed) and a receiver that does not answer in time as failures', async () => {
    const endpoint = await endpointAt('/slow', ['trial.converted']);
    receiver.answer('/slow', 302, 0);
    await t.ctx.db.transaction((tx) =>
      enqueueWebhookEvent(tx, 'trial.converted', { trial: { id: 't2' } }, { at: t.clock.now() }),
    );
    const worker = createWebhookWorker(t.ctx, { timeoutMs: 500 });
    expect(await worker.drain()).toMatchObject({ retried: 1 });
    t.clock.advance(60_000);
    expect(await worker.drain()).toMatchObject({ retried: 1 });
    expect(receiver.at('/redirected')).toEqual([]);
    const { deliveries } = await listWebhookDeliveries(t.ctx, endpoint.id);
    expect(deliveries[0]?.attempts.map(({ status, error }) => [status, error])).toEqual([
      [302, 'redirect not followed'],
      [null, 'no answer within 0.5 s'],
    ]);
    await setWebhookEndpointEnabled(t.ctx, actor, endpoint.id, false);
  });

  it('disables an endpoint that failed for 3 days and emails the firm', async () => {
    const endpoint = await endpointAt('/down', ['trial.started']);
    receiver.answer('/down', ...Array(20).fill(503));
    await t.ctx.db.transaction((tx) =>
      enqueueWebhookEvent(tx, 'trial.started', { trial: { id: 't1' } }, { at: t.clock.now() }),
    );
    for (let i = 0; i < 12; i++) {
      await drain();
      t.clock.advance(24 * 60 * 60_000);
    }
    const [row] = await t.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row).toMatchObject({ enabled: false, disabledReason: 'Every attempt failed for 3 days' });
    const mail = await t.ctx.db.select().from(outbox).where(eq(outbox.kind, 'webhook-endpoint-disabled'));
    expect(mail.map((message) => message.ref)).toEqual([`webhook:${endpoint.id}`]);
  });
});

describe('a rotated DATA_SECRET_KEY', () => {
  it('re-seals endpoint secrets under the new key, which then opens them alone', async () => {
    const endpoint = await endpointAt('/rotated', ['trial.expired']);
    const oldKey = t.config.dataSecret.key ?? never();
    const newKey = Buffer.alloc(32, 7);
    const rotated = createDataSecrets({ ...t.config, dataSecret: { key: newKey, previousKeys: [oldKey] } });
    expect(await sealWebhookSecrets(t.ctx.db, rotated)).toBeGreaterThanOrEqual(1);
    expect(await sealWebhookSecrets(t.ctx.db, rotated)).toBe(0);
    const [row] = await t.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    const newOnly = createDataSecrets({ ...t.config, dataSecret: { key: newKey, previousKeys: [] } });
    expect(openEndpointSecret({ dataSecrets: newOnly }, row?.secret ?? '')).toBe(endpoint.secret);
    // Back under the test's key, for the tests after this one.
    await sealWebhookSecrets(
      t.ctx.db,
      createDataSecrets({ ...t.config, dataSecret: { key: oldKey, previousKeys: [newKey] } }),
    );
    await setWebhookEndpointEnabled(t.ctx, actor, endpoint.id, false);
  });
});

describe('a change that rolls back', () => {
  it('never sends its event', async () => {
    const endpoint = await endpointAt('/rollback', ['order.paid']);
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await enqueueWebhookEvent(tx, 'order.paid', { order: { id: 'never' } }, { at: t.clock.now() });
        throw new Error('the change failed after queuing its event');
      }),
    ).rejects.toThrow('the change failed');
    await drain();
    expect(receiver.at('/rollback')).toEqual([]);
    expect(
      await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id)),
    ).toEqual([]);
  });
});

describe('addresses in production', () => {
  // The test app's context with a complete production configuration (what `NODE_ENV=production` starts with).
  const signingKey = generateKeyPairSync('ed25519')
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString();
  const production = (ctx: AppContext): AppContext => ({
    ...ctx,
    config: loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: ctx.config.dataDir,
      PUBLIC_URL: 'https://shop.example.com',
      SMTP_URL: 'smtps://mailer:pw@smtp.example.com:465',
      RAZORPAY_KEY_ID: 'rzp_live_abc',
      RAZORPAY_KEY_SECRET: 'key-secret',
      RAZORPAY_WEBHOOK_SECRET: 'webhook-secret',
      SESSION_SECRET: 'a-session-secret-that-is-long-enough-0123456789',
      LICENSE_SIGNING_KEY: signingKey,
      RELEASE_SIGNING_KEY: signingKey,
      DATA_SECRET_KEY: 'ab'.repeat(32),
      FIRM_LEGAL_NAME: 'Pinkcity Advisors LLP',
      FIRM_ADDRESS: '3rd Floor, Ganpati Plaza, MI Road, Jaipur, Rajasthan 302001',
      FIRM_GSTIN: '08AAPFP1234A1ZK',
    }),
  });
  const internal = [
    'http://127.0.0.1/hook',
    'http://localhost/hook',
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
  ];

  it('refuses endpoints on loopback, private, link-local or metadata addresses when they are saved', async () => {
    await expect(
      addWebhookEndpoint(
        production(t.ctx),
        actor,
        newWebhookEndpointSchema.parse({
          url: 'http://hooks.example.com/',
          events: ['order.paid'],
        }),
      ),
    ).rejects.toThrow('url: must be https://');
    for (const url of internal.map((plain) => plain.replace('http://', 'https://'))) {
      await expect(
        addWebhookEndpoint(
          production(t.ctx),
          actor,
          newWebhookEndpointSchema.parse({ url, events: ['order.paid'] }),
        ),
      ).rejects.toThrow(/^url: .* resolves to .*(loopback|private, link-local or metadata)/);
    }
  });

  it('refuses them when sending too, also for a name that resolves inside only by then', async () => {
    // Endpoints saved while their names pointed elsewhere (written directly: saving would refuse them now).
    const urls = [...internal, 'http://hooks.example.com/rebound'];
    const ids: string[] = [];
    for (const url of urls) {
      const [row] = await t.ctx.db
        .insert(webhookEndpoints)
        .values({ url, events: ['customer.erased'], secret: 'unused' })
        .returning({ id: webhookEndpoints.id });
      if (row) ids.push(row.id);
    }
    await t.ctx.db.transaction((tx) =>
      enqueueWebhookEvent(tx, 'customer.erased', { customer: { id: 'c1' } }, { at: t.clock.now() }),
    );
    const resolve = async (host: string) =>
      host === 'hooks.example.com'
        ? [{ address: '10.0.0.1', family: 4 as const }]
        : (await import('node:dns/promises'))
            .lookup(host, { all: true, verbatim: true })
            .then((all) => all.map((entry) => ({ address: entry.address, family: entry.family as 4 | 6 })));
    const run = await createWebhookWorker(production(t.ctx), { resolve }).drain();
    expect(run).toMatchObject({ claimed: urls.length, delivered: 0, retried: urls.length });
    for (const id of ids) {
      const { deliveries } = await listWebhookDeliveries(t.ctx, id);
      expect(deliveries[0]?.attempts[0]).toMatchObject({ status: null });
      expect(deliveries[0]?.attempts[0]?.error).toMatch(
        /resolves to .*(loopback|private, link-local or metadata)/,
      );
    }
    await t.ctx.db.delete(webhookEndpoints).where(inArray(webhookEndpoints.id, ids));
  });
});

describe('a receiver that never answers', () => {
  const silent = { warn() {}, error() {} };

  it('holds up only its own endpoint, and shutdown waits a bounded time, leaving its deliveries queued', async () => {
    const hanging = await endpointAt('/hanging', ['trial.expired']);
    const healthy = await endpointAt('/healthy', ['trial.expired']);
    receiver.answer('/hanging', 0, 0, 0);
    for (let i = 0; i < 3; i++)
      await t.ctx.db.transaction((tx) =>
        enqueueWebhookEvent(tx, 'trial.expired', { trial: { id: `hang-${i}` } }, { at: t.clock.now() }),
      );
    // The webhook job as a server runs it.
    const jobs = startJobs(
      backgroundJobs(t.ctx, silent).filter((job) => job.name === 'webhooks'),
      silent,
    );
    await eventually(async () => (receiver.at('/healthy').length === 3 ? true : undefined), 4_000);
    expect(receiver.at('/hanging')).toHaveLength(1);

    const stopping = Date.now();
    await jobs.stop();
    expect(Date.now() - stopping).toBeLessThan(WEBHOOK_SHUTDOWN_GRACE_MS + 2_000);
    const queued = await t.ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, hanging.id));
    expect(queued.map((delivery) => [delivery.status, delivery.attempts])).toEqual([
      ['pending', 0],
      ['pending', 0],
      ['pending', 0],
    ]);
    const logged = await t.ctx.db
      .select()
      .from(webhookAttempts)
      .where(
        inArray(
          webhookAttempts.deliveryId,
          queued.map((delivery) => delivery.id),
        ),
      );
    expect(logged).toEqual([]);

    // The receiver answers again: the next start sends what was left.
    receiver.answer('/hanging');
    expect(await drain()).toMatchObject({ delivered: 3 });
    for (const id of [hanging.id, healthy.id]) await setWebhookEndpointEnabled(t.ctx, actor, id, false);
  }, 30_000);

  it('counts a name that does not resolve in time against the same deadline as the answer', async () => {
    const endpoint = await endpointAt('/unresolved', ['trial.expired']);
    await t.ctx.db.transaction((tx) =>
      enqueueWebhookEvent(tx, 'trial.expired', { trial: { id: 'dns' } }, { at: t.clock.now() }),
    );
    const worker = createWebhookWorker(t.ctx, { timeoutMs: 500, resolve: () => new Promise(() => {}) });
    const started = Date.now();
    expect(await worker.runOnce()).toMatchObject({ retried: 1 });
    expect(Date.now() - started).toBeLessThan(3_000);
    const { deliveries } = await listWebhookDeliveries(t.ctx, endpoint.id);
    expect(deliveries[0]?.attempts[0]?.error).toBe('no answer within 0.5 s');
    await setWebhookEndpointEnabled(t.ctx, actor, endpoint.id, false);
  }, 30_000);
});
