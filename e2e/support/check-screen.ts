import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * The screen as a phone and a desktop see it: no axe violation at 390 and at 1440 px (optionally no horizontal
 * scroll either), and a screenshot of each, `<file>-<width>.png`, when SHOTS_DIR is set.
 */
export async function checkScreen(
  page: Page,
  file: string,
  options: { fullPage?: boolean; noHorizontalScroll?: boolean } = {},
): Promise<void> {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: width < 768 ? 844 : 900 });
    const results = await new AxeBuilder({ page }).analyze();
    expect(
      results.violations.map(
        (v) => `${v.id} at ${width}px: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
    ).toEqual([]);
    if (options.noHorizontalScroll) {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `horizontal scroll at ${width}px`).toBeLessThanOrEqual(0);
    }
    if (process.env.SHOTS_DIR) {
      mkdirSync(process.env.SHOTS_DIR, { recursive: true });
      await page.screenshot({
        path: path.join(process.env.SHOTS_DIR, `${file}-${width}.png`),
        fullPage: options.fullPage ?? true,
      });
    }
  }
}
