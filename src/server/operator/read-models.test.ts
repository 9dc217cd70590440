import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/support/client';
import { commandLineOn } from '../../../test/support/command-line';
import { verifiedOperator } from '../../../test/support/dashboard-helpers';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { buyTool, catalogueRows, newBuyer } from '../../../test/support/shop-fixtures';
import type { AdminOrderDetail, CustomerDetail } from '../../shared/dashboard';
import { type CommandLineEnv, runCommandLine } from '../cli/command-line';
import { shortId } from '../cli/format';
import type { OrderDossier } from '../orders/read/operator';

/**
 * One order, one read model (`orderDossier`): the dashboard's order page and `npm run admin -- orders show` read
 * it through the same function, so they tell the operator the same facts (the dashboard masks the license key).
 * One customer likewise (`customerDossier`): the dashboard's customer page and `users show`.
 */

const t = shopTestAppForFile();
let dashboard: TestClient;
let cli: CommandLineEnv;
let orderId: string;
let buyerEmail: string;
let buyerId: string;

beforeAll(async () => {
  dashboard = (await verifiedOperator(t)).client;
  cli = commandLineOn(t);
  const buyer = await newBuyer(t);
  const { windows } = await catalogueRows(t);
  orderId = (await buyTool(t, buyer.client, windows.id)).order.id;
  buyerEmail = buyer.user.email;
  buyerId = buyer.user.id;
}, 60_000);

describe('one order', () => {
  it('is the same facts on the dashboard and on the command line', async () => {
    const response = await dashboard.get(`/api/admin/orders/${orderId}`);
    expect(response.statusCode).toBe(200);
    const page = response.json() as AdminOrderDetail;
    const json = await runCommandLine(['orders', 'show', orderId.slice(0, 8), '--json'], cli);
    expect(json.exitCode, json.stderr).toBe(0);
    const shown = JSON.parse(json.stdout) as OrderDossier & { createdAt: string; paidAt: string };

    const factsOf = (order: {
      id: string;
      status: string;
      amount: number;
      currency: string;
      razorpayOrderId: string;
      razorpayPaymentId: string | null;
      createdAt: string;
      paidAt: string | null;
      billing: unknown;
    }) => ({
      id: order.id,
      status: order.status,
      amount: order.amount,
      currency: order.currency,
      razorpayOrderId: order.razorpayOrderId,
      razorpayPaymentId: order.razorpayPaymentId,
      createdAt: order.createdAt,
      paidAt: order.paidAt,
      billing: order.billing,
    });
    expect(factsOf(shown)).toEqual(factsOf(page));
    expect(shown.customer?.email).toBe(page.email);
    expect(shown.invoice?.number).toBe(page.invoice?.number);
    expect(page.invoice?.number).toMatch(/\//);
    expect(shown.events.map((event) => [event.id, event.kind])).toEqual(
      page.events.map((event) => [event.id, event.kind]),
    );
    expect(shown.emails.map((mail) => [mail.id, mail.subject, mail.status])).toEqual(
      page.emails.map((mail) => [mail.id, mail.subject, mail.status]),
    );
    expect(page.emails.length).toBeGreaterThan(0);
    expect(shown.licenses.map((license) => [license.id, license.status, license.devices.length])).toEqual(
      page.licenses.map((license) => [license.id, license.status, license.devices.length]),
    );
    const key = shown.purchase?.license?.licenseKey;
    expect(key).toBeTruthy();
    expect(page.licenses[0]?.maskedKey?.slice(-4)).toBe(key?.slice(-4));

    // The text the operator reads names the same facts.
    const text = await runCommandLine(['orders', 'show', orderId], cli);
    expect(text.exitCode).toBe(0);
    for (const fact of [
      page.id,
      page.status,
      page.razorpayOrderId,
      page.razorpayPaymentId ?? '',
      page.email,
      page.invoice?.number ?? '',
      ...page.events.map((event) => event.kind),
      ...page.emails.map((mail) => mail.kind),
      ...page.licenses.map((license) => shortId(license.id)),
    ])
      expect(text.stdout).toContain(fact);
  });

  it('is not found alike', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await dashboard.get(`/api/admin/orders/${missing}`)).statusCode).toBe(404);
    const run = await runCommandLine(['orders', 'show', missing], cli);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/No order/i);
  });
});

describe('one customer', () => {
  it('is the same facts on the dashboard and on the command line', async () => {
    const response = await dashboard.get(`/api/admin/customers/${buyerId}`);
    expect(response.statusCode).toBe(200);
    const page = response.json() as CustomerDetail;
    // Any letter case finds the account on the command line.
    const json = await runCommandLine(['users', 'show', buyerEmail.toUpperCase(), '--json'], cli);
    expect(json.exitCode, json.stderr).toBe(0);
    const shown = JSON.parse(json.stdout) as {
      id: string;
      email: string;
      name: string;
      phone: string;
      createdAt: string;
      orders: Array<{ id: string; status: string; amount: number; currency: string; createdAt: string }>;
      purchases: Array<{ orderId: string; refundedAt: string | null }>;
    };

    expect({
      id: shown.id,
      email: shown.email,
      name: shown.name,
      phone: shown.phone,
      at: shown.createdAt,
    }).toEqual({ id: page.id, email: page.email, name: page.name, phone: page.phone, at: page.createdAt });
    const factsOf = (order: {
      id: string;
      status: string;
      amount: number;
      currency: string;
      createdAt: string;
    }) => [order.id, order.status, order.amount, order.currency, order.createdAt];
    expect(shown.orders.map(factsOf)).toEqual(page.orderList.map(factsOf));
    expect(shown.orders.map((order) => order.id)).toContain(orderId);
    expect(shown.purchases.filter((purchase) => !purchase.refundedAt)).toHaveLength(page.tools);
    expect(shown.orders).toHaveLength(page.orders);

    const text = await runCommandLine(['users', 'show', buyerEmail], cli);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`Tools owned +${page.tools}`));
    for (const fact of [page.id, page.email, ...page.orderList.map((order) => shortId(order.id))])
      expect(text.stdout).toContain(fact);
  });

  it('is not found alike', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await dashboard.get(`/api/admin/customers/${missing}`)).statusCode).toBe(404);
    const run = await runCommandLine(['users', 'show', 'nobody@example.com'], cli);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/No account with email nobody@example\.com/);
  });
});
