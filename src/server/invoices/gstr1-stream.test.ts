import { count, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testAppForFile } from '../../../test/support/file-apps';
import { seedScale } from '../../../test/support/scale-shop';
import { invoices } from '../db/schema/invoices';
import { gstr1Csv, gstr1CsvStream, gstr1Report } from './gstr1';

/** The streamed GSTR-1 CSV is the built one, byte for byte, and leaves in many chunks (issue 35). */

const t = testAppForFile({ now: new Date('2026-11-20T10:00:00Z') });

beforeAll(async () => {
  await seedScale(t.ctx, { buyers: 1500, orders: 4000, seed: 11 }, () => {});
}, 240_000);

describe('GSTR-1 export, streamed', () => {
  it('gives the same bytes as the report built in memory, for a whole financial year and for one day', async () => {
    for (const period of [
      { from: '2025-04-01', to: '2026-03-31' },
      { from: '2025-09-10', to: '2025-09-10' },
      { from: '2020-01-01', to: '2020-01-31' },
    ]) {
      const chunks: string[] = [];
      for await (const chunk of gstr1CsvStream(t.ctx, period)) chunks.push(chunk);
      const built = gstr1Csv(await gstr1Report(t.ctx, period));
      expect(chunks.join('')).toBe(built);
      if (period.from === '2025-04-01') {
        expect(built.split('\r\n').length).toBeGreaterThan(300);
        // The year's ~1,300 invoices leave in batches, not as one string at the end.
        expect(chunks.length).toBeGreaterThan(4);
        for (const section of ['b2b,', 'b2c,', 'exp,', 'cdn,']) expect(built).toContain(`\r\n${section}`);
      }
    }
    // The seeded shop prices some orders with a coupon, so discounted documents are among those compared.
    const discounted = await t.ctx.db
      .select({ n: count() })
      .from(invoices)
      .where(sql`${invoices.document}->>'discount' is not null`);
    expect(discounted[0]?.n).toBeGreaterThan(50);
  });

  it('lets the event loop turn between batches: other requests are answered while a year is read', async () => {
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const seen: number[] = [];
    try {
      for await (const _ of gstr1CsvStream(t.ctx, { from: '2025-04-01', to: '2026-03-31' })) seen.push(turns);
    } finally {
      clearInterval(ticker);
    }
    // Timers ran between the first chunk and the last, not only after the export ended.
    expect((seen.at(-1) ?? 0) - (seen[0] ?? 0)).toBeGreaterThan(1);
  });
});
