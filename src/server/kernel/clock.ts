/** Time source. Production uses the system clock; tests pass one they can move forward. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | number = Date.now()) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
  /** Moves to a moment, forwards or back (a test stepping through the days of a period). */
  set(at: Date): void {
    this.current = at.getTime();
  }
}
