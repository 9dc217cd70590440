import type { BrowserContext, Page } from '@playwright/test';
import { BILLING_MESSAGES } from '../src/shared/billing';
import { SHOP_MESSAGES } from '../src/shared/shop';
import { PAGE_ROUTES } from '../src/web/routes';
import { expect, type Shop, test } from './fixtures';
import { openInrBilling } from './support/steps';

/**
 * What visitors ran into on phones, in dialogs and after paying, each checked at 390 px (a touch phone) and at
 * 1440 px: the product overlay opens by tap and keyboard, payment toasts outlive the move to My Tools, a text
 * selection that ends outside a dialog keeps it open, trailing slashes redirect to the canonical page, the GSTIN
 * example passes its own check, the checkout names the edition, a failed sign-in check still offers Login and is
 * retried, and the phone drawer covers the whole screen.
 */
test.describe.configure({ mode: 'serial' });

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const DESKTOP = { viewport: { width: 1440, height: 900 } };
const WIDTHS = [
  { name: '390px', options: PHONE },
  { name: '1440px', options: DESKTOP },
] as const;
const PASSWORD = 'Ledger-kite-2931';

test.use({ shopOptions: { name: 'visitor-fixes' }, timezoneId: 'Asia/Kolkata', locale: 'en-US' });

let shop: Shop;
test.beforeAll(({ shop: started }) => {
  shop = started;
});

/** Creates an account through the real signup calls, with the code read from the email, and signs it in. */
const signUp = (context: BrowserContext, email: string) =>
  shop.signUp({ name: 'Meera Joshi', email, phone: '+919812345678', password: PASSWORD }, context.request);

/** Opens the INR billing dialog for a tool and fills the required fields. */
async function openBilling(page: Page, buyButton: RegExp) {
  await page.goto(`${shop.url}/utility-tools`);
  await expect(page.getByRole('button', { name: 'Meera Joshi' })).toBeVisible();
  return openInrBilling(page, buyButton);
}

/** Presses inside `from`, drags to the top-left corner of the backdrop and lets go there, as a text selection. */
async function selectOutward(page: Page, from: ReturnType<Page['locator']>) {
  const box = await from.boundingBox();
  if (!box) throw new Error('field not on screen');
  await page.mouse.move(box.x + box.width - 4, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 4, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(3, 3, { steps: 6 });
  await page.mouse.up();
}

for (const { name, options } of WIDTHS) {
  test.describe(`at ${name}`, () => {
    const phone = name === '390px';
    test.use(options);

    test('1. a product card opens its overlay by tap or keyboard, and a second tap or Escape closes it', async ({
      page,
      snap,
    }) => {
      await page.goto(`${shop.url}/#products`);
      const cards = page.locator('#products article');
      // On a phone, the dashboard product: its Learn more is its only link. On a desktop, the second card, which
      // the keyboard reaches from the first.
      const card = phone
        ? cards.filter({ hasText: 'Insights' })
        : cards.filter({ hasText: 'PDF Utility Tools' });
      const overlay = card.getByTestId('product-overlay');
      const toggle = card.getByRole('button', { name: /^About / });
      await card.scrollIntoViewIfNeeded();
      await expect(overlay).toHaveCSS('opacity', '0');

      if (phone) {
        await card.tap();
        await expect(toggle).toHaveAttribute('aria-expanded', 'true');
        await expect(overlay).toHaveCSS('opacity', '1');
        const learnMore = overlay.getByRole('link', { name: /^Learn more/ });
        await expect(learnMore).toBeInViewport();
        // The dashboard product's only link is really there to tap: nothing covers it.
        const box = await learnMore.boundingBox();
        const hit = await page.evaluate(
          ([x, y]) => document.elementFromPoint(x as number, y as number)?.closest('a')?.textContent ?? '',
          [(box?.x ?? 0) + 8, (box?.y ?? 0) + 8],
        );
        expect(hit).toMatch(/^Learn more/);
        await snap('visitor-fixes-products-overlay-open-390');
        await overlay.getByRole('button', { name: 'Read more' }).tap();
        await expect(overlay.getByRole('button', { name: 'Show less' })).toBeInViewport();
        await expect(overlay).toHaveCSS('opacity', '1');
        await snap('visitor-fixes-products-overlay-expanded-390');
        // A second tap on the overlay (not on its link or button) closes it.
        const overlayBox = await overlay.boundingBox();
        await page.touchscreen.tap((overlayBox?.x ?? 0) + 12, (overlayBox?.y ?? 0) + 12);
        await expect(toggle).toHaveAttribute('aria-expanded', 'false');
        await expect(overlay).toHaveCSS('opacity', '0');
        await card.tap();
        await expect(overlay).toHaveCSS('opacity', '1');
        await page.keyboard.press('Escape');
        await expect(overlay).toHaveCSS('opacity', '0');
      } else {
        // Keyboard only: Tab from the last control of the card before lands on this card and opens its overlay.
        await cards
          .filter({ hasText: 'Insights' })
          .getByRole('link', { name: /^Learn more/ })
          .focus();
        await page.keyboard.press('Tab');
        await expect(toggle).toBeFocused();
        await expect(toggle).toHaveAttribute('aria-expanded', 'true');
        await expect(overlay).toHaveCSS('opacity', '1');
        await page.keyboard.press('Escape');
        await expect(toggle).toHaveAttribute('aria-expanded', 'false');
        await expect(overlay).toHaveCSS('opacity', '0');
        await expect(toggle).toBeFocused();
        // Tabbing on reaches the overlay's controls, which open it again.
        await page.keyboard.press('Tab');
        await expect(overlay.getByRole('button', { name: 'Read more' })).toBeFocused();
        await expect(overlay).toHaveCSS('opacity', '1');
        await page.keyboard.press('Escape');
        await expect(overlay).toHaveCSS('opacity', '0');
      }
    });

    test('2, 3, 5 and 6. buying: selection keeps the dialog, the GSTIN example passes, the checkout names the edition, toasts outlive the redirect', async ({
      page,
      consoleWatch,
    }) => {
      const context = page.context();
      consoleWatch.allow(/verify payment|ERR_FAILED/i);
      await signUp(context, `buyer.${name}.${Date.now().toString(36)}@example.in`);

      // 3: selecting the address text and letting go on the backdrop keeps the dialog and what was typed.
      const billing = await openBilling(page, /^Windows - /);
      const address = billing.getByLabel('Address');
      await selectOutward(page, address);
      await expect(billing).toBeVisible();
      await expect(address).toHaveValue('14 Civil Lines, Ajmer Road');

      // 5: the example shown in the GSTIN field is accepted.
      const gstin = billing.getByLabel('GSTIN');
      const example = ((await gstin.getAttribute('placeholder')) ?? '').replace(/^e\.g\.\s*/, '');
      expect(example).toMatch(/^\d{2}[A-Z0-9]{13}$/);
      await gstin.fill(example);
      await billing.getByRole('button', { name: 'Proceed to Payment' }).click();
      await expect(billing.getByText(BILLING_MESSAGES.gstinInvalid)).toHaveCount(0);
      await expect(billing.getByText(BILLING_MESSAGES.gstinCheckCharacter)).toHaveCount(0);

      // 6: the payment window says which edition is being bought.
      const checkout = page.getByRole('dialog', { name: 'Razorpay Test Checkout' });
      await expect(checkout).toBeVisible();
      await expect(checkout).toContainText('Windows edition');
      await checkout.getByRole('button', { name: 'Simulate success' }).click();

      // 2: the success toast is still there after the move to /my-tools, until its 5 s are up.
      const success = page.getByRole('note').filter({ hasText: SHOP_MESSAGES.purchase.success });
      await expect(success).toBeVisible();
      await expect(page).toHaveURL(`${shop.url}/my-tools`);
      await expect(success).toBeVisible();
      await expect(success).toBeHidden({ timeout: 8_000 });

      // The verification-failure toast too: the verify call fails on the way (the network drops it).
      await page.route('**/api/verify-payment/', (route) => route.abort('failed'));
      const macos = await openBilling(page, /^macOS - /);
      await macos.getByRole('button', { name: 'Proceed to Payment' }).click();
      await expect(checkout).toContainText('macOS edition');
      const myToolsLoaded = Promise.all(
        ['/api/my-tools/', '/api/my-licenses/', '/api/orders/'].map((path) =>
          page.waitForResponse((response) => new URL(response.url()).pathname === path),
        ),
      );
      await checkout.getByRole('button', { name: 'Simulate success' }).click();
      const failure = page.getByRole('note').filter({ hasText: SHOP_MESSAGES.purchase.verifyFailed });
      await expect(failure).toBeVisible();
      await expect(page).toHaveURL(`${shop.url}/my-tools`);
      await expect(failure).toBeVisible();
      await page.unroute('**/api/verify-payment/');
      // My Tools asks for the buyer's tools, licenses and orders once it knows who is signed in: let it finish before
      // the cookies go, or those calls meet a session that vanished under them (a 401 the page never caused).
      await myToolsLoaded;

      // 3 again, in the Login dialog of a signed-out visitor: only a click that starts on the backdrop closes it.
      await context.clearCookies();
      await page.goto(`${shop.url}/utility-tools`);
      await page.getByRole('button', { name: 'Login' }).click();
      const login = page.getByRole('dialog', { name: 'Welcome Back' });
      await login.getByLabel('Email').fill('meera.joshi@example.in');
      await selectOutward(page, login.getByLabel('Email'));
      await expect(login).toBeVisible();
      await expect(login.getByLabel('Email')).toHaveValue('meera.joshi@example.in');
      await page.mouse.click(3, 3);
      await expect(login).toBeHidden();
    });

    test('4. every route with a trailing slash redirects (301) to its canonical path', async ({ page }) => {
      for (const route of PAGE_ROUTES.filter((candidate) => candidate.path !== '/')) {
        const response = await page.request.get(`${shop.url}${route.path}/?from=test`, { maxRedirects: 0 });
        expect(response.status(), route.path).toBe(301);
        expect(response.headers().location).toBe(`${route.path}?from=test`);
      }
      await page.goto(`${shop.url}/Contact/`);
      await expect(page).toHaveURL(`${shop.url}/Contact`);
      await expect(page).toHaveTitle(PAGE_ROUTES.find((route) => route.path === '/Contact')?.title ?? '');
      await page.goto(`${shop.url}/utility-tools/`);
      await expect(page).toHaveURL(`${shop.url}/utility-tools`);
      await expect(page.getByRole('heading', { level: 1, name: 'Utility Tools' })).toBeVisible();
      await expect(page).not.toHaveTitle(/not found/i);
    });

    test('7. while the sign-in check fails the navbar offers Login and Sign Up, and the check is retried', async ({
      page,
      consoleWatch,
    }) => {
      const context = page.context();
      consoleWatch.allow(/Auth check failed|ERR_FAILED/);
      await signUp(context, `retry.${name}.${Date.now().toString(36)}@example.in`);
      let failing = true;
      await page.route('**/api/auth/check/', (route) => (failing ? route.abort('failed') : route.continue()));
      await page.goto(`${shop.url}/utility-tools/invalid-link`);
      await expect(page.getByRole('heading', { name: 'Invalid or Expired Link' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
      await expect(page.getByRole('button', { name: 'Sign Up' })).toBeEnabled();
      failing = false;
      await expect(page.getByRole('button', { name: 'Meera Joshi' })).toBeVisible({ timeout: 12_000 });
      await expect(page.getByRole('button', { name: 'Login' })).toHaveCount(0);
    });

    test('8. the home menu drawer covers the whole phone screen', async ({ page, snap }) => {
      await page.goto(`${shop.url}/`);
      const toggle = page.getByRole('button', { name: 'Menu', exact: true });
      if (phone) {
        await toggle.click();
        const drawer = page.getByRole('dialog', { name: 'Site menu' });
        await expect(drawer).toBeVisible();
        // Once the 300 ms slide is over, the panel covers the viewport: no strip of page beside it.
        await expect.poll(() => drawer.boundingBox()).toEqual({ x: 0, y: 0, width: 390, height: 844 });
        await snap('visitor-fixes-drawer-390');
        await drawer.getByRole('button', { name: 'Close menu' }).click();
        await expect(drawer).toBeHidden();
      } else {
        // Wide screens have the bar itself, not a drawer.
        await expect(toggle).toBeHidden();
        await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      }
    });
  });
}
