import { useMemo } from 'react';
import type uPlot from 'uplot';
import type { OverviewResponse } from '../../../shared/dashboard';
import { formatPrice, formatSubunits } from '../../../shared/money';
import { DayChart, type DayLine } from './DayChart';

type Daily = OverviewResponse['daily'];

const INR_COLOUR = '#204265';
const USD_COLOUR = '#b84a25';
const SCALES: uPlot.Scales = {
  inr: { range: (_u, _min, max) => [0, Math.max(100, max) * 1.1] },
  usd: { range: (_u, _min, max) => [0, Math.max(10, max) * 1.1] },
};
/** Rupees on the left, dollars on the right, each written as every amount on the dashboard is (formatPrice). */
const AXES: uPlot.Axis[] = [
  { scale: 'inr', stroke: INR_COLOUR, values: (_u, ticks) => ticks.map((tick) => formatPrice(tick, 'INR')) },
  {
    scale: 'usd',
    side: 1,
    stroke: USD_COLOUR,
    grid: { show: false },
    values: (_u, ticks) => ticks.map((tick) => formatPrice(tick, 'USD')),
  },
];

/**
 * Daily revenue as two lines (INR on the left axis, USD on the right). A table with the same figures is there for
 * screen readers.
 */
export function SalesChart({ daily }: { daily: Daily }) {
  const { days, lines } = useMemo(() => {
    const line = (currency: 'INR' | 'USD', colour: string): DayLine => ({
      series: {
        label: currency,
        scale: currency.toLowerCase(),
        stroke: colour,
        width: 2,
        points: { show: true },
        value: (_u, v) => (v == null ? '–' : formatPrice(v, currency)),
      },
      figures: daily.map((entry) => entry.revenue[currency] / 100),
    });
    return {
      days: daily.map((entry) => entry.day),
      lines: [line('INR', INR_COLOUR), line('USD', USD_COLOUR)],
    };
  }, [daily]);

  const withSales = daily.filter((entry) => entry.orders > 0);
  return (
    <figure>
      <DayChart
        days={days}
        lines={lines}
        height={240}
        scales={SCALES}
        axes={AXES}
        className="min-h-[280px]"
      />
      <figcaption className="sr-only">Daily revenue in INR and USD over the last 30 days.</figcaption>
      <table className="sr-only">
        <caption>Days with sales</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Orders</th>
            <th scope="col">INR</th>
            <th scope="col">USD</th>
          </tr>
        </thead>
        <tbody>
          {withSales.map((entry) => (
            <tr key={entry.day}>
              <td>{entry.day}</td>
              <td>{entry.orders}</td>
              <td>{formatSubunits(entry.revenue.INR, 'INR')}</td>
              <td>{formatSubunits(entry.revenue.USD, 'USD')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
