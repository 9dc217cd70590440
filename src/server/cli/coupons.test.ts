import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminOn, argv } from '../../../test/support/command-line';
import { verifiedOperator } from '../../../test/support/dashboard-helpers';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { addTool, buyThroughEmulator, createOrder, newBuyer } from '../../../test/support/shop-fixtures';
import type { CouponDetail, CouponSummary } from '../../shared/coupons';
import { coupons } from '../db/schema/coupons';
import { auditLog } from '../db/schema/operator';

/** `npm run admin -- coupons …` through the command line's dispatcher, in this process, on the test's database. */

const t = shopTestAppForFile();
let toolId: string;

beforeAll(async () => {
  toolId = (await addTool(t, { name: 'Invoice Printer', priceInrPaise: 1000_00 })).id;
});

const admin = adminOn(() => t);

describe('npm run admin -- coupons', () => {
  it('adds a coupon (audited), lists it, shows its uses and revenue, and disables it', async () => {
    const added = await admin(
      ...argv`coupons add spring-25 --percent 25 --tools ${toolId.slice(0, 8)} --ends 2099-03-31 --max-uses 10`,
    );
    expect(added.stderr).toBe('');
    expect(added.stdout).toBe('Coupon SPRING-25 created: 25 % off.\n');
    const [row] = await t.ctx.db.select().from(coupons).where(eq(coupons.code, 'SPRING-25'));
    expect(row).toMatchObject({
      percent: 25,
      toolIds: [toolId],
      maxUses: 10,
      reusable: false,
      createdBy: 'cli:tester',
    });
    const [audit] = await t.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'coupon.create'), eq(auditLog.target, 'coupon:SPRING-25')));
    expect(audit?.actor).toBe('cli:tester');

    const { client } = await newBuyer(t);
    await buyThroughEmulator(t, client, toolId, { couponCode: 'Spring-25' });

    const listed = JSON.parse((await admin('coupons', 'list', '--json')).stdout) as CouponSummary[];
    expect(listed.find((coupon) => coupon.code === 'SPRING-25')).toMatchObject({
      used: 1,
      reserved: 0,
      state: 'active',
    });
    const table = await admin('coupons', 'list');
    expect(table.stdout).toMatch(/SPRING-25\s+25 % off/);

    const shown = await admin('coupons', 'show', 'spring-25');
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toContain('1 paid order: ₹750.00 received, ₹250.00 discounted');
    const detail = JSON.parse((await admin('coupons', 'show', 'SPRING-25', '--json')).stdout) as CouponDetail;
    expect(detail.uses).toMatchObject([
      { state: 'used', listPrice: 1000_00, discount: 250_00, paid: 750_00 },
    ]);

    const disabled = await admin('coupons', 'disable', 'SPRING-25');
    expect(disabled.stdout).toBe('Coupon SPRING-25 is disabled.\n');
    const again = await admin('coupons', 'disable', 'SPRING-25');
    expect([again.exitCode, again.stderr]).toEqual([1, 'admin: The coupon SPRING-25 is already disabled.\n']);
    const other = await newBuyer(t);
    const refused = await createOrder(other.client, toolId, 'INR', { couponCode: 'SPRING-25' });
    expect(refused.json<{ message: string }>().message).toBe('This code is not valid.');
  });

  it('adds fixed INR and USD amounts, and refuses what it cannot make (exit 1, nothing written)', async () => {
    const fixed = await admin(...argv`coupons add FLAT-100 --amount-inr 100 --amount-usd 1.50 --reusable`);
    expect(fixed.stdout).toBe('Coupon FLAT-100 created: ₹100.00 off ($1.50 in USD).\n');
    const cases: Array<[string[], string]> = [
      [['coupons', 'add', 'FLAT-100', '--percent', '5'], 'admin: A coupon with the code FLAT-100 exists.\n'],
      [
        ['coupons', 'add', 'BOTH', '--percent', '5', '--amount-inr', '10'],
        'admin: --percent "5": A percentage or an amount, not both\n',
      ],
      [['coupons', 'add', 'NONE'], 'admin: percent: Give a percentage or an amount\n'],
      [['coupons', 'add', 'TOO-MUCH', '--percent', '101'], 'admin: --percent "101": Between 1 and 100\n'],
      [
        ['coupons', 'add', 'BAD_CODE', '--percent', '5'],
        'admin: <code> "BAD_CODE": Letters, digits and - only\n',
      ],
      [['coupons', 'add', 'HALF', '--percent', '12.5'], 'admin: --percent "12.5": a whole number.\n'],
      [['coupons', 'show', 'NOPE'], 'admin: No coupon with the code NOPE.\n'],
    ];
    for (const [args, stderr] of cases) {
      const run = await admin(...args);
      expect([run.exitCode, run.stderr], args.join(' ')).toEqual([1, stderr]);
    }
    expect(await t.ctx.db.select({ code: coupons.code }).from(coupons)).toHaveLength(2);
  });

  it('refuses dates the calendar does not have, naming the field, in the command line and the dashboard', async () => {
    for (const [option, value] of [
      ['--ends', '2026-02-30'],
      ['--starts', '2026-13-45'],
      ['--ends', '2026-04-31T10:00'],
      ['--starts', '2026-05-01T25:61'],
    ] as const) {
      const refused = await admin('coupons', 'add', 'NO-SUCH-DAY', '--percent', '10', option, value);
      expect(refused.exitCode, value).toBe(1);
      expect(refused.stderr, value).toContain(`${option} "${value}": No such date`);
      expect(refused.stderr).not.toContain('Invalid time value');
    }
    const operator = await verifiedOperator(t);
    const dashboard = await operator.client.post('/api/admin/coupons', {
      code: 'NO-SUCH-DAY',
      percent: 10,
      endsAt: '2026-02-30',
    });
    expect(dashboard.statusCode).toBe(400);
    expect(dashboard.json().fieldErrors).toEqual({ endsAt: expect.stringContaining('No such date') });
    expect(await t.ctx.db.select().from(coupons).where(eq(coupons.code, 'NO-SUCH-DAY'))).toEqual([]);
  });
});
