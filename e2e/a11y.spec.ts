import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { PAGE_ROUTES } from '../src/web/routes';
import { type RunningServer, startServer } from './support/server';

/**
 * Every public route (docs/product.md §2) plus an address the site does not have, at phone and desktop
 * widths.
 */
const PATHS = [...PAGE_ROUTES.map((route) => route.path), '/no-such-page'];
const WIDTHS = [390, 1440];

let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer();
});
test.afterAll(async () => {
  await server.stop();
});

for (const path of PATHS) {
  for (const width of WIDTHS) {
    test(`${path} at ${width}px has no axe violations and no console errors`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: { width, height: width < 768 ? 844 : 900 } });
      try {
        const page = await context.newPage();
        const consoleErrors: string[] = [];
        page.on('console', (message) => {
          if (message.type() !== 'error') return;
          // The unknown address is answered with the 404 page and status 404, which Chromium logs as an error.
          const isDocument404 = path === '/no-such-page' && message.location().url === `${server.url}${path}`;
          if (!isDocument404) consoleErrors.push(`${message.text()} (${message.location().url})`);
        });
        page.on('pageerror', (error) => consoleErrors.push(error.message));

        const response = await page.goto(`${server.url}${path}`);
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
        expect(consoleErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
}
