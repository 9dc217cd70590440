import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/support/client';
import { verifiedOperator } from '../../../test/support/dashboard-helpers';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { buyTool, catalogueRows, newBuyer } from '../../../test/support/shop-fixtures';
import type {
  AdminOrderDetail,
  CursorPage,
  CustomerDetail,
  CustomerRow,
  MailStatus,
  MessageRow,
  OrderRow,
  Page,
} from '../../shared/dashboard';
import { users } from '../db/schema/accounts';
import { contactMessages } from '../db/schema/contact';
import { outbox } from '../db/schema/mail';
import { auditLog } from '../db/schema/operator';

/** What the dashboard's screens read: real purchases through the emulator, real messages and outbox rows. */

const t = shopTestAppForFile();
let operator: TestClient;
let buyer: Awaited<ReturnType<typeof newBuyer>>;
let bought: Awaited<ReturnType<typeof buyTool>>;

beforeAll(async () => {
  operator = (await verifiedOperator(t)).client;
  buyer = await newBuyer(t);
  const { windows } = await catalogueRows(t);
  bought = await buyTool(t, buyer.client, windows.id);
});

const orders = async (query: string) => {
  const response = await operator.get(`/api/admin/orders${query}`);
  expect(response.statusCode).toBe(200);
  return response.json() as CursorPage<OrderRow>;
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
    const bad = await operator.get('/api/admin/orders?status=lost&after=0&from=yesterday&extra=1');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fieldErrors).sort()).toEqual(['_', 'after', 'from', 'status'].sort());
  });

  it('shows one order with its events and emails; an unknown id is 404, a malformed one 400', async () => {
    const response = await operator.get(`/api/admin/orders/${bought.order.id}`);
    expect(response.statusCode).toBe(200);
    const order = response.json() as AdminOrderDetail;
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

/** Every row of a keyset-paged list, read forward with Next and back again with Previous. */
async function walk<Row extends { id: string | number }>(url: string) {
  const read = async (cursor: string) => {
    const response = await operator.get(`${url}${cursor}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as CursorPage<Row>;
  };
  const forward: Array<Array<string | number>> = [];
  let page = await read('');
  expect(page.previous).toBeNull();
  forward.push(page.items.map((row) => row.id));
  while (page.next) {
    page = await read(`&after=${page.next}`);
    forward.push(page.items.map((row) => row.id));
  }
  const backward: Array<Array<string | number>> = [page.items.map((row) => row.id)];
  while (page.previous) {
    page = await read(`&before=${page.previous}`);
    backward.unshift(page.items.map((row) => row.id));
  }
  return { forward, backward, total: page.total };
}

describe('keyset pages', () => {
  it('walk Activity forward and back, rows with the same time included once each', async () => {
    const at = new Date('2026-05-01T10:00:00.123456Z');
    await t.ctx.db.insert(auditLog).values(
      Array.from({ length: 23 }, (_, i) => ({
        actor: 'paging-test',
        action: `paging.${i}`,
        createdAt: at,
      })),
    );
    const { forward, backward, total } = await walk<{ id: number }>(
      '/api/admin/activity?q=paging-test&pageSize=5',
    );
    expect(forward.map((page) => page.length)).toEqual([5, 5, 5, 5, 3]);
    const ids = forward.flat();
    expect(new Set(ids).size).toBe(23);
    expect(ids).toEqual([...ids].sort((a, b) => Number(b) - Number(a)));
    expect(backward).toEqual(forward);
    expect(total).toBe(23);
  });

  it('walk Customers by name, ascending, with ties on the name', async () => {
    const at = t.clock.now();
    await t.ctx.db.insert(users).values(
      Array.from({ length: 9 }, (_, i) => ({
        name: i % 2 ? 'Pager Twin' : `Pager ${i}`,
        email: `pager-${i}@paging.example`,
        phone: '+919800000000',
        passwordHash: 'x',
        createdAt: at,
      })),
    );
    const { forward, backward } = await walk<CustomerRow>(
      '/api/admin/customers?q=%40paging.example&sort=name&dir=asc&pageSize=4',
    );
    expect(forward.map((page) => page.length)).toEqual([4, 4, 1]);
    expect(new Set(forward.flat()).size).toBe(9);
    expect(backward).toEqual(forward);
  });

  it('find customers by the start or end of the email, the start of the name, the end of the phone', async () => {
    await t.ctx.db.insert(users).values({
      name: 'Zoya Finder',
      email: 'Zoya.Finder@Search.Example',
      phone: '+919876512345',
      passwordHash: 'x',
    });
    for (const q of ['zoya.f', '@search.example', 'ZOYA FIN', '12345', '+919876512345']) {
      const found = await operator.get(`/api/admin/customers?q=${encodeURIComponent(q)}`);
      expect(
        (found.json() as CursorPage<CustomerRow>).items.map((row) => row.name),
        q,
      ).toEqual(['Zoya Finder']);
    }
    const inside = await operator.get('/api/admin/customers?q=finder%40search');
    expect((inside.json() as CursorPage<CustomerRow>).items).toEqual([]);
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
