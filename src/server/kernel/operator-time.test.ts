import { describe, expect, it } from 'vitest';
import { formatOperatorTime } from './operator-time';

/** Issue 63: the command line shows times as the dashboard does, in India time, whatever the machine's zone. */
describe('an operator time', () => {
  it('is India time with the zone named, on a machine in any zone', () => {
    // 10:00 UTC is 15:30 in India; the test machines run in UTC, where the old format said "10:00 +00:00".
    expect(formatOperatorTime(new Date('2026-06-01T10:00:00Z'))).toBe('2026-06-01 15:30 IST');
    // Past midnight in India while it is still the day before in UTC.
    expect(formatOperatorTime(new Date('2026-03-31T19:00:00Z'))).toBe('2026-04-01 00:30 IST');
    expect(formatOperatorTime(null)).toBe('—');
  });
});
