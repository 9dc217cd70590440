import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp } from '../../../test/support/app';
import { argv } from '../../../test/support/command-line';
import { databaseForProcesses } from '../../../test/support/database';
import { pdfText } from '../../../test/support/invoices-helpers';
import { freePort, runCli } from '../../../test/support/processes';
import { TEST_DATA_SECRET_KEY } from '../../../test/support/settings';
import { catalogueRows, createUser, loginAs } from '../../../test/support/shop-fixtures';
import type { ProformaAnswer } from '../../shared/proforma';
import type { TdsReport } from '../../shared/tds-report';
import { auditLog } from '../db/schema/operator';
import { orders } from '../db/schema/orders';
import { findOrderTaxDocument } from '../invoices/lookup';
import { renderTaxDocumentPdf } from '../invoices/pdf';

/**
 * Issue 68's transfers from the command line, as the operator records them from the bank statement: a separate
 * process on the shop's database (PGlite files or PostgreSQL). A proforma without TDS, paid in two transfers,
 * settles only after the second; a UTR is recorded once; every transfer is audited.
 */

let dataDir: string;
let env: Record<string, string>;
let dropDatabase: (() => Promise<void>) | undefined;
let proforma: ProformaAnswer;

type Run = { code: number; stdout: string; stderr: string };
const admin = (...args: string[]): Promise<Run> => runCli(args, { env: { ...process.env, ...env } });

/** The shop on the same database, for what the test reads after a command ran (PGlite: one process at a time). */
async function withShop<T>(work: (t: Awaited<ReturnType<typeof openTestApp>>) => Promise<T>): Promise<T> {
  const t = await openTestApp({ env, now: new Date() });
  try {
    return await work(t);
  } finally {
    await t.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'admin-transfers-'));
  const { databaseUrl, drop } = await databaseForProcesses(dataDir);
  dropDatabase = drop;
  const port = await freePort();
  env = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: '',
    SESSION_SECRET: 'admin-transfers-test-session-secret-0123456789abcdef',
    LOG_LEVEL: 'silent',
    // The shop seals license keys; the command line must open them with the same key.
    DATA_SECRET_KEY: TEST_DATA_SECRET_KEY,
  };
  // The shop serves while the buyer asks for the proforma: its payment link is made at the Razorpay emulator.
  await withShop(async (t) => {
    await t.app.listen({ port, host: '127.0.0.1' });
    const buyer = await createUser(t, { name: 'Sharma & Sons' });
    const client = await loginAs(t, buyer);
    const asked = await client.post('/api/checkout/proforma', {
      toolId: (await catalogueRows(t)).windows.id,
      currency: 'INR',
      billingDetails: {
        address: 'C-12, Malviya Nagar, Jaipur',
        state: 'Rajasthan',
        country: 'India',
        gstin: '08AAPFP1234A1ZK',
        currency: 'INR',
      },
      seats: 4,
    });
    if (asked.statusCode !== 200) throw new Error(`proforma refused: ${asked.body}`);
    proforma = asked.json<ProformaAnswer>();
  });
});

afterAll(async () => {
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('orders record-transfer', { timeout: 120_000 }, () => {
  it('asks for what is due: 4 × ₹1,499 with no TDS', () => {
    expect(proforma).toMatchObject({ proformaNumber: 'PCAP/26-27/00001', amountDue: 599_600 });
  });

  it('refuses a bad amount and a missing UTR before touching anything', async () => {
    const bad = await admin(
      ...argv`orders record-transfer ${proforma.orderId} --amount 12.345 --utr X1234567`,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--amount "12.345": Rupees with at most two decimals, e.g. 5000.00.');
    const noUtr = await admin('orders', 'record-transfer', proforma.orderId, '--amount', '100');
    expect(noUtr.code).toBe(1);
    expect(noUtr.stderr).toContain('--utr: Give the UTR the bank statement shows.');
  });

  it('records the first part: the order waits for the rest', async () => {
    const first = await admin(
      ...argv`orders record-transfer ${proforma.proformaNumber} --amount 3,000.00 --utr SBINN52026120100001 --date 2026-12-01`,
    );
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('₹3,000.00 of ₹5,996.00 received; it settles when the rest arrives');
    const status = await withShop(async (t) => {
      const [order] = await t.ctx.db.select().from(orders).where(eq(orders.id, proforma.orderId));
      return order?.status;
    });
    expect(status).toBe('created');
  });

  it('refuses the same UTR twice, and changes nothing', async () => {
    const again = await admin(
      ...argv`orders record-transfer ${proforma.orderId} --amount 2996.00 --utr sbinn52026120100001 --date 2026-12-01`,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      'The transfer SBINN52026120100001 is recorded already; nothing was changed.',
    );
  });

  it('settles the order with the second part: tax invoice naming both transfers, license delivered', async () => {
    const second = await admin(
      ...argv`orders record-transfer ${proforma.orderId} --amount 2996 --utr SBINN52026120300002 --date 2026-12-03 --json`,
    );
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      result: 'settled',
      received: 599_600,
      due: 599_600,
      fulfilment: { result: 'fulfilled' },
    });
    await withShop(async (t) => {
      const [order] = await t.ctx.db.select().from(orders).where(eq(orders.id, proforma.orderId));
      expect(order).toMatchObject({ status: 'paid', razorpayPaymentId: null });
      const invoice = await findOrderTaxDocument(t.ctx, { orderId: proforma.orderId, kind: 'invoice' });
      expect(invoice?.document.paidAgainst?.receipts).toEqual([
        { method: 'bank-transfer', reference: 'SBINN52026120100001', amount: 300_000, date: '2026-12-01' },
        { method: 'bank-transfer', reference: 'SBINN52026120300002', amount: 299_600, date: '2026-12-03' },
      ]);
      if (!invoice) throw new Error('the settled order has no invoice');
      const text = (await pdfText(await renderTaxDocumentPdf(t.ctx.pdfFonts, invoice.document))).replace(
        /\s+/g,
        ' ',
      );
      expect(text).toContain('Paid against proforma invoice PCAP/26-27/00001');
      expect(text).toContain('CGST @ 9%');
      const audits = await t.ctx.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'order.record-transfer'));
      expect(audits).toHaveLength(2);
      expect(audits[0]?.actor).toMatch(/^cli:/);
    });
    const show = await admin('orders', 'show', proforma.orderId);
    expect(show.stdout).toContain('SBINN52026120300002');
    expect(show.stdout).toContain('Proforma invoice:');
  });

  it('a transfer for a paid order is late money for the operator', async () => {
    const extra = await admin(
      ...argv`orders record-transfer ${proforma.orderId} --amount 10 --utr SBINN52026120400003 --date 2026-12-04`,
    );
    expect(extra.code).toBe(0);
    expect(extra.stdout).toContain('the money is a late payment');
  });
});

describe('invoices tds', { timeout: 120_000 }, () => {
  it('lists no receivable for a proforma without TDS, and writes the CSV header for the accountant', async () => {
    const report = await admin('invoices', 'tds', '--quarter', '2026-Q3', '--json');
    expect(report.code).toBe(0);
    expect(JSON.parse(report.stdout) as TdsReport).toMatchObject({
      from: '2026-10-01',
      to: '2026-12-31',
      rows: [],
    });
    const csv = await admin('invoices', 'tds', '--quarter', '2026-Q3', '--csv');
    expect(csv.stdout.split('\r\n')[0]).toBe(
      'quarter,order,settled_on,buyer,buyer_email,pan,invoice,invoice_date,taxable_value,tds_amount,form_16a,form_16a_received_on,order_status',
    );
    const wrong = await admin('invoices', 'tds', '--quarter', '2026-Q5');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('--quarter "2026-Q5": Give a quarter of the financial year as YYYY-Qn');
  });
});
