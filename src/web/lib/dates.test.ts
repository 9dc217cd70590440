import { describe, expect, it } from 'vitest';
import { formatDate } from './dates';

describe('formatDate', () => {
  it('writes a day the Indian way, in the reader’s own calendar', () => {
    expect(formatDate(new Date(2026, 10, 22, 9, 30))).toBe('22 Nov 2026');
    expect(formatDate(new Date(2026, 8, 5, 16, 7))).toBe('5 Sept 2026');
    expect(formatDate(new Date(2026, 8, 5, 16, 7).toISOString())).toBe('5 Sept 2026');
  });

  it('writes the time with am and pm, midnight and noon as 12', () => {
    expect(formatDate(new Date(2026, 0, 5, 0, 7), 'dayAndTime')).toBe('5 Jan 2026, 12:07 am');
    expect(formatDate(new Date(2026, 0, 5, 12, 30), 'dayAndTime')).toBe('5 Jan 2026, 12:30 pm');
    expect(formatDate(new Date(2026, 11, 31, 23, 59), 'dayAndTime')).toBe('31 Dec 2026, 11:59 pm');
  });

  it('writes an order’s time in India, wherever it is read', () => {
    // 18:40 UTC is 00:10 the next day in India (UTC+5:30).
    expect(formatDate('2026-11-22T18:40:00Z', 'dayAndTimeInIndia')).toBe('23 Nov 2026, 12:10 am');
    expect(formatDate('2026-12-31T20:00:00.000Z', 'dayAndTimeInIndia')).toBe('1 Jan 2027, 1:30 am');
  });

  it('writes what Intl.DateTimeFormat writes for en-IN, every month and hour', () => {
    const day = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric' });
    const time = {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    } as const;
    const dayAndTime = new Intl.DateTimeFormat('en-IN', time);
    const inIndia = new Intl.DateTimeFormat('en-IN', { ...time, timeZone: 'Asia/Kolkata' });
    for (let month = 0; month < 12; month++) {
      for (let hour = 0; hour < 24; hour++) {
        const date = new Date(2026, month, 1 + hour, hour, (hour * 7) % 60);
        expect(formatDate(date)).toBe(day.format(date));
        expect(formatDate(date, 'dayAndTime')).toBe(dayAndTime.format(date));
        expect(formatDate(date, 'dayAndTimeInIndia')).toBe(inIndia.format(date));
      }
    }
  });

  it('refuses a date it cannot read, as Intl does', () => {
    expect(() => formatDate('not a date')).toThrow(RangeError);
  });
});
