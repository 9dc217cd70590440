import { describe, expect, it } from 'vitest';
import { purchasedLabel } from './PurchasedToolCard';

describe('purchase date on My Tools', () => {
  it('formats the date the Indian way, in the viewer’s own calendar day', () => {
    const localNoon = new Date(2026, 10, 22, 12, 0, 0);
    expect(purchasedLabel(localNoon.toISOString())).toBe('Purchased: 22 Nov 2026');
  });

  it('says N/A when the date is missing or unreadable', () => {
    expect(purchasedLabel(null)).toBe('Purchased: N/A');
    expect(purchasedLabel('not a date')).toBe('Purchased: N/A');
  });
});
