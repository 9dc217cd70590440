import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';

/** "26 Nov", the day in India. */
const dayLabel = (seconds: number) =>
  new Date(seconds * 1000).toLocaleDateString('en-IN', {
    day: 'numeric',
    month: 'short',
    timeZone: 'Asia/Kolkata',
  });

/** One line of the chart (uPlot's series) and its figure for each day, in the order of the chart's days. */
export type DayLine = { series: uPlot.Series; figures: number[] };

/**
 * Figures per day (`YYYY-MM-DD`, India time) as lines, drawn by uPlot once the browser has it: the library needs a
 * DOM, so it is loaded in an effect, and the drawing is hidden from screen readers, which read the caller's table.
 * The caller gives its lines, their scales and their axes; the days' axis and scale are the same for every chart.
 */
export function DayChart({
  days,
  lines,
  height,
  scales,
  axes,
  className,
}: {
  days: string[];
  lines: DayLine[];
  height: number;
  scales: uPlot.Scales;
  axes: uPlot.Axis[];
  className: string;
}) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let disposed = false;
    let cleanup = () => {};
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      if (disposed) return;
      const x = days.map((day) => Date.parse(`${day}T00:00:00+05:30`) / 1000);
      const chart = new UPlot(
        {
          width: element.clientWidth,
          height,
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Asia/Kolkata'),
          scales: { x: { time: true }, ...scales },
          series: [
            { label: 'Day', value: (_u, ts) => (ts == null ? '–' : dayLabel(ts)) },
            ...lines.map((line) => line.series),
          ],
          axes: [{ stroke: '#334155', values: (_u, ticks) => ticks.map(dayLabel) }, ...axes],
        },
        [x, ...lines.map((line) => line.figures)],
        element,
      );
      const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height }));
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
  }, [days, lines, height, scales, axes]);

  return <div ref={container} aria-hidden="true" className={`${className} w-full overflow-hidden`} />;
}
