import { describe, expect, it } from 'vitest';
import { sessionTimes } from './format';

describe('a session’s times', () => {
  it('are India time, said so, wherever the page is read', () => {
    // 23:47 UTC is 5:17 am the next day in India, whatever the test machine's own zone.
    expect(
      sessionTimes({ signedInAt: '2026-12-06T23:47:00.000Z', lastUsedAt: '2026-12-07T04:30:00.000Z' }),
    ).toBe('Signed in 7 Dec 2026, 5:17 am · Last used 7 Dec 2026, 10:00 am (India time)');
  });
});
