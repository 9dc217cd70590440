import { useEffect, useRef } from 'react';
import type { OverviewResponse } from '../../../shared/dashboard';
import { formatSubunits } from '../../../shared/money';

type Daily = OverviewResponse['daily'];

const HEIGHT = 240;

/** "26 Nov", the day in India. */
const dayLabel = (seconds: number) =>
  new Date(seconds * 1000).toLocaleDateString('en-IN', {
    day: 'numeric',
    month: 'short',
    timeZone: 'Asia/Kolkata',
  });
const INR_COLOUR = '#204265';
const USD_COLOUR = '#b84a25';

/**
 * Daily revenue as two lines (INR on the left axis, USD on the right), drawn by uPlot once the browser has it: the
 * library needs a DOM, so it is loaded in an effect. A table with the same figures is there for screen readers.
 */
export function SalesChart({ daily }: { daily: Daily }) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let disposed = false;
    let cleanup = () => {};
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      if (disposed) return;
      const x = daily.map((entry) => Date.parse(`${entry.day}T00:00:00+05:30`) / 1000);
      const inr = daily.map((entry) => entry.revenue.INR / 100);
      const usd = daily.map((entry) => entry.revenue.USD / 100);
      const chart = new UPlot(
        {
          width: element.clientWidth,
          height: HEIGHT,
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Asia/Kolkata'),
          scales: {
            x: { time: true },
            inr: { range: (_u, _min, max) => [0, Math.max(100, max) * 1.1] },
            usd: { range: (_u, _min, max) => [0, Math.max(10, max) * 1.1] },
          },
          series: [
            {
              label: 'Day',
              value: (_u, ts) => (ts == null ? '–' : dayLabel(ts)),
            },
            {
              label: 'INR',
              scale: 'inr',
              stroke: INR_COLOUR,
              width: 2,
              points: { show: true },
              value: (_u, v) => (v == null ? '–' : formatSubunits(Math.round(v * 100), 'INR')),
            },
            {
              label: 'USD',
              scale: 'usd',
              stroke: USD_COLOUR,
              width: 2,
              points: { show: true },
              value: (_u, v) => (v == null ? '–' : formatSubunits(Math.round(v * 100), 'USD')),
            },
          ],
          axes: [
            { stroke: '#334155', values: (_u, ticks) => ticks.map(dayLabel) },
            {
              scale: 'inr',
              stroke: INR_COLOUR,
              values: (_u, ticks) => ticks.map((tick) => `₹${tick.toLocaleString('en-IN')}`),
            },
            {
              scale: 'usd',
              side: 1,
              stroke: USD_COLOUR,
              grid: { show: false },
              values: (_u, ticks) => ticks.map((tick) => `$${tick}`),
            },
          ],
        },
        [x, inr, usd],
        element,
      );
      const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: HEIGHT }));
      resize.observe(element);
      cleanup = () => {
        resize.disconnect();
        chart.destroy();
      };
    });
    return () => {
      disposed = true;
      cleanup();
    };
  }, [daily]);

  const withSales = daily.filter((entry) => entry.orders > 0);
  return (
    <figure>
      <div ref={container} aria-hidden="true" className="min-h-[280px] w-full overflow-hidden" />
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
