import { useMemo } from 'react';
import type uPlot from 'uplot';
import type { AdoptionDay } from '../../../../shared/releases';
import { DayChart } from '../DayChart';

const WHOLE_STEPS = [1, 10, 100, 1000, 10_000].flatMap((scale) => [1, 2, 5].map((step) => step * scale));
const SCALES: uPlot.Scales = { y: { range: (_u, _min, max) => [0, Math.max(5, max) * 1.1] } };
const AXES: uPlot.Axis[] = [
  {
    stroke: '#334155',
    // Machines are whole: ticks 1, 2, 5, 10, 20, 50… apart only.
    incrs: WHOLE_STEPS,
    values: (_u, ticks) => ticks.map((tick) => tick.toLocaleString('en-IN')),
  },
];

/** Offered, downloaded, running: the brand's blue, the accent's orange and a green, each 4.5:1 or more on white. */
const SERIES = [
  { key: 'offered', label: 'Offered', colour: '#204265' },
  { key: 'downloaded', label: 'Downloaded', colour: '#b84a25' },
  { key: 'running', label: 'Running', colour: '#166534' },
] as const;

/**
 * A release's machines per day (offered it, downloaded it, run it, each counted up to the end of the day), drawn as
 * the sales chart is. The same figures are in a table for screen readers.
 */
export function AdoptionChart({ version, days }: { version: string; days: AdoptionDay[] }) {
  const chart = useMemo(
    () => ({
      days: days.map((entry) => entry.day),
      lines: SERIES.map(({ key, label, colour }) => ({
        series: { label, stroke: colour, width: 2, points: { show: false } },
        figures: days.map((entry) => entry[key]),
      })),
    }),
    [days],
  );

  const changed = days.filter(
    (entry, index) =>
      index === 0 || SERIES.some(({ key }) => entry[key] !== (days[index - 1] as AdoptionDay)[key]),
  );
  return (
    <figure>
      <DayChart {...chart} height={220} scales={SCALES} axes={AXES} className="min-h-[260px]" />
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
