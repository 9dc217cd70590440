import { createElement } from 'react';
import { prerender } from 'react-dom/static';
import { describe, expect, it } from 'vitest';
import { PRODUCT_CARDS, type ProductCard, SERVICE_CARDS } from '../../content/home-sections';
import { ProductCardView } from './ProductsSection';
import { serviceSpan } from './ServicesSection';

describe('service card spans (docs/product.md §4)', () => {
  it('are 6 each while nothing is hovered', () => {
    expect([0, 1, 2, 3].map((i) => serviceSpan(i, null))).toEqual([6, 6, 6, 6]);
  });

  it('give the hovered card 8, its row neighbour 4 and the other row 6', () => {
    expect([0, 1, 2, 3].map((i) => serviceSpan(i, 0))).toEqual([8, 4, 6, 6]);
    expect([0, 1, 2, 3].map((i) => serviceSpan(i, 1))).toEqual([4, 8, 6, 6]);
    expect([0, 1, 2, 3].map((i) => serviceSpan(i, 2))).toEqual([6, 6, 8, 4]);
    expect([0, 1, 2, 3].map((i) => serviceSpan(i, 3))).toEqual([6, 6, 4, 8]);
  });

  it('always fill a 12-column row', () => {
    for (const active of [null, 0, 1, 2, 3]) {
      expect(serviceSpan(0, active) + serviceSpan(1, active)).toBe(12);
      expect(serviceSpan(2, active) + serviceSpan(3, active)).toBe(12);
    }
  });
});

describe('service cards carry the docs/product.md §3 titles and bullets', () => {
  it('in order', () => {
    expect(SERVICE_CARDS.map((card) => [card.title, card.bullets])).toEqual([
      [
        'Fund Accounting',
        [
          'SPVs and Private Equity',
          'FOFs and Family Offices',
          'Corporate Accounting',
          'GP and Managing Entity (QB)',
          'Tax Prep (1065, 1120, K1s etc)',
        ],
      ],
      [
        'Business Accounting',
        ['Accounting Outsourcing', 'Bookkeeping', 'Financial Reporting', 'Tax Compliance', 'GST Compliance'],
      ],
      [
        'Business & Financial Planning',
        [
          'Pitch Deck / Business Plan',
          'Fundraise',
          'Financial Forecasts',
          'Personal Financial Planning',
          'Outsourced CFO',
        ],
      ],
      [
        'Web Development',
        [
          'UX / UI Design',
          'E-commerce Website',
          'APP Development',
          'SEO Optimization',
          'Website development',
        ],
      ],
    ]);
  });
});

describe('product card', () => {
  // The same static renderer the build uses for prerendering.
  const render = async (product: ProductCard, expanded = false) => {
    const { prelude } = await prerender(
      createElement(ProductCardView, { product, expanded, onToggle: () => {} }),
    );
    return new Response(prelude).text();
  };
  const [dashboard, tools] = PRODUCT_CARDS as [ProductCard, ProductCard];

  it('links to the product in a new tab when it is available', async () => {
    const html = await render(tools);
    expect(html).toContain('href="/utility-tools"');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('Learn more');
    expect(html).not.toContain('Coming Soon');
    expect(await render(dashboard)).toContain(`href="${dashboard.link}"`);
  });

  it('shows a Coming Soon badge instead of the link when flagged', async () => {
    const html = await render({ ...tools, isComingSoon: true });
    expect(html).toContain('Coming Soon');
    expect(html).not.toContain('Learn more');
    expect(html).not.toContain('href=');
  });

  it('truncates the description to 20 words until expanded', async () => {
    const collapsed = await render(tools);
    const shown = /id="product-pdf-utility-tools-description"[^>]*>([^<]*)</.exec(collapsed)?.[1] ?? '';
    expect(shown.endsWith('...')).toBe(true);
    expect(shown.replace(/\.\.\.$/, '').split(/\s+/)).toHaveLength(20);
    expect(collapsed).toContain('Read more');

    const expanded = await render(tools, true);
    expect(expanded).toContain('Show less');
    expect(expanded).toContain('download again whenever you need to.');
  });

  it('has no Read more toggle when the description is already short', async () => {
    const html = await render({ ...tools, description: 'Merge and split PDF files offline.' });
    expect(html).not.toContain('Read more');
    expect(html).toContain('Merge and split PDF files offline.');
  });
});
