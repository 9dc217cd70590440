import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Longer than this, an animation is a progress bar or a spinner, part of the steady screen; shorter, a transition. */
const TRANSITION_MS = 1000;

/**
 * Waits for the transitions on screen to end: axe reads colours as they are in that instant, and a toast fading in
 * (two of them at once when their code arrives after them) has its text lighter than it will be.
 */
async function transitionsDone(page: Page): Promise<void> {
  await page.waitForFunction(
    (longest) =>
      document.getAnimations().every((animation) => {
        const { activeDuration } = animation.effect?.getComputedTiming() ?? {};
        return animation.playState !== 'running' || Number(activeDuration) > longest;
      }),
    TRANSITION_MS,
  );
}

/**
 * The screen as a phone and a desktop see it: no axe violation at 390 and at 1440 px (optionally no horizontal
 * scroll either), and a screenshot of each, `<file>-<width>.png`, when SHOTS_DIR is set.
 *
 * A journey that runs once at each width passes `at`, its own width: the screen is checked at that width only, where
 * the page already is, and the journey at the other width checks it there. Each screen is then scanned once per
 * width, not twice (issue 69), and the page is never resized under the journey.
 */
export async function checkScreen(
  page: Page,
  file: string,
  options: { fullPage?: boolean; noHorizontalScroll?: boolean; at?: number } = {},
): Promise<void> {
  if (options.at !== undefined)
    expect(page.viewportSize()?.width, `${file}: the journey's own width`).toBe(options.at);
  for (const width of options.at === undefined ? [390, 1440] : [options.at]) {
    if (options.at === undefined) await page.setViewportSize({ width, height: width < 768 ? 844 : 900 });
    await transitionsDone(page);
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
