import { useEffect, useState } from 'react';

/** "m:ss", as the resend countdown shows it (docs/product.md §4). */
export const formatCountdown = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * Whole seconds left until a moment, updated four times a second. It follows the clock, not the number of ticks,
 * so a throttled background tab still shows the truth. `start(seconds)` begins a new countdown.
 */
export function useCountdown() {
  const [endsAt, setEndsAt] = useState(0);
  const [secondsLeft, setSecondsLeft] = useState(0);

  useEffect(() => {
    if (!endsAt) return;
    const tick = () => setSecondsLeft(Math.max(0, Math.ceil((endsAt - Date.now()) / 1000)));
    tick();
    const timer = window.setInterval(tick, 250);
    return () => window.clearInterval(timer);
  }, [endsAt]);

  const start = (seconds: number) => {
    setEndsAt(Date.now() + seconds * 1000);
    setSecondsLeft(seconds);
  };

  return { secondsLeft, start };
}
