import { createHash } from 'node:crypto';
import { userInfo } from 'node:os';
import type { BrowserContext, Page } from '@playwright/test';
import { expect, person, type Shop, test } from './fixtures';
import { authenticator } from './support/authenticator';
import { checkScreen as checkPage } from './support/check-screen';
import { buyInRupees, signUpInDialog, startOperatorEnrolment } from './support/steps';

/**
 * The operator's dashboard from the operator's side, on the default embedded database: the role granted with
 * `npm run admin -- operators add` while the site is serving (the server runs it for the command line), sign in,
 * enrol an authenticator app with codes computed from the key the page shows, use the screens, sign in again with a
 * recovery code, and find every step in Activity. Each screen is checked with axe at phone and desktop widths.
 */

test.describe.configure({ mode: 'serial' });

const operator = person('Meera Operator', 'meera.ops@example.in', '+919812345678', 'Sunrise over Amer 7');

const buyer = person('Arjun Buyer', 'arjun.buyer@example.in', '9812345671', 'Monsoon-kite-5521');

test.use({ shopOptions: { name: 'admin' } });

let shop: Shop;
let context: BrowserContext;
let page: Page;
let setupKey = '';
let recoveryCodes: string[] = [];

const checkScreen = (name: string) => checkPage(page, `admin-${name}`);

/** The buyer shops in a browser context of their own, with its own cookies. */
let browserForBuyer: () => Promise<BrowserContext>;

test.beforeAll(async ({ browser, shop: started, openPage }) => {
  // A server start and three command-line runs.
  test.setTimeout(300_000);
  shop = started;
  await shop.signUp(operator);
  // The embedded database serves one process, the site's: the command line has the server run its commands.
  const refused = await shop.admin('operators', 'add', 'nobody@example.in');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('No account with the email nobody@example.in.');
  const granted = await shop.admin('operators', 'add', operator.email.toUpperCase());
  expect(granted.stderr).toBe('');
  expect(granted.code).toBe(0);
  expect(granted.stdout).toContain(`${operator.email} is now an operator.`);
  const listed = await shop.admin('operators', 'list');
  expect(listed.stdout).toMatch(new RegExp(`${operator.email}.*not yet`));

  browserForBuyer = () => browser.newContext({ timezoneId: 'Asia/Kolkata', locale: 'en-US' });
  page = await openPage({ timezoneId: 'Asia/Kolkata' });
  context = page.context();
});

test('/admin is a noindex shell outside the sitemap', async () => {
  const response = await page.goto(`${shop.url}/admin`);
  expect(response?.status()).toBe(200);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  const sitemap = await (await fetch(`${shop.url}/sitemap.xml`)).text();
  expect(sitemap).not.toContain('/admin');
  const robots = await (await fetch(`${shop.url}/robots.txt`)).text();
  expect(robots).toContain('Disallow: /admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the dashboard' })).toBeVisible();
  await checkScreen('sign-in');
});

test('the operator signs in and enrols an authenticator app', async () => {
  setupKey = await startOperatorEnrolment(page, operator);
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  expect(setupKey).toMatch(/^[A-Z2-7]{16,}$/);
  await checkScreen('enrol');

  await page.getByLabel('The 6-digit code the app now shows').fill(await nextCode());
  await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  recoveryCodes = await codes.allTextContents();
  await checkScreen('recovery-codes');
  await page.getByRole('button', { name: /open the dashboard/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
});

test('the overview shows sales, the chart and open items', async () => {
  await expect(page.getByRole('heading', { name: 'Last 30 days', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Open items' })).toBeVisible();
  await expect(page.locator('.uplot canvas')).toBeVisible();
  await expect(page).toHaveTitle(/^Overview — Dashboard/);
  await checkScreen('overview');
});

test('Activity lists the grant and the enrolment, sorted and searched on the server', async () => {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Activity' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  const rows = page.getByRole('table', { name: 'Operator actions' }).locator('tbody tr');
  // Newest first: the enrolment, the grant, and the development shop's example coupon its first start made.
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('second_factor.enrol');
  await expect(rows.nth(1)).toContainText('operator.grant');
  await expect(rows.nth(1)).toContainText(`cli:${userInfo().username}`);
  await expect(rows.nth(2)).toContainText('coupon.create');
  await expect(rows.nth(2)).toContainText('cli:first-run');
  await checkScreen('activity');

  const byAction = page.getByRole('button', { name: 'What' });
  await byAction.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('columnheader', { name: 'What' })).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.nth(0)).toContainText('second_factor.enrol');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('columnheader', { name: 'What' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(rows.nth(0)).toContainText('coupon.create');
  await expect(rows.nth(1)).toContainText('operator.grant');

  await page.getByRole('searchbox', { name: 'Search activity' }).fill('enrol');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText('second_factor.enrol');
});

test('every screen reads well at phone and desktop widths', async () => {
  test.setTimeout(300_000);
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  for (const screen of ['Orders', 'Customers', 'Tools', 'Messages', 'Mail']) {
    await nav.getByRole('link', { name: screen }).click();
    await expect(page.getByRole('heading', { level: 1, name: screen })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await checkScreen(screen.toLowerCase());
  }
  await nav.getByRole('link', { name: 'Customers' }).click();
  await page.getByRole('link', { name: operator.email }).click();
  await expect(page.getByRole('heading', { level: 1, name: operator.name })).toBeVisible();
  await checkScreen('customer');
  await nav.getByRole('link', { name: 'Tools' }).click();
  await page.getByRole('link', { name: 'Add a tool' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add a tool' })).toBeVisible();
  await checkScreen('tool-new');
});

const nextCode = authenticator(() => setupKey);

test('the operator adds a tool with its file, and the shop lists it', async () => {
  test.setTimeout(300_000);
  await page.goto(`${shop.url}/admin/tools/new`);
  await page.getByLabel('Name').fill('Ledger Lens');
  await page.getByLabel('Description').fill('Reads Tally exports offline and flags GST mismatches.');
  await page.getByLabel('Price in INR').fill('1499');
  await page.getByLabel('Price in USD').fill('19.99');
  await page.getByLabel(/Code from your authenticator app/).fill(await nextCode());
  await page.getByRole('button', { name: 'Add the tool' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Ledger Lens' })).toBeVisible({ timeout: 20_000 });
  await checkScreen('tool-edit');
  // Floating licenses: the interval shows only for a floating tool (not saved here).
  await expect(page.getByLabel(/^Heartbeat interval/)).toHaveCount(0);
  await page.getByLabel('License model').selectOption('floating');
  await expect(page.getByLabel(/^Heartbeat interval/)).toHaveValue('10');
  await checkScreen('tool-edit-floating');
  await page.getByLabel('License model').selectOption('per-device');

  const content = Buffer.from('MZ Ledger Lens installer '.repeat(2000));
  await page
    .getByLabel(/^File/)
    .setInputFiles({ name: 'ledger-lens-setup.exe', mimeType: 'application/octet-stream', buffer: content });
  await page.locator('#upload-code').fill(await nextCode());
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByTestId('file-sha256')).toHaveText(
    createHash('sha256').update(content).digest('hex'),
    {
      timeout: 20_000,
    },
  );

  const storefront = await context.newPage();
  await storefront.goto(`${shop.url}/utility-tools`);
  await expect(storefront.getByRole('article', { name: 'Ledger Lens (Windows)', exact: true })).toBeVisible({
    timeout: 20_000,
  });
  await storefront.close();

  await page.goto(`${shop.url}/admin/activity`);
  const rows = page.getByRole('table', { name: 'Operator actions' }).locator('tbody tr');
  await expect(rows.nth(0)).toContainText('tool.upload');
  await expect(rows.nth(1)).toContainText('tool.create');
});

test('a buyer buys the new tool with the emulator; the operator finds the order and refunds it', async () => {
  test.setTimeout(300_000);
  const shopper = await browserForBuyer();
  const storefront = await shopper.newPage();
  await storefront.goto(`${shop.url}/utility-tools`);
  await signUpInDialog(storefront, shop.smtp, buyer, 30_000);
  await buyInRupees(
    storefront,
    storefront.getByRole('article', { name: 'Ledger Lens (Windows)', exact: true }),
    '7 MI Road, Jaipur',
    30_000,
  );
  const delivery = await shop.smtp.waitFor(
    (m) => m.to.includes(buyer.email) && /license key$/.test(m.subject),
  );
  const licenseKey = /Your license key\s*\n\s*(\S+)/.exec(delivery.text)?.[1] ?? '';
  expect(licenseKey).toMatch(/^[A-Z0-9]{5}(-[A-Z0-9]{5}){3}$/);
  const owned = (await (await storefront.request.get(`${shop.url}/api/my-tools/`)).json()) as Array<{
    _id: string;
  }>;
  const toolId = owned[0]?._id ?? '';
  await shopper.close();
  const machine = { licenseKey, toolId, fingerprint: 'ledger-lens-office-pc-01' };
  const license = (path: string, body: Record<string, string>) =>
    fetch(`${shop.url}/api/licenses/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((response) => response.json() as Promise<{ code: string }>);
  expect((await license('activate', { ...machine, name: 'Office PC' })).code).toBe('VALID');
  // Validated twice: the second answer comes from the server's memory of the first (decision 027).
  expect((await license('validate', machine)).code).toBe('VALID');
  expect((await license('validate', machine)).code).toBe('VALID');

  // The operator finds the order by the buyer's email, with its license (key masked) and invoice.
  await page.goto(`${shop.url}/admin/orders`);
  await page.getByLabel('Email, order_…, pay_… or invoice number').fill(buyer.email);
  await page.getByRole('button', { name: 'Search' }).click();
  const orderRows = page.getByRole('table', { name: 'Orders' }).locator('tbody tr');
  await expect(orderRows).toHaveCount(1);
  await expect(orderRows.nth(0)).toContainText('Ledger Lens');
  await orderRows.nth(0).getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: /^Order pay_/ })).toBeVisible();
  await expect(page.getByText(new RegExp(`^[•-]+${licenseKey.slice(-4)}$`))).toBeVisible();
  await expect(page.getByText(licenseKey)).toHaveCount(0);
  await expect(page.getByText('Office PC')).toBeVisible();
  await expect(page.getByRole('link', { name: /\(PDF\)$/ })).toHaveCount(1);
  await checkScreen('order');

  await page.getByRole('button', { name: 'Refund…' }).click();
  await page.getByLabel('Reason (for the records)').fill('Bought the wrong edition');
  await page.getByLabel('Code from your authenticator app').fill(await nextCode());
  await page.getByRole('button', { name: 'Refund ₹1,499.00' }).click();
  // The notice is shown, and said through the site's one live region (issue 53), not a second one of its own.
  await expect(page.getByRole('main').getByText(/^Refunded ₹1,499.00/)).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('#announcer')).toHaveText(/^Refunded ₹1,499.00/);
  await expect(page.getByRole('link', { name: /\(PDF\)$/ })).toHaveCount(2);

  expect((await license('validate', machine)).code).toBe('REVOKED');
  const refundMail = await shop.smtp.waitFor(
    (m) => m.to.includes(buyer.email) && m.attachments.some((file) => /credit/i.test(file.filename ?? '')),
  );
  expect(refundMail.attachments.find((file) => /credit/i.test(file.filename ?? ''))?.mimeType).toBe(
    'application/pdf',
  );

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Activity' }).click();
  const activity = page.getByRole('table', { name: 'Operator actions' }).locator('tbody tr');
  await expect(activity.nth(0)).toContainText('order.refund');
  await expect(activity.filter({ hasText: 'tool.create' })).toHaveCount(1);
  await expect(activity.filter({ hasText: 'tool.upload' })).toHaveCount(1);

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Invoices' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Invoices' })).toBeVisible();
  await expect(
    page.getByRole('table', { name: /^Invoices and credit notes/ }).locator('tbody tr'),
  ).toHaveCount(1);
  await checkScreen('invoices');
});

test('a new sign-in asks for the second factor again; a recovery code works once', async () => {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Activity' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the dashboard' })).toBeVisible();
  await page.getByLabel('Email').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Two-step verification' })).toBeVisible({
    timeout: 30_000,
  });
  await checkScreen('verify');
  await page.getByLabel('Code').fill(recoveryCodes[0] as string);
  await page.getByRole('button', { name: 'Verify' }).click();
  // Back on the screen the operator left, with the new sign-in at the top of the log.
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  const rows = page.getByRole('table', { name: 'Operator actions' }).locator('tbody tr');
  await expect(rows.nth(0)).toContainText('dashboard.sign_in');
  await expect(rows.nth(0)).toContainText('method: recovery_code');
});

test('an unknown dashboard address says so inside the dashboard', async () => {
  await page.goto(`${shop.url}/admin/no-such-screen`);
  await expect(page.getByRole('heading', { level: 1, name: 'Not found' })).toBeVisible();
  await checkScreen('not-found');
});
