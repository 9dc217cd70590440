import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANNOUNCER_ID, announce, announcePage } from './announce';

const region = () => document.getElementById(ANNOUNCER_ID)?.textContent;

beforeEach(() => {
  vi.useFakeTimers();
  document.body.innerHTML = `<div id="${ANNOUNCER_ID}"></div>`;
});
afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('the live region', () => {
  it('says a confirmation made before the page changes, then the next page’s title after it', () => {
    announce('Your account is deleted.', { beforeNextPage: true });
    announcePage('Home — Pinkcity Advisors');
    vi.advanceTimersByTime(200);
    expect(region()).toBe('Your account is deleted. Home — Pinkcity Advisors');
    // Said once: the page after that one is announced alone.
    announcePage('Utility Tools — Pinkcity Advisors');
    vi.advanceTimersByTime(200);
    expect(region()).toBe('Utility Tools — Pinkcity Advisors');
  });

  it('does not bring a confirmation back with a page opened long after it (no page change followed it)', () => {
    announce('Payment successful!', { beforeNextPage: true });
    vi.advanceTimersByTime(60_000);
    announcePage('Account — Pinkcity Advisors');
    vi.advanceTimersByTime(200);
    expect(region()).toBe('Account — Pinkcity Advisors');
  });

  it('lets a page’s title replace an ordinary message, and a later message drop the carried one', () => {
    announce('License key copied');
    announcePage('My Tools — Pinkcity Advisors');
    vi.advanceTimersByTime(200);
    expect(region()).toBe('My Tools — Pinkcity Advisors');
    announce('Payment successful!', { beforeNextPage: true });
    announce('Coupon removed.');
    announcePage('Order — Pinkcity Advisors');
    vi.advanceTimersByTime(200);
    expect(region()).toBe('Order — Pinkcity Advisors');
  });
});
