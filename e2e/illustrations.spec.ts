import type { Page } from '@playwright/test';
import { expect, type Shop, test } from './fixtures';

/** The home and team pictures are cached SVG files (docs/decisions/019-illustrations-as-files.md). */

test.use({ shopOptions: { name: 'illustrations' } });

let shop: Shop;
test.beforeAll(({ shop: started }) => {
  shop = started;
});

const artOf = (page: Page) =>
  page.locator('main img[src$=".svg"]').evaluateAll((images) => images.map((img) => img.getAttribute('src')));

test('the pictures are hashed files sent as SVG images with a year of caching', async ({ page, request }) => {
  await page.goto(`${shop.url}/`);
  const home = await artOf(page);
  await page.goto(`${shop.url}/OurTeam`);
  const team = await artOf(page);
  expect(home).toHaveLength(13);
  expect(team).toHaveLength(3);
  for (const src of [...home, ...team]) {
    expect(src).toMatch(/^\/assets\/[\w-]+-[\w-]{8}\.svg$/);
    const response = await request.get(`${shop.url}${src}`, { headers: { 'accept-encoding': 'br' } });
    expect(response.status(), src ?? '').toBe(200);
    expect(response.headers()['content-type']).toBe('image/svg+xml');
    expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers()['x-content-type-options']).toBe('nosniff');
    expect(await response.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  }
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the hero picture loads with the page, those far below only as the visitor scrolls to them', async ({
    page,
  }) => {
    const requested: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('.svg')) requested.push(new URL(request.url()).pathname);
    });
    await page.goto(`${shop.url}/`, { waitUntil: 'networkidle' });
    const [hero, ...below] = await artOf(page);
    const toolsShop = below.at(-1);
    expect(requested).toContain(hero);
    expect(requested).not.toContain(toolsShop);

    await page.locator('img[src$=".svg"]').last().scrollIntoViewIfNeeded();
    await expect.poll(() => requested).toContain(toolsShop);
    // Every picture on the way down has loaded and decoded, and sits in the box the page gave it.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForLoadState('networkidle');
    const images = page.locator('main img[src$=".svg"]');
    for (let i = 0; i < 13; i++) {
      const image = images.nth(i);
      await image.scrollIntoViewIfNeeded();
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);
    }
  });
});
