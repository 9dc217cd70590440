import { describe, expect, it } from 'vitest';
import type { Tool } from '../../../shared/shop';
import { billingTitle } from './BillingModal';
import { purchasedLabel } from './PurchasedToolCard';
import { matchesSearch } from './SearchBox';
import { buyLabel } from './ToolCard';
import { toolTitle } from './toolTitle';

const tool: Tool = {
  _id: '0b6a4c9e-3f5d-4c1a-9a53-2f8f9d3c7e11',
  name: 'PDF Utility Toolkit',
  description: 'Merge, split and compress PDFs offline.',
  device: 'Windows',
  price: 1499,
  priceINR: 1499,
  priceUSD: 19.99,
  comingSoon: false,
  purchased: false,
  icon: null,
  trialDays: 0,
  editions: [],
};

describe('tool card words (docs/product.md §2, §4)', () => {
  it('puts the device in brackets after the name, and nothing for a tool without one', () => {
    expect(toolTitle(tool)).toBe('PDF Utility Toolkit (Windows)');
    expect(toolTitle({ ...tool, device: null })).toBe('PDF Utility Toolkit');
  });

  it("labels the buy button '{device} - price', or 'Purchase - price' without a device", () => {
    expect(buyLabel(tool, 'INR')).toBe('Windows - ₹1,499.00');
    expect(buyLabel(tool, 'USD')).toBe('Windows - $19.99');
    expect(buyLabel({ ...tool, device: null, priceINR: 249900, price: 249900 }, 'INR')).toBe(
      'Purchase - ₹2,49,900.00',
    );
  });

  it('shows the INR price at the fallback rate when a tool has no USD price', () => {
    expect(buyLabel({ ...tool, device: 'macOS', priceUSD: null }, 'USD')).toBe('macOS - $19.99');
  });
});

describe('billing modal title', () => {
  it('marks every non-INR order as international', () => {
    expect(billingTitle('INR')).toBe('Billing Information');
    expect(billingTitle('USD')).toBe('Billing Information (International Order)');
  });
});

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

describe('search', () => {
  it('matches every word, in any field, ignoring case', () => {
    expect(matchesSearch('pdf MACOS', 'PDF Utility Toolkit', 'Merge files', 'macOS')).toBe(true);
    expect(matchesSearch('pdf linux', 'PDF Utility Toolkit', 'Merge files', 'macOS')).toBe(false);
    expect(matchesSearch('  ', 'anything')).toBe(true);
    expect(matchesSearch('merge', 'PDF Utility Toolkit', null, undefined, 'Merge files')).toBe(true);
  });
});
