import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { adminOn, argv } from '../../../test/support/command-line';
import { WebhookReceiver } from '../../../test/support/webhook-receiver';
import { auditLog } from '../db/schema/operator';
import { webhookEndpoints } from '../db/schema/webhooks';
import { createWebhookWorker } from '../webhooks/delivery';
import { enqueueWebhookEvent } from '../webhooks/events';

/** `npm run admin -- webhooks …` through the command line's dispatcher, in this process, on the test's database. */

let t: TestApp;
let receiver: WebhookReceiver;

beforeAll(async () => {
  t = await createTestApp({ env: { WEBHOOKS_ALLOW_LOOPBACK: '1' } });
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const admin = adminOn(() => t);

describe('npm run admin -- webhooks', () => {
  it('adds an endpoint with its secret shown once, lists, disables, enables, rotates, shows and redelivers', async () => {
    const added = await admin(
      ...argv`webhooks add ${receiver.url('/cli')} --events order.paid,order.refunded --json`,
    );
    expect(added.stderr).toBe('');
    const endpoint = JSON.parse(added.stdout) as { id: string; secret: string; events: string[] };
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(endpoint.events).toEqual(['order.paid', 'order.refunded']);

    const listed = await admin('webhooks', 'list');
    expect(listed.stdout).toContain(endpoint.id);
    expect(listed.stdout).toContain('order.paid,order.refunded');
    expect(listed.stdout).not.toContain(endpoint.secret);

    expect((await admin('webhooks', 'disable', endpoint.id)).stdout).toBe(
      `Webhook endpoint ${endpoint.id} is disabled.\n`,
    );
    expect((await admin('webhooks', 'disable', endpoint.id)).stderr).toContain('already disabled');
    expect((await admin('webhooks', 'enable', endpoint.id)).exitCode).toBe(0);
    const rotated = JSON.parse((await admin('webhooks', 'rotate-secret', endpoint.id, '--json')).stdout) as {
      secret: string;
    };
    expect(rotated.secret).not.toBe(endpoint.secret);

    receiver.answer('/cli', 500);
    await t.ctx.db.transaction((tx) =>
      enqueueWebhookEvent(tx, 'order.paid', { order: { id: 'o1' } }, { at: t.clock.now() }),
    );
    const worker = createWebhookWorker(t.ctx);
    await worker.drain();
    t.clock.advance(60_000);
    await worker.drain();
    // Signed with the new secret only.
    const [first] = receiver.at('/cli');
    if (!first) throw new Error('nothing received');
    expect(WebhookReceiver.verify(first, rotated.secret).type).toBe('order.paid');
    expect(() => WebhookReceiver.verify(first, endpoint.secret)).toThrow();

    const attempts = JSON.parse(
      (await admin('webhooks', 'deliveries', endpoint.id, '--json')).stdout,
    ) as Array<{
      delivery: number;
      event: string;
      attempt: number;
      status: number;
    }>;
    expect(attempts.map(({ event, attempt, status }) => ({ event, attempt, status }))).toEqual([
      { event: 'order.paid', attempt: 1, status: 500 },
      { event: 'order.paid', attempt: 2, status: 204 },
    ]);
    const text = await admin('webhooks', 'deliveries', endpoint.id);
    expect(text.stdout).toContain('receiver says 500');

    const again = await admin('webhooks', 'redeliver', String(attempts[0]?.delivery));
    expect(again.stdout).toMatch(/^Delivery \d+ queued again as delivery \d+\.\n$/);
    await worker.drain();
    expect(receiver.at('/cli')).toHaveLength(3);

    const audit = await t.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `webhook:${endpoint.id}`));
    expect(audit.map((row) => [row.action, row.actor])).toEqual([
      ['webhook.add', 'cli:tester'],
      ['webhook.disable', 'cli:tester'],
      ['webhook.enable', 'cli:tester'],
      ['webhook.rotate_secret', 'cli:tester'],
      ['webhook.redeliver', 'cli:tester'],
    ]);
  });

  it('refuses bad input with the field named and changes nothing', async () => {
    const before = await t.ctx.db.select().from(webhookEndpoints);
    const noEvents = await admin('webhooks', 'add', receiver.url('/x'));
    expect(noEvents).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('needs --events') });
    const unknown = await admin('webhooks', 'add', receiver.url('/x'), '--events', 'order.shipped');
    expect(unknown).toMatchObject({
      exitCode: 1,
      stderr: expect.stringContaining('events: each one of order.paid'),
    });
    const notUrl = await admin('webhooks', 'add', 'ftp://example.com/x', '--events', 'order.paid');
    expect(notUrl).toMatchObject({
      exitCode: 1,
      stderr: expect.stringContaining('url: an http:// or https:// URL'),
    });
    const missing = await admin('webhooks', 'deliveries', '00000000-0000-4000-8000-000000000000');
    expect(missing).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('No webhook endpoint') });
    expect((await admin('webhooks', 'redeliver', 'abc')).stderr).toContain('not a delivery id');
    expect(await t.ctx.db.select().from(webhookEndpoints)).toEqual(before);
  });
});
