import { and, count, eq, gt, gte, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { MoneyTotals, OverviewResponse, PeriodFigures } from '../../shared/dashboard';
import { checkoutStarts } from '../db/schema/checkout';
import { contactMessages } from '../db/schema/contact';
import { outbox } from '../db/schema/mail';
import { orders, refundRequests } from '../db/schema/orders';
import type { AppContext } from '../kernel/context';
import { istDay, istMidnight, lastIstDays } from '../kernel/operator-time';
import { trialFigures } from '../trials/operator';

const CHART_DAYS = 30;

/** Revenue and order counts of paid orders (refunded ones no longer count), the daily chart and open items. */
export async function overview(ctx: AppContext): Promise<OverviewResponse> {
  const now = ctx.clock.now().getTime();
  const today = istDay(now);
  const days = lastIstDays(now, CHART_DAYS);
  const since = new Date(istMidnight(days[0] ?? today));
  const dayOfPayment = sql<string>`to_char(${orders.paidAt} at time zone 'Asia/Kolkata', 'YYYY-MM-DD')`;

  const [sales, [messages], [failed], [retrying], discounted, trials, recovered, [refundAsks]] =
    await Promise.all([
      ctx.db
        .select({
          day: dayOfPayment,
          currency: orders.currency,
          orders: count(),
          amount: sql<string>`sum(${orders.amount})`,
        })
        .from(orders)
        .where(and(eq(orders.status, 'paid'), gte(orders.paidAt, since)))
        .groupBy(dayOfPayment, orders.currency),
      ctx.db.select({ n: count() }).from(contactMessages).where(isNull(contactMessages.handledAt)),
      ctx.db.select({ n: count() }).from(outbox).where(eq(outbox.status, 'failed')),
      ctx.db
        .select({ n: count() })
        .from(outbox)
        .where(and(eq(outbox.status, 'pending'), gt(outbox.attempts, 0))),
      ctx.db
        .select({
          currency: orders.currency,
          orders: count(),
          discount: sql<string>`sum(${orders.discount})`,
        })
        .from(orders)
        .where(and(eq(orders.status, 'paid'), gte(orders.paidAt, since), isNotNull(orders.couponCode)))
        .groupBy(orders.currency),
      trialFigures(ctx.db, new Date(now)),
      // Checkout recovery: paid orders of a tool whose buyer had been sent a reminder for it before paying.
      ctx.db
        .select({ currency: orders.currency, orders: count(), amount: sql<string>`sum(${orders.amount})` })
        .from(orders)
        .innerJoin(
          checkoutStarts,
          and(eq(checkoutStarts.userId, orders.userId), eq(checkoutStarts.toolId, orders.toolId)),
        )
        .where(
          and(
            eq(orders.status, 'paid'),
            gte(orders.paidAt, since),
            lte(checkoutStarts.firstReminderAt, orders.paidAt),
          ),
        )
        .groupBy(orders.currency),
      ctx.db.select({ n: count() }).from(refundRequests).where(eq(refundRequests.status, 'open')),
    ]);

  const daily = days.map((day) => ({ day, orders: 0, revenue: { INR: 0, USD: 0 } as MoneyTotals }));
  const byDay = new Map(daily.map((entry) => [entry.day, entry]));
  for (const row of sales) {
    const entry = byDay.get(row.day);
    if (!entry) continue;
    entry.orders += Number(row.orders);
    entry.revenue[row.currency] += Number(row.amount);
  }
  const period = (lastDays: number): PeriodFigures => {
    const slice = daily.slice(-lastDays);
    return {
      orders: slice.reduce((sum, entry) => sum + entry.orders, 0),
      revenue: {
        INR: slice.reduce((sum, entry) => sum + entry.revenue.INR, 0),
        USD: slice.reduce((sum, entry) => sum + entry.revenue.USD, 0),
      },
    };
  };
  return {
    periods: { today: period(1), last7Days: period(7), last30Days: period(30) },
    daily,
    openItems: {
      unhandledMessages: Number(messages?.n ?? 0),
      failedMail: Number(failed?.n ?? 0),
      retryingMail: Number(retrying?.n ?? 0),
      openRefundRequests: Number(refundAsks?.n ?? 0),
    },
    trials,
    coupons: {
      orders: discounted.reduce((sum, row) => sum + Number(row.orders), 0),
      discount: {
        INR: Number(discounted.find((row) => row.currency === 'INR')?.discount ?? 0),
        USD: Number(discounted.find((row) => row.currency === 'USD')?.discount ?? 0),
      },
    },
    recoveredCheckouts: {
      orders: recovered.reduce((sum, row) => sum + Number(row.orders), 0),
      value: {
        INR: Number(recovered.find((row) => row.currency === 'INR')?.amount ?? 0),
        USD: Number(recovered.find((row) => row.currency === 'USD')?.amount ?? 0),
      },
    },
  };
}
