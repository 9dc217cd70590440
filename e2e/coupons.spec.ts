import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { expect, person, type Shop, test } from './fixtures';
import { checkScreen as checkPage } from './support/check-screen';
import { openInrBilling, startOperatorEnrolment } from './support/steps';

/**
 * Coupons from both sides on the default embedded database: codes made with `npm run admin -- coupons add` while
 * the site serves, a buyer applying one in the billing dialog (a discounted checkout, then a 100 % code that skips
 * the checkout), and the operator's Coupons screen. axe at 390 and 1440 px; screenshots when SHOTS_DIR is set.
 */

test.describe.configure({ mode: 'serial' });

const operator = person('Meera Operator', 'meera.coupons@example.in', '+919812345678', 'Sunrise over Amer 7');
const buyer = person('Arjun Buyer', 'arjun.coupons@example.in', '+919812345671', 'Monsoon-kite-5521');
const PAYMENT_SUCCESS = 'Payment successful! Details have been sent to you on Email.';

// The browser logs the 400 of a refused code itself; the page shows the reason.
test.use({ shopOptions: { name: 'coupons' }, consoleAllowed: /status of 400/ });

let shop: Shop;
let page: Page;

const checkScreen = (name: string, fullPage = true) => checkPage(page, name, { fullPage });

test.beforeAll(async ({ shop: started, openPage }) => {
  test.setTimeout(300_000);
  shop = started;
  await shop.signUp(operator);
  await shop.signUp(buyer);
  // The running server holds the embedded database: the command line has it run these.
  expect((await shop.admin('operators', 'add', operator.email)).code).toBe(0);
  const added = await shop.admin('coupons', 'add', 'LAUNCH-20', '--percent', '20', '--max-uses', '50');
  expect(added.stderr).toBe('');
  expect(added.stdout).toContain('Coupon LAUNCH-20 created: 20 % off.');
  expect((await shop.admin('coupons', 'add', 'FREEBIE', '--percent', '100')).code).toBe(0);
  page = await openPage({ timezoneId: 'Asia/Kolkata', locale: 'en-US' });
});

const openBilling = (buyButton: string) => openInrBilling(page, buyButton);

test('a buyer applies a coupon in the billing dialog and pays the discounted price', async () => {
  await page.goto(`${shop.url}/utility-tools`);
  await page.getByRole('button', { name: 'Login' }).click();
  const login = page.getByRole('dialog', { name: 'Welcome Back' });
  await login.getByLabel('Email').fill(buyer.email);
  await login.getByLabel('Password', { exact: true }).fill(buyer.password);
  await login.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('button', { name: buyer.name })).toBeVisible({ timeout: 30_000 });

  const billing = await openBilling('Windows - ₹1,499.00');
  // The spec's fields and buttons are all still there, the coupon beside them.
  for (const label of ['Address', 'State', 'Country', 'GSTIN'])
    await expect(billing.getByLabel(label, { exact: false }).first()).toBeVisible();
  const code = billing.getByLabel('Coupon code');
  await code.fill('nope-123');
  await billing.getByRole('button', { name: 'Apply' }).click();
  await expect(billing.getByText('This code is not valid.')).toBeVisible();
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  const describedBy = (await code.getAttribute('aria-describedby')) ?? '';
  await expect(page.locator(`[id="${describedBy.split(' ')[0]}"]`)).toHaveText('This code is not valid.');
  await checkScreen('billing-coupon-refused', false);

  await code.fill('launch-20');
  await code.press('Enter');
  await expect(billing.getByText('LAUNCH-20: ₹299.80 off. New price ₹1,199.20')).toBeVisible();
  await expect(page.locator('#announcer')).toHaveText(
    'Coupon LAUNCH-20 applied: ₹299.80 off, new price ₹1,199.20.',
  );
  await checkScreen('billing-coupon-applied', false);

  await billing.getByRole('button', { name: 'Proceed to Payment' }).click();
  const checkout = page.getByRole('dialog', { name: 'Razorpay Test Checkout' });
  await expect(checkout.getByText('₹1,199.20')).toBeVisible();
  await checkout.getByRole('button', { name: 'Simulate success' }).click();
  await expect(page.getByRole('note').filter({ hasText: PAYMENT_SUCCESS })).toBeVisible();
  await page.waitForURL(`${shop.url}/my-tools`, { timeout: 10_000 });
});

test('a 100 % code gives the tool without a checkout and shows the success state', async () => {
  await page.goto(`${shop.url}/utility-tools`);
  const billing = await openBilling('macOS - ₹1,499.00');
  await billing.getByLabel('Coupon code').fill('FREEBIE');
  await billing.getByRole('button', { name: 'Apply' }).click();
  await expect(billing.getByText('FREEBIE: ₹1,499.00 off. New price ₹0.00')).toBeVisible();
  await billing.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(page.getByRole('note').filter({ hasText: PAYMENT_SUCCESS })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Razorpay Test Checkout' })).toHaveCount(0);
  await page.waitForURL(`${shop.url}/my-tools`, { timeout: 10_000 });
  await expect(page.getByRole('article')).toHaveCount(2);
});

test('the operator sees the uses on the Coupons screen and creates a code with the form', async () => {
  await page.context().clearCookies();
  await page.goto(`${shop.url}/admin`);
  const setupKey = await startOperatorEnrolment(page, operator);
  await page.getByLabel('The 6-digit code the app now shows').fill(await generate({ secret: setupKey }));
  await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
  await page.getByRole('button', { name: /open the dashboard/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(page.getByText('paid orders with a coupon')).toBeVisible();

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Coupons' }).click();
  const table = page.getByRole('table', { name: 'Coupons' });
  await expect(table.getByRole('row', { name: /LAUNCH-20.*20 % off.*1 used of 50/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /FREEBIE.*100 % off \(free\).*1 used/ })).toBeVisible();

  await page.getByRole('button', { name: 'Create the coupon' }).click();
  await expect(page.getByText('Enter a code')).toBeVisible();
  await expect(page.getByLabel('Code', { exact: true })).toBeFocused();
  await page.getByLabel('Code', { exact: true }).fill('monsoon-10');
  await page.getByLabel('Percent off').fill('10');
  await page.getByLabel('Uses allowed in all').fill('100');
  await page.getByRole('button', { name: 'Create the coupon' }).click();
  await expect(page.getByRole('main').getByText('Coupon MONSOON-10 created.', { exact: true })).toBeVisible();
  // The new row's link takes focus and the live region says it once (issue 53).
  await expect(page.getByRole('link', { name: 'MONSOON-10', exact: true })).toBeFocused();
  await expect(page.locator('#announcer')).toHaveText(/^Coupon MONSOON-10 created\./);
  await expect(table.getByRole('row', { name: /MONSOON-10.*10 % off.*0 used of 100/ })).toBeVisible();
  await checkScreen('admin-coupons');

  await table.getByRole('link', { name: 'LAUNCH-20' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Coupon LAUNCH-20' })).toBeVisible();
  await expect(page.getByText('₹1,199.20 received')).toBeVisible();
  const uses = page.getByRole('table', { name: 'Uses of LAUNCH-20' });
  await expect(
    uses.getByRole('row', { name: new RegExp(`${buyer.email}.*₹1,499.00.*₹299.80.*₹1,199.20.*used`) }),
  ).toBeVisible();
  await checkScreen('admin-coupon');

  await page.getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByText('disabled', { exact: true })).toBeVisible();

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Orders' }).click();
  await expect(page.getByText('LAUNCH-20 −₹299.80')).toBeVisible();
});
