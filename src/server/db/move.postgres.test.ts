import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../../test/support/app';
import { emptyPostgresDatabase } from '../../../test/support/database';
import { freePort } from '../../../test/support/processes';
import { addTool, buyTool, loginAs, newBuyer } from '../../../test/support/shop-fixtures';
import { billingCorrectionSchema } from '../../shared/billing-correction';
import type { MyLicense } from '../../shared/licenses';
import { correctBilling } from '../orders/billing-correction';
import { refundOrder } from '../orders/refund';
import { openDatabase } from './index';
import { MoveRefused, moveToPostgres, type TableFigures, tableFigures } from './move';
import { invoices } from './schema/invoices';

describe('move-to-postgres: the embedded database copied whole into an empty PostgreSQL', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'move-test-'));
  let source: TestApp;
  let target: { url: string; drop(): Promise<void> };
  let moved: TableFigures[];
  let buyerId: string;
  let paidOrderId: string;
  let invoicePdf: Buffer;
  let lastInvoiceNumber: string;

  beforeAll(async () => {
    // A real shop on embedded PGlite files: two paid orders (INR and USD), one of them refunded, the other's billing
    // corrected.
    // Listening, so the gateway reaches the Razorpay emulator the app mounts.
    const port = await freePort();
    source = await openTestApp({ env: { DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}` } });
    await source.app.listen({ port, host: '127.0.0.1' });
    expect(source.database.driver).toBe('pglite');
    const { user, client } = await newBuyer(source);
    buyerId = user.id;
    const first = await addTool(source, { name: 'Ledger Helper' });
    const second = await addTool(source, { name: 'GST Helper', priceUsdCents: 1299 });
    paidOrderId = (await buyTool(source, client, first.id)).order.id;
    const refunded = (await buyTool(source, client, second.id, 'USD')).order;
    await refundOrder(source.ctx, {
      orderId: refunded.id,
      source: 'razorpay',
      reason: null,
      madeByRazorpay: { refundId: 'rfnd_moved', amount: refunded.amount },
    });
    // The rupee order's billing corrected: its first invoice is cancelled by a credit note that names it back, the
    // loop between the two tables that the move breaks and closes again.
    await correctBilling(source.ctx, {
      userId: user.id,
      orderId: paidOrderId,
      body: billingCorrectionSchema.parse({
        address: '12 Park Street, Kolkata 700016',
        state: 'West Bengal',
      }),
    });
    invoicePdf = (await client.get(`/api/orders/${paidOrderId}/invoice.pdf`)).rawPayload;
    const numbers = await source.ctx.db.select({ number: invoices.number }).from(invoices);
    lastInvoiceNumber = numbers
      .map((row) => row.number)
      .sort()
      .at(-1) as string;
    target = await emptyPostgresDatabase();
  });

  afterAll(async () => {
    await source?.close().catch(() => {});
    await target?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies every table, verified by row counts and checksums, and leaves the source as it was', async () => {
    const to = await openDatabase({ databaseUrl: target.url, pgliteDir: '' });
    try {
      moved = await moveToPostgres(source.database, to);
    } finally {
      await to.close();
    }
    const byTable = Object.fromEntries(moved.map((figures) => [figures.table, figures.rows]));
    expect(byTable.orders).toBe(2);
    expect(byTable.invoices).toBe(3);
    expect(byTable.credit_notes).toBe(2);
    expect(byTable.licenses).toBe(2);
    expect(moved.filter((figures) => figures.rows > 0).length).toBeGreaterThanOrEqual(10);
    // The source was only read: every table still has the rows and checksum that were copied.
    for (const figures of moved) expect(await tableFigures(source.ctx.db, figures.table)).toEqual(figures);
    const again = await openDatabase({ databaseUrl: target.url, pgliteDir: '' });
    try {
      await expect(moveToPostgres(source.database, again)).rejects.toBeInstanceOf(MoveRefused);
    } finally {
      await again.close();
    }
  });

  it('serves the same orders, licenses and invoices from PostgreSQL, and numbers the next invoice after the last', async () => {
    await source.close();
    const port = await freePort();
    const app = await openTestApp({
      env: { DATA_DIR: dataDir, DATABASE_URL: target.url, PUBLIC_URL: `http://127.0.0.1:${port}` },
    });
    await app.app.listen({ port, host: '127.0.0.1' });
    try {
      expect(app.database.driver).toBe('postgres');
      const client = await loginAs(app, { id: buyerId });
      const orders = (await client.get('/api/orders/')).json<Array<{ id: string; status: string }>>();
      expect(orders.map((order) => order.status).sort()).toEqual(['paid', 'refunded']);
      expect((await client.get(`/api/orders/${paidOrderId}/invoice.pdf`)).rawPayload.equals(invoicePdf)).toBe(
        true,
      );

      const [license] = (await client.get('/api/my-licenses/')).json<MyLicense[]>();
      expect(license?.licenseKey).toBeTruthy();
      const validate = await app.app.inject({
        method: 'POST',
        url: '/api/licenses/activate',
        payload: {
          licenseKey: license?.licenseKey,
          toolId: license?.toolId,
          fingerprint: 'moved-machine-0001',
        },
      });
      expect(validate.json()).toMatchObject({ valid: true, code: 'VALID' });

      const third = await addTool(app, { name: 'Payroll Helper' });
      const bought = await buyTool(app, client, third.id);
      const [next] = await app.ctx.db
        .select({ number: invoices.number })
        .from(invoices)
        .where(eq(invoices.orderId, bought.order.id));
      const sequence = (number: string) => Number(number.split('/').at(-1));
      expect(sequence(next?.number as string)).toBe(sequence(lastInvoiceNumber) + 1);
    } finally {
      await app.close();
    }
  });
});
