import type { Page } from '@playwright/test';
import { expect, type Shop, test } from './fixtures';
import { holdRequests } from './support/before-hydration';

/**
 * The home page's sections below the hero hydrate when the visitor comes near them (src/web/lib/hydrate-when-seen.tsx,
 * decision 024): a phone's first load carries only the first screen's code, and nothing the visitor does to a
 * section before its code arrives is lost.
 */
test.use({ shopOptions: { name: 'when-seen' } });

let shop: Shop;
test.beforeAll(({ shop: started }) => {
  shop = started;
});

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

function sectionsCodeRequested(page: Page): () => boolean {
  let requested = false;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/assets/below-the-fold-')) requested = true;
  });
  return () => requested;
}

/** The first product card's button that opens its overlay. */
const productToggle = (page: Page) =>
  page
    .locator('#products')
    .getByRole('button', { name: /^About / })
    .first();

test('a phone loads the sections’ code only when the visitor scrolls towards them, and they then work', async ({
  page,
}) => {
  const requested = sectionsCodeRequested(page);
  await page.goto(`${shop.url}/`, { waitUntil: 'networkidle' });
  // The first screen is hydrated: the menu opens its drawer.
  await expect(page.getByRole('button', { name: 'Menu', exact: true })).toBeEnabled();
  const aboutTop = await page.locator('#about').evaluate((el) => el.getBoundingClientRect().top);
  expect(aboutTop, 'About starts more than 200 px below a phone’s first screen').toBeGreaterThan(844 + 200);
  expect(requested()).toBe(false);

  await productToggle(page).scrollIntoViewIfNeeded();
  await expect.poll(requested).toBe(true);
  await productToggle(page).tap();
  await expect(productToggle(page)).toHaveAttribute('aria-expanded', 'true');
});

test('a tap on a section whose code has not arrived yet is clicked again once it has', async ({ page }) => {
  const release = await holdRequests(page, '**/assets/below-the-fold-*.js');
  await page.goto(`${shop.url}/`, { waitUntil: 'networkidle' });
  await expect(page.getByRole('button', { name: 'Menu', exact: true })).toBeEnabled();

  await productToggle(page).tap();
  // Still the prerendered HTML: nothing handled the tap.
  await expect(productToggle(page)).toHaveAttribute('aria-expanded', 'false');
  release();
  await expect(productToggle(page)).toHaveAttribute('aria-expanded', 'true');
});

test('back on the home page after leaving it unseen, every section is there and works', async ({ page }) => {
  const requested = sectionsCodeRequested(page);
  await page.goto(`${shop.url}/`, { waitUntil: 'networkidle' });
  await expect(page.getByRole('button', { name: 'Menu', exact: true })).toBeEnabled();
  await page.getByRole('link', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(`${shop.url}/Contact`);
  expect(requested(), 'leaving the page fetches the sections for a way back').toBe(true);

  await page.goBack();
  await expect(page).toHaveURL(`${shop.url}/`);
  for (const id of ['about', 'services', 'products', 'tools-promo'])
    await expect(page.locator(`#${id}`)).toHaveCount(1);
  await productToggle(page).tap();
  await expect(productToggle(page)).toHaveAttribute('aria-expanded', 'true');
});

test('navigating to the home page shows its sections together with the hero, not after it', async ({
  page,
}) => {
  await page.goto(`${shop.url}/Contact`, { waitUntil: 'networkidle' });
  await expect(page.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  // Records whether the hero was ever on the page without the sections below it.
  await page.evaluate(() => {
    const flags = window as unknown as { heroAlone: boolean };
    flags.heroAlone = false;
    new MutationObserver(() => {
      if (document.getElementById('home') && !document.getElementById('products')) flags.heroAlone = true;
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page.getByRole('link', { name: /home$/ }).first().click();
  await expect(page).toHaveURL(`${shop.url}/`);
  await expect(page.locator('#products')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { heroAlone: boolean }).heroAlone)).toBe(false);
});
