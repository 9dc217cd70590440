import { expect, type Page, test } from '@playwright/test';
import { type RunningServer, startServer } from './support/server';

let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer();
});
test.afterAll(async () => {
  await server.stop();
});

/** Every console message at warning level or above (React reports hydration trouble there) and every exception. */
function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

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
  const problems = collectProblems(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server.url}/Contact`);
  await page.waitForLoadState('networkidle');
  await markWindow(page);
  const nav = page.getByRole('navigation', { name: 'Main', exact: true });
  await expect(nav.getByRole('link', { name: 'Contact' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.locator('[aria-current]')).toHaveCount(1);

  await nav.getByRole('link', { name: 'Our Team' }).click();
  await expect(page).toHaveURL(`${server.url}/OurTeam`);
  await expect(page).toHaveTitle(/^Our Team — /);
  await expect(nav.getByRole('link', { name: 'Our Team' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Contact' })).not.toHaveAttribute('aria-current');
  await expectSameDocument(page);

  await nav.getByRole('link', { name: 'Utility Tools' }).click();
  await expect(page).toHaveURL(`${server.url}/utility-tools`);
  await expect(page).toHaveTitle(/^Utility Tools — /);
  await expectSameDocument(page);

  await page.goBack();
  await expect(page).toHaveURL(`${server.url}/OurTeam`);
  await expect(page).toHaveTitle(/^Our Team — /);
  await page.goBack();
  await expect(page).toHaveURL(`${server.url}/Contact`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Contact' })).toHaveAttribute('aria-current', 'page');
  await page.goForward();
  await expect(page).toHaveURL(`${server.url}/OurTeam`);
  await expectSameDocument(page);

  await nav.getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(`${server.url}/`);
  await expect(page.locator('#services')).toBeAttached();
  await expectSameDocument(page);
  expect(problems).toEqual([]);
});

test('a link clicked with a modifier key opens normally, in a new tab, and leaves the page where it was', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server.url}/Contact`);
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
  await expect(page).toHaveURL(`${server.url}/Contact`);
  await expectSameDocument(page);
  await tab.close();
});

test('an address that differs from a page only in case gets the not-found page, without hydration errors', async ({
  page,
}) => {
  const problems = collectProblems(page);
  const response = await page.goto(`${server.url}/contact`);
  expect(response?.status()).toBe(404);
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveTitle(/^Page not found — /);
  // The document's own 404 is reported on the console; anything else is a problem.
  expect(problems.filter((problem) => !problem.includes('404'))).toEqual([]);
});

test('a page opened at a section stays at that section once it hydrates', async ({ page }) => {
  const problems = collectProblems(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server.url}/PrivacyPolicy#cookies-and-tracking`);
  await page.waitForLoadState('networkidle');
  const section = page.locator('#cookies-and-tracking');
  await expect(section).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  expect(problems).toEqual([]);
});
