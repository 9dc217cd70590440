import { describe, expect, it } from 'vitest';
import type { Tool } from '../../../shared/shop';
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
};

describe('tool card words (docs/product.md §2, §4)', () => {
  it('puts the device in brackets after the name, and nothing for a tool without one', () => {
    expect(toolTitle(tool)).toBe('PDF Utility Toolkit (Windows)');
    expect(toolTitle({ ...tool, device: null })).toBe('PDF Utility Toolkit');
  });
});
