import type { Browser } from '@playwright/test';
import { expect, type Shop, test } from './fixtures';

/**
 * Each prerendered page inlines only the part of the stylesheet its own code can use (scripts/build.ts). Drawn with
 * that part alone, without scripts (as at the first paint), every page must look exactly as it does with the whole
 * stylesheet, at a phone's width and a desktop's.
 */
const PAGES = [
  '/',
  '/Contact',
  '/OurTeam',
  '/PrivacyPolicy',
  '/TermsAndConditions',
  '/refund-policy',
  '/shipping-policy',
  '/utility-tools',
  '/my-tools',
  '/utility-tools/invalid-link',
  '/no-such-page',
  '/admin',
];
const PAGE_CSS = /<style data-stylesheet="([^"]+)">[\s\S]*?<\/style>/;

test.use({ shopOptions: { name: 'page-css' } });

let shop: Shop;
test.beforeAll(({ shop: started }) => {
  shop = started;
});

async function screenshot(browser: Browser, url: string, width: number, wholeSheet: boolean) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    if (wholeSheet) {
      await page.route(url, async (route) => {
        const response = await route.fetch();
        const html = await response.text();
        expect(html).toMatch(PAGE_CSS);
        await route.fulfill({ response, body: html.replace(PAGE_CSS, '<link rel="stylesheet" href="$1">') });
      });
    }
    await page.goto(url, { waitUntil: 'load' });
    return await page.screenshot({ fullPage: true, animations: 'disabled' });
  } finally {
    await context.close();
  }
}

for (const path of PAGES) {
  test(`${path} looks the same with its own CSS as with the whole stylesheet`, async ({ browser }) => {
    const url = `${shop.url}${path}`;
    for (const width of [390, 1440]) {
      const own = await screenshot(browser, url, width, false);
      const whole = await screenshot(browser, url, width, true);
      expect(own.equals(whole), `${path} at ${width} px`).toBe(true);
    }
  });
}

test('showing another page in the browser first brings the whole stylesheet', async ({ page }) => {
  await page.goto(`${shop.url}/`, { waitUntil: 'networkidle' });
  const sheet = await page.locator('style[data-stylesheet]').getAttribute('data-stylesheet');
  const wholeSheet = page.locator(`link[rel="stylesheet"][href="${sheet}"]`);
  await expect(wholeSheet).toHaveCount(0);
  await page.evaluate(() => {
    (window as { notReloaded?: boolean }).notReloaded = true;
  });
  await page.getByRole('link', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/Contact$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Get in Touch');
  await expect(wholeSheet).toHaveCount(1);
  expect(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);
});

test('every page’s own CSS keeps the focus ring, so the first Tab on a freshly loaded page shows where it is', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    for (const path of PAGES) {
      const html = await (await page.request.get(`${shop.url}${path}`)).text();
      const inlined = PAGE_CSS.exec(html)?.[0] ?? '';
      expect(inlined, path).toMatch(/(^|[;{}])\s*:focus-visible\s*\{[^}]*outline-width:\s*2px/);

      // The dashboard's shell has nothing to focus before its script runs.
      if (path === '/admin') continue;
      await page.goto(`${shop.url}${path}`, { waitUntil: 'load' });
      await page.keyboard.press('Tab');
      const ring = await page.evaluate(() => {
        const focused = document.activeElement as HTMLElement;
        const style = getComputedStyle(focused);
        return {
          tag: focused.tagName,
          width: style.outlineWidth,
          style: style.outlineStyle,
          color: style.outlineColor,
        };
      });
      expect(ring, path).toEqual({ tag: 'A', width: '2px', style: 'solid', color: 'rgb(214, 95, 53)' });
    }
  } finally {
    await context.close();
  }
});
