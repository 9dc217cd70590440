import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp } from '../../../test/support/app';
import { commandLineProcessEnv } from '../../../test/support/database';
import { runCli } from '../../../test/support/processes';
import { addTool, createUser, insertPaidOrder } from '../../../test/support/shop-fixtures';
import type { Gstr1Report } from '../invoices/gstr1';
import { issueCreditNote, issueInvoice } from '../invoices/issue';

/** `invoices list|export` as the accountant's operator runs it: a separate process on a migrated database. */

let dataDir: string;
let env: Record<string, string>;
let dropDatabase: (() => Promise<void>) | undefined;

type Run = { code: number; stdout: string; stderr: string };

function admin(...args: string[]): Promise<Run> {
  return runCli(args, { env: { ...process.env, ...env } });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'admin-invoices-'));
  ({ env, drop: dropDatabase } = await commandLineProcessEnv(dataDir, {
    SMTP_URL: '',
    SESSION_SECRET: 'admin-invoices-test-session-secret-0123456789abcdef',
  }));
  const t = await openTestApp({ env, now: new Date('2026-05-15T06:00:00Z') });
  try {
    const tool = await addTool(t, { name: 'GST Return Helper', priceInrPaise: 1180_00 });
    const sell = async (billing: { state: string; gstin?: string }) => {
      const user = await createUser(t, { name: `Buyer ${billing.state}` });
      const orderId = await insertPaidOrder(t, {
        userId: user.id,
        toolId: tool.id,
        amount: 1180_00,
        billing: { address: 'Somewhere', ...billing },
      });
      await t.ctx.db.transaction((tx) =>
        issueInvoice(t.ctx, tx, {
          orderId,
          itemDescription: 'Tool — license',
          razorpayPaymentId: 'pay_1',
        }),
      );
      return orderId;
    };
    await sell({ state: 'Rajasthan' });
    const b2b = await sell({ state: 'Maharashtra', gstin: '27AAPFU0939F1ZV' });
    await t.ctx.db.transaction((tx) =>
      issueCreditNote(t.ctx, tx, { orderId: b2b, amount: 1180_00, reason: null }),
    );
  } finally {
    await t.close();
  }
});

afterAll(async () => {
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

// Each command is a fresh Node process that loads the server's modules: seconds each on a busy machine.
const SLOW = { timeout: 120_000 };

describe('npm run admin -- invoices', () => {
  it('exports the GSTR-1 split of a period as CSV', SLOW, async () => {
    const run = await admin('invoices', 'export', '--from', '2026-05-01', '--to', '2026-05-31', '--csv');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^section,document_number,document_date,/);
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(['b2b', 'b2c', 'cdn']);
    expect(lines[1]).toContain('27AAPFU0939F1ZV');
    expect(lines[1]).toContain(',1000.00,180.00,0.00,0.00,1180.00,');
    expect(lines[2]).toContain('08-Rajasthan');
    expect(lines[2]).toContain(',1000.00,0.00,90.00,90.00,1180.00,');
  });

  it('lists the same split for people and as JSON', SLOW, async () => {
    const text = await admin('invoices', 'list', '--from', '2026-05-01', '--to', '2026-05-31');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('B2B invoices (buyer GSTIN)');
    expect(text.stdout).toContain('08-Rajasthan');
    const json = await admin('invoices', 'list', '--from', '2026-05-01', '--to', '2026-05-31', '--json');
    const report = JSON.parse(json.stdout) as Gstr1Report;
    expect([report.b2b.length, report.b2c.length, report.exports.length, report.creditNotes.length]).toEqual([
      1, 1, 0, 1,
    ]);
    const empty = await admin('invoices', 'list', '--from', '2026-06-01', '--to', '2026-06-30', '--json');
    expect(JSON.parse(empty.stdout)).toMatchObject({ b2b: [], b2c: [], exports: [], creditNotes: [] });
  });

  it('refuses a malformed or reversed period before opening the database', SLOW, async () => {
    const bad = await admin('invoices', 'export', '--from', '2026-02-30', '--to', '2026-03-31', '--csv');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--from "2026-02-30": No such date.');
    const reversed = await admin('invoices', 'list', '--from', '2026-05-31', '--to', '2026-05-01');
    expect(reversed.code).toBe(1);
    expect(reversed.stderr).toContain('--to "2026-05-01": The last day is before the first.');
    const missing = await admin('invoices', 'list', '--to', '2026-05-01');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--from: Give the first date.');
  });
});
