import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/support/client';
import { verifiedOperator } from '../../../test/support/dashboard-helpers';
import {
  buyTool,
  catalogueRows,
  createShopTestApp,
  newBuyer,
  type ShopTestApp,
} from '../../../test/support/shop-fixtures';
import type {
  CustomerDetail,
  MailStatus,
  MessageRow,
  OrderDetail,
  OrderRow,
  Page,
} from '../../shared/dashboard';
import { contactMessages, outbox } from '../db/schema';

/** What the dashboard's screens read: real purchases through the emulator, real messages and outbox rows. */

let t: ShopTestApp;
let operator: TestClient;
let buyer: Awaited<ReturnType<typeof newBuyer>>;
let bought: Awaited<ReturnType<typeof buyTool>>;

beforeAll(async () => {
  t = await createShopTestApp();
  operator = (await verifiedOperator(t)).client;
  buyer = await newBuyer(t);
  const { windows } = await catalogueRows(t);
  bought = await buyTool(t, buyer.client, windows.id);
});
afterAll(() => t.close());

const orders = async (query: string) => {
  const response = await operator.get(`/api/admin/orders${query}`);
  expect(response.statusCode).toBe(200);
  return response.json() as Page<OrderRow>;
};

describe('orders', () => {
  it('are found by email, order_…, pay_… and the start of the id', async () => {
    for (const q of [
      buyer.user.email.toUpperCase().slice(0, 12),
      bought.razorpayOrderId,
      bought.razorpayPaymentId,
      bought.order.id.slice(0, 8),
    ]) {
      const page = await orders(`?q=${encodeURIComponent(q)}`);
      expect(
        page.items.map((order) => order.id),
        q,
      ).toEqual([bought.order.id]);
      expect(page.total).toBe(1);
    }
    expect((await orders('?q=pay_doesnotexist')).items).toEqual([]);
    expect((await orders('?status=refunded')).items).toEqual([]);
    expect((await orders('?status=paid')).items[0]).toMatchObject({
      status: 'paid',
      email: buyer.user.email,
      currency: 'INR',
    });
  });

  it('filter by Indian calendar days and refuse bad filters with field errors', async () => {
    const today = new Date(t.clock.now().getTime() + 5.5 * 3_600_000).toISOString().slice(0, 10);
    expect((await orders(`?from=${today}&to=${today}`)).total).toBe(1);
    expect((await orders('?to=2020-01-01')).total).toBe(0);
    const bad = await operator.get('/api/admin/orders?status=lost&page=0&from=yesterday&extra=1');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fieldErrors).sort()).toEqual(['_', 'from', 'page', 'status'].sort());
  });

  it('shows one order with its events and emails; an unknown id is 404, a malformed one 400', async () => {
    const response = await operator.get(`/api/admin/orders/${bought.order.id}`);
    expect(response.statusCode).toBe(200);
    const order = response.json() as OrderDetail;
    expect(order.razorpayPaymentId).toBe(bought.razorpayPaymentId);
    expect(order.events.map((event) => event.kind)).toContain('paid');
    expect(order.emails.length).toBeGreaterThan(0);
    expect(order.billing).toMatchObject({ state: 'Rajasthan' });
    expect((await operator.get('/api/admin/orders/00000000-0000-0000-0000-000000000000')).statusCode).toBe(
      404,
    );
    for (const malformed of ['not-an-id', '-'.repeat(36)]) {
      const refused = await operator.get(`/api/admin/orders/${malformed}`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ fieldErrors: { id: 'Not an id.' } });
    }
  });
});

describe('customers', () => {
  it('are searched and shown with their orders', async () => {
    const list = await operator.get(`/api/admin/customers?q=${encodeURIComponent(buyer.user.email)}`);
    expect(list.json().items).toEqual([expect.objectContaining({ id: buyer.user.id, orders: 1, tools: 1 })]);
    const detail = (await operator.get(`/api/admin/customers/${buyer.user.id}`)).json() as CustomerDetail;
    expect(detail.orderList.map((order) => order.id)).toEqual([bought.order.id]);
  });
});

describe('messages and mail', () => {
  it('list unhandled messages first, oldest first', async () => {
    const base = { relatedTo: 'Services' as const, description: 'Hello' };
    const at = (minutes: number) => new Date(t.clock.now().getTime() - minutes * 60_000);
    await t.ctx.db.insert(contactMessages).values([
      { ...base, name: 'Handled', email: 'h@example.com', createdAt: at(30), handledAt: at(5) },
      { ...base, name: 'Older', email: 'o@example.com', createdAt: at(20) },
      { ...base, name: 'Newer', email: 'n@example.com', createdAt: at(10) },
    ]);
    const names = async (show: string) =>
      ((await operator.get(`/api/admin/messages?show=${show}`)).json() as Page<MessageRow>).items.map(
        (m) => m.name,
      );
    expect(await names('unhandled')).toEqual(['Older', 'Newer']);
    expect(await names('all')).toEqual(['Older', 'Newer', 'Handled']);
  });

  it('counts the outbox and lists failed and retrying mail with the reason', async () => {
    const [row] = await t.ctx.db.select().from(outbox).limit(1);
    if (!row) throw new Error('no mail queued');
    await t.ctx.db
      .update(outbox)
      .set({ status: 'failed', attempts: 8, lastError: '550 mailbox unavailable' })
      .where(eq(outbox.id, row.id));
    const status = (await operator.get('/api/admin/mail')).json() as MailStatus;
    expect(status.counts.failed).toBe(1);
    expect(status.problems).toEqual([
      expect.objectContaining({ id: row.id, status: 'failed', lastError: '550 mailbox unavailable' }),
    ]);
  });
});
