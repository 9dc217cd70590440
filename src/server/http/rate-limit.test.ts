import { describe, expect, it } from 'vitest';
import { ManualClock } from '../kernel/clock';
import { AppError } from './errors';
import { createLocalRateLimiter } from './rate-limit';

const MINUTE = 60_000;

function refusal(consume: () => void): AppError | undefined {
  try {
    consume();
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

describe('the in-memory rate limiter', () => {
  it('refuses the hit after the limit with the seconds left in the window, and opens the next window', () => {
    const clock = new ManualClock(new Date('2026-06-01T10:00:15Z'));
    const limiter = createLocalRateLimiter(clock, 100);
    const hit = () => limiter.consume({ key: 'key:A', limit: 3, windowMs: MINUTE });
    for (let i = 0; i < 3; i++) expect(refusal(hit)).toBeUndefined();
    const refused = refusal(hit);
    expect(refused?.statusCode).toBe(429);
    expect(refused?.headers?.['retry-after']).toBe('45');
    // Other keys have their own counters.
    expect(refusal(() => limiter.consume({ key: 'key:B', limit: 3, windowMs: MINUTE }))).toBeUndefined();
    clock.advance(45_000);
    expect(refusal(hit)).toBeUndefined();
  });

  it('holds at most its number of counters, pushing out the oldest but never one at its limit', () => {
    const clock = new ManualClock(new Date('2026-06-01T10:00:00Z'));
    const limiter = createLocalRateLimiter(clock, 2);
    const hit = (key: string) => refusal(() => limiter.consume({ key, limit: 2, windowMs: MINUTE }));
    expect(hit('a')).toBeUndefined();
    expect(hit('b')).toBeUndefined();
    expect(hit('a')).toBeUndefined(); // "a" has reached its limit
    expect(hit('c')).toBeUndefined(); // pushes out "b", the oldest below its limit
    expect(hit('a')?.statusCode).toBe(429);
    expect(hit('b')).toBeUndefined(); // counted afresh: its counter was gone; pushes out "c"
    expect(hit('b')).toBeUndefined();
    expect(hit('c')).toBeUndefined(); // every counter at its limit: the oldest, "a", goes after all
    expect(hit('a')).toBeUndefined();
  });
});
