import { describe, expect, it } from 'vitest';
import type { Tool } from '../../../shared/shop';
import { getCredentialsName, withToolName } from '../../components/tools/toolTitle';
import { buyLabel, buyName, tryFreeWords } from './ToolCard';

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
  it("labels the buy button '{device} - price', or 'Purchase - price' without a device", () => {
    expect(buyLabel(tool, 'INR')).toBe('Windows - ₹1,499.00');
    expect(buyLabel(tool, 'USD')).toBe('Windows - $19.99');
    expect(buyLabel({ ...tool, device: null, priceINR: 249900, price: 249900 }, 'INR')).toBe(
      'Purchase - ₹2,49,900.00',
    );
  });

  it('prices a tool with editions at its lowest edition, the one the checkout starts with', () => {
    const editions = [
      { id: 'a', name: 'Standard', priceInr: 999, priceUsd: 12, entitlements: [], deviceLimit: 2 },
      { id: 'b', name: 'Pro', priceInr: 2999, priceUsd: 39, entitlements: ['ocr'], deviceLimit: 2 },
    ];
    expect(buyLabel({ ...tool, editions }, 'INR')).toBe('Windows - ₹999.00');
    expect(buyLabel({ ...tool, editions }, 'USD')).toBe('Windows - $12.00');
  });

  it('shows the INR price at the fallback rate when a tool has no USD price', () => {
    expect(buyLabel({ ...tool, device: 'macOS', priceUSD: null }, 'USD')).toBe('macOS - $19.99');
  });
});

describe('Get Credentials', () => {
  it('is named with its tool, so each card’s button is told apart', () => {
    expect(getCredentialsName(tool)).toBe('Get Credentials for PDF Utility Toolkit (Windows)');
    expect(getCredentialsName({ ...tool, device: null })).toBe('Get Credentials for PDF Utility Toolkit');
  });
});

describe('the cards’ repeated buttons', () => {
  it('are named by their visible words, then the tool', () => {
    expect(buyName(tool, 'INR')).toBe('Windows - ₹1,499.00: buy PDF Utility Toolkit (Windows)');
    expect(buyName({ ...tool, device: null }, 'USD')).toBe('Purchase - $19.99: buy PDF Utility Toolkit');
    expect(withToolName(tryFreeWords({ ...tool, trialDays: 14 }), tool)).toBe(
      'Try free for 14 days: PDF Utility Toolkit (Windows)',
    );
  });
});
