import { useEffect, useRef } from 'react';
import type { AdoptionDay } from '../../../../shared/releases';

const HEIGHT = 220;
const WHOLE_STEPS = [1, 10, 100, 1000, 10_000].flatMap((scale) => [1, 2, 5].map((step) => step * scale));

/** "26 Nov", the day in India. */
const dayLabel = (seconds: number) =>
  new Date(seconds * 1000).toLocaleDateString('en-IN', {
    day: 'numeric',
    month: 'short',
    timeZone: 'Asia/Kolkata',
  });

/** Offered, downloaded, running: the brand's blue, the accent's orange and a green, each 4.5:1 or more on white. */
const SERIES = [
  { key: 'offered', label: 'Offered', colour: '#204265' },
  { key: 'downloaded', label: 'Downloaded', colour: '#b84a25' },
  { key: 'running', label: 'Running', colour: '#166534' },
] as const;

/**
 * A release's machines per day (offered it, downloaded it, run it, each counted up to the end of the day), drawn by
 * uPlot once the browser has it, as the sales chart is. The same figures are in a table for screen readers.
 */
export function AdoptionChart({ version, days }: { version: string; days: AdoptionDay[] }) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let disposed = false;
    let cleanup = () => {};
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      if (disposed) return;
      const x = days.map((entry) => Date.parse(`${entry.day}T00:00:00+05:30`) / 1000);
      const chart = new UPlot(
        {
          width: element.clientWidth,
          height: HEIGHT,
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Asia/Kolkata'),
          scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(5, max) * 1.1] } },
          series: [
            { label: 'Day', value: (_u, ts) => (ts == null ? '–' : dayLabel(ts)) },
            ...SERIES.map(({ label, colour }) => ({
              label,
              stroke: colour,
              width: 2,
              points: { show: false },
            })),
          ],
          axes: [
            { stroke: '#334155', values: (_u, ticks) => ticks.map(dayLabel) },
            {
              stroke: '#334155',
              // Machines are whole: ticks 1, 2, 5, 10, 20, 50… apart only.
              incrs: WHOLE_STEPS,
              values: (_u, ticks) => ticks.map((tick) => tick.toLocaleString('en-IN')),
            },
          ],
        },
        [x, ...SERIES.map(({ key }) => days.map((entry) => entry[key]))],
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
  }, [days]);

  const changed = days.filter(
    (entry, index) =>
      index === 0 || SERIES.some(({ key }) => entry[key] !== (days[index - 1] as AdoptionDay)[key]),
  );
  return (
    <figure>
      <div ref={container} aria-hidden="true" className="min-h-[260px] w-full overflow-hidden" />
      <figcaption className="sr-only">
        Machines offered {version}, that downloaded it and that run it, per day over the last 30 days.
      </figcaption>
      <table className="sr-only" data-testid="adoption-days">
        <caption>Days on which the figures of {version} changed</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {SERIES.map(({ key, label }) => (
              <th key={key} scope="col">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {changed.map((entry) => (
            <tr key={entry.day}>
              <td>{entry.day}</td>
              {SERIES.map(({ key }) => (
                <td key={key}>{entry[key]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
