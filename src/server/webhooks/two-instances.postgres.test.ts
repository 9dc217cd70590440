import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../../test/support/app';
import { createTestDatabase } from '../../../test/support/database';
import { ServerProcess } from '../../../test/support/processes';
import { eventually } from '../../../test/support/shop-fixtures';
import { WebhookReceiver } from '../../../test/support/webhook-receiver';
import { newWebhookEndpointSchema } from '../../shared/webhooks';
import { webhookAttempts, webhookDeliveries } from '../db/schema/webhooks';
import { cliActor } from '../operator/audit';
import { enqueueWebhookEvent } from './events';
import { addWebhookEndpoint } from './operator';

/**
 * Two server processes on one PostgreSQL, both running the webhook job (decision 046): every event reaches the
 * receiver once, however their runs overlap. The receiver answers slowly, so both instances' runs are busy at once.
 */
const EVENTS = 40;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: TestApp;
let receiver: WebhookReceiver;
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  database = await createTestDatabase();
  if (!database.url) throw new Error('the two-instance test needs PostgreSQL');
  const shared = { DATABASE_URL: database.url, WEBHOOKS_ALLOW_LOOPBACK: '1', LOG_LEVEL: 'error' };
  app = await openTestApp({ env: shared });
  receiver = await new WebhookReceiver().start();
  receiver.delayMs = 100;
  a = new ServerProcess(shared);
  b = new ServerProcess(shared);
  await Promise.all([a.start(), b.start()]);
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await receiver?.close();
  await app?.close();
  await database?.close();
});

describe('two instances on one PostgreSQL', () => {
  it('deliver each event once', async () => {
    const endpoint = await addWebhookEndpoint(
      app.ctx,
      cliActor('two-instances'),
      newWebhookEndpointSchema.parse({
        url: receiver.url('/both'),
        events: ['release.published'],
      }),
    );
    for (let i = 0; i < EVENTS; i++) {
      await app.ctx.db.transaction((tx) =>
        enqueueWebhookEvent(tx, 'release.published', { release: { id: `r${i}` } }, { at: new Date() }),
      );
    }
    await eventually(async () => {
      const delivered = await app.ctx.db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.status, 'delivered'));
      return delivered.length === EVENTS ? true : undefined;
    }, 60_000);
    // Time for a second send, had one been made.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const received = receiver.at('/both').map((request) => WebhookReceiver.verify(request, endpoint.secret));
    expect(received).toHaveLength(EVENTS);
    expect(new Set(received.map((payload) => (payload.data.release as { id: string }).id)).size).toBe(EVENTS);
    expect(await app.ctx.db.select().from(webhookAttempts)).toHaveLength(EVENTS);
  }, 90_000);
});
