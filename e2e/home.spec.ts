import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { ABOUT_FLIP_INTERVAL_MS, SCROLL_OFFSETS } from '../src/shared/constants';
import { expect, type Shop, test } from './fixtures';

test.use({ shopOptions: { name: 'home' } });

let shop: Shop;
test.beforeAll(({ shop: started }) => {
  shop = started;
});

const DESKTOP = { width: 1440, height: 900 };
const MOBILE = { width: 390, height: 844 };
/** The arrows bounce, so they never hold still long enough for Playwright's stability check. */
const BOUNCING = { force: true } as const;

async function openHome(page: Page) {
  await page.goto(`${shop.url}/`);
  // Hydration is done once React has attached its handlers; the page marks nothing, so wait for the network.
  await page.waitForLoadState('networkidle');
}

/** Waits until the section's top rests `expected` px below the viewport's top (smooth scrolling takes a while). */
async function expectSectionAt(page: Page, id: string, expected: number) {
  await expect
    .poll(async () => page.locator(`#${id}`).evaluate((el) => Math.round(el.getBoundingClientRect().top)), {
      timeout: 5000,
    })
    .toBeGreaterThanOrEqual(expected - 3);
  await expect
    .poll(async () => page.locator(`#${id}`).evaluate((el) => Math.round(el.getBoundingClientRect().top)))
    .toBeLessThanOrEqual(expected + 3);
}

test('the prerendered HTML carries the hero before any JavaScript runs', async () => {
  const response = await fetch(`${shop.url}/`);
  expect(response.status).toBe(200);
  const html = await response.text();
  expect(html).toContain('Grow Your Business Strategically');
  expect(html).toContain('99% Client Success Rate');
  for (const id of ['home', 'about', 'services', 'products']) expect(html).toContain(`id="${id}"`);
  for (const title of [
    'Fund Accounting',
    'GST Compliance',
    'Tax Prep (1065, 1120, K1s etc)',
    'Why Choose Us?',
  ]) {
    expect(html).toContain(title.replaceAll('&', '&amp;'));
  }
});

test.describe('desktop', () => {
  test.use({ viewport: DESKTOP });

  test('navbar entries scroll to their sections with the documented offsets', async ({ page }) => {
    await openHome(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeVisible();
    await expect(page.getByRole('button', { name: 'Menu', exact: true })).toBeHidden();

    for (const [label, id] of [
      ['About', 'about'],
      ['Services', 'services'],
      ['Products', 'products'],
    ] as const) {
      await nav.getByRole('link', { name: label, exact: true }).click();
      await expectSectionAt(page, id, -SCROLL_OFFSETS[id]);
    }
    await nav.getByRole('link', { name: 'Home', exact: true }).click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    // The links stay plain anchors: the URL is untouched because the click was handled in the page.
    expect(new URL(page.url()).hash).toBe('');
  });

  test('the header stays in view while scrolling', async ({ page }) => {
    await openHome(page);
    await page.evaluate(() => window.scrollTo(0, 2500));
    await expect
      .poll(() =>
        page
          .locator('header')
          .first()
          .evaluate((el) => el.getBoundingClientRect().top),
      )
      .toBe(0);
  });

  test('Get Started goes to /Contact and Learn More to About', async ({ page }) => {
    await openHome(page);
    await page.getByRole('link', { name: /^Learn More/ }).click();
    await expectSectionAt(page, 'about', -SCROLL_OFFSETS.about);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('link', { name: 'Get Started' }).click();
    await expect(page).toHaveURL(`${shop.url}/Contact`);
  });

  test('the three arrows scroll to About (70 px), Services (65 px) and Products (65 px)', async ({
    page,
  }) => {
    await openHome(page);
    await page.getByRole('button', { name: 'Scroll to About' }).click(BOUNCING);
    await expectSectionAt(page, 'about', 70);
    await page.getByRole('button', { name: 'Scroll to Services' }).click(BOUNCING);
    await expectSectionAt(page, 'services', 65);
    await page.getByRole('button', { name: 'Scroll to Products' }).click(BOUNCING);
    await expectSectionAt(page, 'products', 65);
  });

  test('hovering a service card widens it to 8 of 12 columns and reveals its bullets', async ({ page }) => {
    await openHome(page);
    const cards = page.locator('#services article');
    await expect(cards).toHaveCount(4);
    const spans = () => cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-span')));
    expect(await spans()).toEqual(['6', '6', '6', '6']);

    const planning = cards.nth(2);
    const firstBullet = planning.locator('li', { hasText: 'Pitch Deck / Business Plan' });
    await planning.scrollIntoViewIfNeeded();
    await expect(firstBullet).toHaveCSS('opacity', '0');
    await planning.hover();
    expect(await spans()).toEqual(['6', '6', '8', '4']);
    await expect(firstBullet).toHaveCSS('opacity', '1');
    await expect(planning.getByTestId('service-overlay')).toHaveCSS('opacity', '0.7');
    // The widened card really is twice as wide as its neighbour (8 vs 4 columns) once the transition ends.
    await expect
      .poll(async () => {
        const [a, b] = await Promise.all([planning.boundingBox(), cards.nth(3).boundingBox()]);
        return Math.round(((a?.width ?? 0) / (b?.width ?? 1)) * 10) / 10;
      })
      .toBeCloseTo(2, 1);

    await page.mouse.move(5, 5);
    expect(await spans()).toEqual(['6', '6', '6', '6']);
    await expect(planning.getByTestId('service-overlay')).toHaveCSS('opacity', '0.5');
  });

  test('keyboard focus inside a service card expands it too', async ({ page }) => {
    await openHome(page);
    const card = page.locator('#services article').first();
    await card.getByRole('link', { name: /Enquire now/ }).focus();
    await expect(card).toHaveAttribute('data-span', '8');
    await expect(card.locator('li', { hasText: 'SPVs and Private Equity' })).toHaveCSS('opacity', '1');
  });

  test('a product card shows its truncated description, Read more / Show less and a new-tab link', async ({
    page,
  }) => {
    await openHome(page);
    const card = page.locator('#products article').filter({ hasText: 'PDF Utility Tools' });
    const overlay = card.getByTestId('product-overlay');
    await card.scrollIntoViewIfNeeded();
    await expect(overlay).toHaveCSS('opacity', '0');
    await card.hover();
    await expect(overlay).toHaveCSS('opacity', '1');

    const description = overlay.locator('p[id$="-description"]');
    const short = (await description.textContent()) ?? '';
    expect(short.endsWith('...')).toBe(true);
    expect(short.replace(/\.\.\.$/, '').split(/\s+/)).toHaveLength(20);

    const toggle = overlay.getByRole('button', { name: 'Read more' });
    await toggle.click();
    await expect(overlay.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
    expect(((await description.textContent()) ?? '').split(/\s+/).length).toBeGreaterThan(20);
    // Each product keeps its own state: the other card is still collapsed.
    const other = page.locator('#products article').filter({ hasText: 'Insights' });
    await expect(other.getByRole('button', { name: 'Read more' })).toBeAttached();

    const learnMore = overlay.getByRole('link', { name: /^Learn more/ });
    await expect(learnMore).toHaveAttribute('href', '/utility-tools');
    await expect(learnMore).toHaveAttribute('target', '_blank');
    await expect(other.getByRole('link', { name: /^Learn more/ })).toHaveAttribute('href', /^https:\/\//);
  });

  test('about cards turn together every 10 seconds, and the rotation can be paused', async ({ page }) => {
    await page.clock.install();
    await openHome(page);
    const cards = page.locator('#about article');
    await expect(cards).toHaveCount(5);
    await expect(cards.first()).toHaveAttribute('data-side', 'image');
    await page.clock.runFor(ABOUT_FLIP_INTERVAL_MS);
    for (const card of await cards.all()) await expect(card).toHaveAttribute('data-side', 'text');
    await page.clock.runFor(ABOUT_FLIP_INTERVAL_MS);
    await expect(cards.first()).toHaveAttribute('data-side', 'image');

    await page.getByRole('button', { name: 'Pause card rotation' }).click();
    await page.clock.runFor(ABOUT_FLIP_INTERVAL_MS * 2);
    await expect(cards.first()).toHaveAttribute('data-side', 'image');
    await expect(page.getByRole('button', { name: 'Resume card rotation' })).toBeVisible();
  });

  test('has no axe violations', async ({ page }) => {
    await openHome(page);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
  });
});

test.describe('without JavaScript', () => {
  test.use({ viewport: DESKTOP, javaScriptEnabled: false });

  test('the navbar links are plain anchors that still reach their sections', async ({ page }) => {
    await page.goto(`${shop.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click();
    await expect(page).toHaveURL(/#services$/);
    // scroll-margin-top gives the native jump the same offset the script uses.
    await expectSectionAt(page, 'services', -SCROLL_OFFSETS.services);
  });
});

test.describe('reduced motion', () => {
  test.use({ viewport: DESKTOP, reducedMotion: 'reduce' });

  test('about cards do not turn on their own', async ({ page }) => {
    await page.clock.install();
    await openHome(page);
    await expect(page.getByRole('button', { name: /card rotation/ })).toHaveCount(0);
    await page.clock.runFor(ABOUT_FLIP_INTERVAL_MS * 2);
    await expect(page.locator('#about article').first()).toHaveAttribute('data-side', 'image');
  });
});

test.describe('mobile', () => {
  test.use({ viewport: MOBILE, hasTouch: true });

  test('the menu opens a drawer that locks scrolling and closes after a choice', async ({ page }) => {
    await openHome(page);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    const toggle = page.getByRole('button', { name: 'Menu', exact: true });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const drawer = page.getByRole('dialog', { name: 'Site menu' });
    await expect(drawer).toBeHidden();

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(drawer).toBeVisible();
    await expect(drawer).toContainText('© 2025');
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');
    await expect(drawer.getByRole('button', { name: 'Close menu' })).toBeFocused();

    await drawer.getByRole('link', { name: 'Services' }).click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(drawer).toBeHidden();
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('');
    await expectSectionAt(page, 'services', -SCROLL_OFFSETS.services);
  });

  test('a click outside the drawer, Escape, or the close button closes it', async ({ page }) => {
    // On a phone the drawer covers the screen (docs/product.md §2); a wider small screen (a tablet held upright)
    // shows page beside it, where a click closes it.
    await page.setViewportSize({ width: 700, height: 900 });
    await openHome(page);
    const toggle = page.getByRole('button', { name: 'Menu', exact: true });
    const drawer = page.getByRole('dialog', { name: 'Site menu' });

    await toggle.click();
    await expect(drawer).toBeVisible();
    const panel = await drawer.boundingBox();
    expect(panel?.x).toBeGreaterThan(20);
    await page.mouse.click(10, 400);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(drawer).toBeHidden();
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('');

    await toggle.click();
    await expect(drawer).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(toggle).toBeFocused();

    await toggle.click();
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await expect(drawer).toBeHidden();
  });

  test('the closed drawer is inert: nothing in it can take focus', async ({ page }) => {
    await openHome(page);
    const inert = await page.locator('[inert]').evaluate((el) => (el as HTMLElement).inert);
    expect(inert).toBe(true);
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      const inDrawer = await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')));
      expect(inDrawer).toBe(false);
    }
  });

  test('the header is fixed at the top and the page has no horizontal overflow', async ({ page }) => {
    await openHome(page);
    await page.evaluate(() => window.scrollTo(0, 1500));
    await expect
      .poll(() =>
        page
          .locator('header')
          .first()
          .evaluate((el) => el.getBoundingClientRect().top),
      )
      .toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(MOBILE.width);
  });

  test('has no axe violations', async ({ page }) => {
    await openHome(page);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
  });
});
