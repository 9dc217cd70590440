import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addTool,
  buyThroughEmulator,
  createShopTestApp,
  loginAs,
  newBuyer,
  type ShopTestApp,
} from '../../test/support/shop-fixtures';
import { refundOrder } from './orders/refund';
import { pruneExpiredRows } from './retention';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows of each kind seeded past their retention, and rows seeded within it. */
const OLD = 3000;
const YOUNG = 200;

let t: ShopTestApp;

async function count(table: string, where = sql`true`): Promise<number> {
  const result = (await t.ctx.db.execute(
    sql`select count(*)::int as n from ${sql.identifier(table)} where ${where}`,
  )) as unknown as {
    rows: Array<{ n: number }>;
  };
  return result.rows[0]?.n ?? 0;
}

describe('retention: nothing grows forever', () => {
  let orderId: string;
  let refundedOrderId: string;
  const kept: Record<string, number> = {};

  beforeAll(async () => {
    t = await createShopTestApp();
    // Real orders with their tax documents and emails: one paid, one refunded (credit note, refund notice).
    const { user, client } = await newBuyer(t);
    const first = await addTool(t, { name: 'Ledger Helper' });
    const second = await addTool(t, { name: 'Invoice Helper' });
    orderId = (await buyThroughEmulator(t, client, first.id)).id;
    refundedOrderId = (await buyThroughEmulator(t, client, second.id)).id;
    await refundOrder(t.ctx, { orderId: refundedOrderId, source: 'admin', reason: 'Bought by mistake' });
    // The emulator's refund webhooks are recorded now, at day 0, not after the clock has moved (then they are young).
    await t.emulator?.settled();
    await loginAs(t, user);
    await t.ctx.db.execute(sql`update outbox set status = 'sent', sent_at = created_at`);

    const t0 = t.clock.now();
    const at = (days: number) => new Date(t0.getTime() + days * DAY_MS).toISOString();
    const { db } = t.ctx;
    const [purchase] = (
      (await db.execute(
        sql`select id, user_id, tool_id from purchases where order_id = ${orderId}`,
      )) as unknown as {
        rows: Array<{ id: string; user_id: string; tool_id: string }>;
      }
    ).rows;
    if (!purchase) throw new Error('no purchase');
    await db.execute(sql`insert into webhook_endpoints (id, url, events, secret)
      values ('00000000-0000-4000-8000-00000000e4d1', 'https://hooks.example.com/', '["order.paid"]', 'x')`);
    const seed = async (n: number, days: number, expiresInDays: number, tag: string) => {
      await db.execute(sql`insert into sessions (id_hash, user_id, created_at, expires_at)
        select ${tag} || '-session-' || g, ${purchase.user_id}, ${at(days)}, ${at(days + expiresInDays)}
        from generate_series(1, ${n}) g`);
      await db.execute(sql`insert into download_tokens (token_hash, purchase_id, user_id, tool_id, expires_at, created_at)
        select ${tag} || '-link-' || g, ${purchase.id}, ${purchase.user_id}, ${purchase.tool_id},
               ${at(days + expiresInDays)}, ${at(days)}
        from generate_series(1, ${n}) g`);
      await db.execute(sql`insert into verification_codes (email, purpose, code_hash, expires_at, created_at)
        select ${tag} || g || '@example.com', 'signup', 'x', ${at(days + expiresInDays)}, ${at(days)}
        from generate_series(1, ${n}) g`);
      await db.execute(sql`insert into outbox ("to", subject, html, text, kind, ref, status, created_at, sent_at)
        select 'buyer@example.com', 'Seeded ' || g, '<p>x</p>', 'x', 'seeded',
               case when g % 10 = 0 then 'order:' || ${orderId} else null end, 'sent', ${at(days)}, ${at(days)}
        from generate_series(1, ${n}) g`);
      await db.execute(sql`insert into webhook_events (event_id, event, created_at)
        select ${tag} || '-evt-' || g, 'payment.captured', ${at(days)} from generate_series(1, ${n}) g`);
      await db.execute(sql`insert into rate_limit_hits (key, window_start, count)
        select ${tag} || '-key-' || g, ${at(days)}, 1 from generate_series(1, ${n}) g`);
      // Outgoing webhook deliveries, each with an attempt; one in ten still being tried (never pruned).
      await db.execute(sql`insert into webhook_deliveries (endpoint_id, message_id, event, payload, status, created_at)
        select '00000000-0000-4000-8000-00000000e4d1', ${tag} || '-msg-' || g, 'order.paid', '{}',
               case when g % 10 = 0 then 'pending' else 'delivered' end, ${at(days)}
        from generate_series(1, ${n}) g`);
      await db.execute(sql`insert into webhook_attempts (delivery_id, attempt, status, duration_ms, at)
        select id, 1, 204, 5, created_at from webhook_deliveries where message_id like ${`${tag}-msg-%`}`);
      await db.execute(sql`insert into audit_log (actor, action, target, created_at)
        select 'cli:seed', 'seeded', ${tag} || g, ${at(days)} from generate_series(1, ${n}) g`);
    };
    // Old rows: made on day 0, expired within a day. Young rows: made on day 94, expiring on day 100.
    await seed(OLD, 0, 0.5, 'old');
    await seed(YOUNG, 94, 6, 'young');
    for (const table of ['orders', 'invoices', 'credit_notes', 'audit_log', 'purchases', 'licenses'])
      kept[table] = await count(table);
    // Nothing is past its retention yet: a run now deletes only what expired within the day.
    t.clock.advance(95 * DAY_MS);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('deletes every row past its retention, batch by batch, and keeps the young ones', async () => {
    const deleted = await pruneExpiredRows(t.ctx.db, t.clock);
    expect(deleted.expiredSessions).toBeGreaterThanOrEqual(OLD);
    expect(deleted.expiredDownloadLinks).toBeGreaterThanOrEqual(OLD);
    expect(deleted.expiredVerificationCodes).toBe(OLD);
    expect(deleted.webhookEvents).toBeGreaterThanOrEqual(OLD);
    expect(deleted.rateLimitCounters).toBeGreaterThanOrEqual(OLD);
    // The seeded old mail and the orders' own emails (sent on day 0) are past 90 days.
    expect(deleted.sentMail).toBeGreaterThanOrEqual(OLD);

    expect(await count('sessions')).toBe(YOUNG);
    expect(await count('download_tokens')).toBe(YOUNG);
    expect(await count('verification_codes')).toBe(YOUNG);
    expect(await count('outbox')).toBe(YOUNG);
    expect(await count('webhook_events')).toBe(YOUNG);
    expect(await count('rate_limit_hits')).toBe(YOUNG);
    expect(deleted.webhookDeliveries).toBe(OLD * 0.9);
    expect(await count('webhook_deliveries')).toBe(YOUNG + OLD * 0.1);
    expect(await count('webhook_attempts')).toBe(YOUNG + OLD * 0.1);
  });

  it('never prunes orders, tax documents, licenses or the audit log', async () => {
    for (const [table, before] of Object.entries(kept)) expect(await count(table), table).toBe(before);
    expect(kept.invoices).toBe(2);
    expect(kept.credit_notes).toBe(1);
    expect(kept.audit_log).toBeGreaterThanOrEqual(OLD + YOUNG);
  });

  it("keeps the fact that an order's email was sent in the order's history", async () => {
    const archived = (await t.ctx.db.execute(
      sql`select detail from order_events where order_id = ${orderId} and kind = 'email-archived'`,
    )) as unknown as { rows: Array<{ detail: { subject: string } }> };
    // The delivery email and the seeded mail that named this order (every tenth old row).
    expect(archived.rows.length).toBe(1 + OLD / 10);
    expect(archived.rows.map((row) => row.detail.subject)).toContain('Seeded 10');
    const refunded = await count(
      'order_events',
      sql`order_id = ${refundedOrderId} and kind = 'email-archived'`,
    );
    expect(refunded).toBeGreaterThanOrEqual(2);
  });

  it('is idempotent: a second run deletes nothing', async () => {
    const again = await pruneExpiredRows(t.ctx.db, t.clock);
    expect(Object.values(again).every((n) => n === 0)).toBe(true);
  });
});
