import { describe, expect, it } from 'vitest';
import type { ToolEditionView } from '../../../shared/editions';
import { editionFeatures, editionPrice } from './editions';

const pro: ToolEditionView = {
  id: '6f1c1a52-6a55-4f0e-9d83-0c3c2a1b9e10',
  name: 'Pro',
  priceInr: 2999,
  priceUsd: 39,
  entitlements: ['ocr', 'batch'],
  deviceLimit: 3,
};

describe('an edition as the shop shows it', () => {
  it('costs its own price in each currency, and the INR price / 75 without a USD one', () => {
    expect(editionPrice(pro, 'INR')).toBe(2999);
    expect(editionPrice(pro, 'USD')).toBe(39);
    expect(editionPrice({ ...pro, priceUsd: null }, 'USD')).toBe(39.99);
  });

  it('says how many devices it runs on and what it unlocks', () => {
    expect(editionFeatures(pro)).toBe('Up to 3 devices · ocr, batch');
    expect(editionFeatures({ ...pro, entitlements: [], deviceLimit: 1 })).toBe('Up to 1 device');
  });
});
