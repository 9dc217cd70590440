import AxeBuilder from '@axe-core/playwright';
import { PAGE_ROUTES } from '../src/web/routes';
import { expect, type Shop, test } from './fixtures';

/**
 * Every public route (docs/product.md §2) plus an address the site does not have, at phone and desktop
 * widths.
 */
const PATHS = [...PAGE_ROUTES.map((route) => route.path), '/no-such-page'];
const WIDTHS = [390, 1440];

test.use({ shopOptions: { name: 'a11y' } });

let shop: Shop;
test.beforeAll(({ shop: started }) => {
  shop = started;
});

for (const path of PATHS) {
  for (const width of WIDTHS) {
    test.describe(`at ${width}px`, () => {
      test.use({ viewport: { width, height: width < 768 ? 844 : 900 } });

      test(`${path} at ${width}px has no axe violations and no console errors`, async ({
        page,
        consoleWatch,
      }) => {
        // The unknown address is answered with the 404 page and status 404, which Chromium logs as an error.
        if (path === '/no-such-page') consoleWatch.allow(new RegExp(`\\(${shop.url}${path}\\)$`));
        const response = await page.goto(`${shop.url}${path}`);
        expect(response?.status()).toBe(path === '/no-such-page' ? 404 : 200);
        await page.waitForLoadState('networkidle');
        await expect(page.locator('h1')).toHaveCount(1);

        const results = await new AxeBuilder({ page }).analyze();
        const summary = results.violations.map((violation) => ({
          rule: violation.id,
          impact: violation.impact,
          help: violation.help,
          targets: violation.nodes.map((node) => node.target.join(' ')),
        }));
        expect(summary).toEqual([]);
      });
    });
  }
}
