import type { Page } from '@playwright/test';
import { expect, type Shop, test } from './fixtures';
import { openBeforeHydration } from './support/before-hydration';
import { firstContentfulPaint } from './support/paint';

/**
 * A built page requests one small script before it paints; the application's code comes after the first paint
 * (src/web/boot.ts, decision 023), and the page still becomes interactive.
 */
test.use({ shopOptions: { name: 'first-paint' } });

let shop: Shop;
test.beforeAll(({ shop: started }) => {
  shop = started;
});

type Timings = { firstPaint: number; scripts: { name: string; startTime: number }[] };

/** When the page first painted, and when each of its scripts was requested (ms since navigation). */
async function timings(page: Page): Promise<Timings> {
  const firstPaint = await firstContentfulPaint(page);
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
      .map((entry) => ({ name: new URL(entry.name).pathname, startTime: entry.startTime })),
  );
  return { firstPaint, scripts };
}

test('the HTML names one script, the boot script, and preloads nothing', async () => {
  for (const path of ['/', '/Contact', '/utility-tools', '/my-tools']) {
    const html = await (await fetch(`${shop.url}${path}`)).text();
    const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts, path).toEqual([expect.stringMatching(/^\/assets\/boot-[\w-]+\.js$/)]);
    expect(html, path).not.toContain('modulepreload');
    const app = /<script\b[^>]*\bdata-app="([^"]+)"/.exec(html)?.[1]?.split(' ') ?? [];
    expect(app[0], path).toMatch(/^\/assets\/index-[\w-]+\.js$/);
  }
});

test('Contact paints before its code is requested, then becomes usable', async ({ page }) => {
  await page.goto(`${shop.url}/Contact`);
  const send = page.getByRole('button', { name: 'Send Message' });
  await expect(send).toBeEnabled();
  const { firstPaint, scripts } = await timings(page);
  const app = scripts.filter((script) => !script.name.startsWith('/assets/boot-'));
  expect(app.length).toBeGreaterThan(0);
  for (const script of app) expect(script.startTime, script.name).toBeGreaterThanOrEqual(firstPaint);
});

test('Utility Tools paints first, hydrates, and its on-demand code does not restyle the page', async ({
  page,
}) => {
  await page.goto(`${shop.url}/utility-tools`, { waitUntil: 'networkidle' });
  await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
  const { firstPaint, scripts } = await timings(page);
  for (const script of scripts.filter((s) => !s.name.startsWith('/assets/boot-')))
    expect(script.startTime, script.name).toBeGreaterThanOrEqual(firstPaint);
  // The checkout's code waits for a buyer to reach for it (decision 052): none of it has loaded yet.
  const checkoutCode = (names: string[]) =>
    names.filter((name) => /^\/assets\/(CheckoutDialog|BillingModal)-/.test(name));
  expect(checkoutCode(scripts.map((script) => script.name))).toEqual([]);
  // The pointer on a card's action button fetches it; the page's own CSS already styles it.
  const fetched = page.waitForResponse((response) => /\/assets\/CheckoutDialog-/.test(response.url()));
  await page.locator('[data-tool-action]').first().hover();
  await fetched;
  const sheet = await page.locator('style[data-stylesheet]').getAttribute('data-stylesheet');
  await expect(page.locator(`link[rel="stylesheet"][href="${sheet}"]`)).toHaveCount(0);
});

test('a tap before the code has arrived is not lost: the currency chosen early is the one shown', async ({
  page,
}) => {
  // The boot script runs; the application's entry is held back until the tap has happened.
  const release = await openBeforeHydration(page, `${shop.url}/utility-tools`, {
    hold: '**/assets/index-*.js',
  });
  await page.waitForLoadState('load');
  const login = page.getByRole('button', { name: 'Login' });
  await expect(login).toBeDisabled();
  // This machine's address is detected as outside India: left alone, the page would settle on USD.
  const currency = page.getByRole('group', { name: 'Currency' });
  await expect(currency.getByRole('button', { pressed: true })).toHaveCount(0);
  await currency.getByRole('button', { name: 'INR' }).click();
  release();
  await expect(login).toBeEnabled();
  await expect(currency.getByRole('button', { name: 'INR' })).toHaveAttribute('aria-pressed', 'true');
  await expect(currency.getByRole('button', { name: 'USD' })).toHaveAttribute('aria-pressed', 'false');
});
