import type { Page } from '@playwright/test';
import { expect, type Shop, test } from './fixtures';

test.use({ shopOptions: { name: 'navigation' } });

let shop: Shop;
test.beforeAll(({ shop: started }) => {
  shop = started;
});

/** Warnings fail these tests too: React reports hydration trouble there. */
test.use({ consoleLevels: ['error', 'warning'] });

/** A value on `window` survives client-side navigation and is gone after a full page load. */
async function markWindow(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { navigationMarker: string }).navigationMarker = 'same document';
  });
}

async function expectSameDocument(page: Page) {
  expect(
    await page.evaluate(() => (window as unknown as { navigationMarker?: string }).navigationMarker),
  ).toBe('same document');
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
}

test('the header links move between pages in the same document, marking the current one; Back returns', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${shop.url}/Contact`);
  await page.waitForLoadState('networkidle');
  await markWindow(page);
  const nav = page.getByRole('navigation', { name: 'Main', exact: true });
  await expect(nav.getByRole('link', { name: 'Contact' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.locator('[aria-current]')).toHaveCount(1);

  await nav.getByRole('link', { name: 'Our Team' }).click();
  await expect(page).toHaveURL(`${shop.url}/OurTeam`);
  await expect(page).toHaveTitle(/^Our Team — /);
  await expect(nav.getByRole('link', { name: 'Our Team' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Contact' })).not.toHaveAttribute('aria-current');
  await expectSameDocument(page);

  await nav.getByRole('link', { name: 'Utility Tools' }).click();
  await expect(page).toHaveURL(`${shop.url}/utility-tools`);
  await expect(page).toHaveTitle(/^Utility Tools — /);
  // The description follows too, from its own module (page-descriptions.ts), which the first page did not load.
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    'content',
    /^Licensed desktop PDF utility tools/,
  );
  await expectSameDocument(page);

  await page.goBack();
  await expect(page).toHaveURL(`${shop.url}/OurTeam`);
  await expect(page).toHaveTitle(/^Our Team — /);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /^Meet the accounting/);
  await page.goBack();
  await expect(page).toHaveURL(`${shop.url}/Contact`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Contact' })).toHaveAttribute('aria-current', 'page');
  await page.goForward();
  await expect(page).toHaveURL(`${shop.url}/OurTeam`);
  await expectSameDocument(page);

  await nav.getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(`${shop.url}/`);
  await expect(page.locator('#services')).toBeAttached();
  await expectSameDocument(page);
});

test('a link clicked with a modifier key opens normally, in a new tab, and leaves the page where it was', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${shop.url}/Contact`);
  await page.waitForLoadState('networkidle');
  await markWindow(page);
  const opened = context.waitForEvent('page');
  await page
    .getByRole('navigation', { name: 'Main', exact: true })
    .getByRole('link', { name: 'Our Team' })
    .click({ modifiers: ['ControlOrMeta'] });
  const tab = await opened;
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe('/OurTeam');
  await expect(page).toHaveURL(`${shop.url}/Contact`);
  await expectSameDocument(page);
  await tab.close();
});

test('an address that differs from a page only in case gets the not-found page, without hydration errors', async ({
  page,
  consoleWatch,
}) => {
  // The document's own 404 is reported on the console; anything else is a problem.
  consoleWatch.allow(/404/);
  const response = await page.goto(`${shop.url}/contact`);
  expect(response?.status()).toBe(404);
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveTitle(/^Page not found — /);
});

test('a page opened at a section stays at that section once it hydrates', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${shop.url}/PrivacyPolicy#cookies-and-tracking`);
  await page.waitForLoadState('networkidle');
  const section = page.locator('#cookies-and-tracking');
  await expect(section).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
});
