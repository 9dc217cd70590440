import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { LicenseClient } from '../packages/license-client/src/index';
import { DATA_RIGHTS_MESSAGES } from '../src/shared/privacy';
import { TestSmtpServer } from '../test/support/smtp';
import { type RunningServer, startServer } from './support/server';

/**
 * The buyer's data rights on /account, against the real server, a real SMTP server and the Razorpay emulator: buy a
 * tool and run it on a machine, download everything the shop holds, then delete the account — the tool's license
 * answers REVOKED and the address gets the confirmation. The tests share one browser session and run in order.
 */
test.describe.configure({ mode: 'serial' });

const buyer = {
  name: 'Ishaan Bhandari',
  email: 'ishaan.bhandari@example.in',
  phone: '9812345671',
  password: 'Marigold-kite-5531',
};
const WINDOWS_TOOL = 'PDF Utility Toolkit (Windows)';
const MACHINE = { fingerprint: 'win-studio-desktop-0007', name: 'Studio desktop' };

let smtp: TestSmtpServer;
let server: RunningServer;
let context: BrowserContext;
let page: Page;
let consoleErrors: string[] = [];
let licenseKey = '';
let client: LicenseClient;

test.beforeAll(async ({ browser }) => {
  smtp = await new TestSmtpServer().start();
  server = await startServer({ SMTP_URL: smtp.url });
  context = await browser.newContext({ timezoneId: 'Asia/Kolkata', locale: 'en-US', acceptDownloads: true });
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
  await smtp?.stop();
});

test.afterEach(() => {
  // The wrong password's 400 is the one failed request the browser reports, and it is expected.
  const unexpected = consoleErrors.filter((text) => !/status of 400/.test(text));
  expect(unexpected, 'no console errors').toEqual([]);
  consoleErrors = [];
});

async function snap(name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const original = page.viewportSize();
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}

async function expectNoAxeViolations() {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
}

test('a buyer signs up, buys a tool and runs it on one machine', async () => {
  await page.goto(`${server.url}/utility-tools`);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  const signup = page.getByRole('dialog', { name: 'Create an Account' });
  await signup.getByLabel('Full Name').fill(buyer.name);
  await signup.getByLabel('Email').fill(buyer.email);
  await signup.getByLabel('Phone', { exact: true }).fill(buyer.phone);
  await signup.getByLabel('Password', { exact: true }).fill(buyer.password);
  await signup.getByLabel('Confirm Password', { exact: true }).fill(buyer.password);
  await signup.getByRole('button', { name: 'Verify Email' }).click();
  const codeMail = await smtp.waitFor((mail) => mail.to.includes(buyer.email) && /\b\d{4}\b/.test(mail.text));
  const verify = page.getByRole('dialog', { name: 'Verify Your Email' });
  await verify.getByLabel('Verification Code').fill(/\b(\d{4})\b/.exec(codeMail.text)?.[1] ?? '');
  await verify.getByRole('button', { name: 'Complete Signup' }).click();
  await expect(page.getByRole('button', { name: buyer.name })).toBeVisible({ timeout: 15_000 });

  await page.getByRole('button', { name: 'INR' }).click();
  await page
    .getByRole('article', { name: WINDOWS_TOOL, exact: true })
    .getByRole('button', { name: 'Windows - ₹1,499.00' })
    .click();
  const billing = page.getByRole('dialog', { name: 'Billing Information', exact: true });
  await billing.getByLabel('Address').fill('7 Hawa Mahal Road, Jaipur');
  await billing.getByLabel('State').selectOption('Rajasthan');
  await billing.getByRole('button', { name: 'Proceed to Payment' }).click();
  await page
    .getByRole('dialog', { name: 'Razorpay Test Checkout' })
    .getByRole('button', { name: 'Simulate success' })
    .click();
  await page.waitForURL(`${server.url}/my-tools`, { timeout: 15_000 });

  const mail = await smtp.waitFor(
    (m) => m.to.includes(buyer.email) && m.subject === `Your ${WINDOWS_TOOL} license key`,
  );
  licenseKey = /Your license key\s*\n\s*(\S+)/.exec(mail.text)?.[1] ?? '';
  const catalogue = (await (await page.request.get(`${server.url}/api/my-tools/`)).json()) as Array<{
    _id: string;
  }>;
  client = new LicenseClient({ serverUrl: server.url, toolId: catalogue[0]?._id ?? '' });
  expect((await client.activate({ licenseKey }, MACHINE.fingerprint, MACHINE.name)).code).toBe('VALID');
});

test('"Download my data" gives one JSON file with the order, the license and its machine', async () => {
  await page.getByRole('button', { name: buyer.name }).click();
  await page.getByRole('menuitem', { name: 'Account' }).click();
  await page.waitForURL(`${server.url}/account`);
  const yourData = page.getByRole('region', { name: 'Your data' });
  await expect(yourData).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    yourData.getByRole('link', { name: 'Download my data' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^pinkcity-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(readFileSync((await download.path()) ?? '', 'utf8'));
  expect(data.profile).toMatchObject({ name: buyer.name, email: buyer.email });
  expect(data.orders).toHaveLength(1);
  expect(data.invoices).toHaveLength(1);
  expect(data.licenses[0]).toMatchObject({ licenseKey, status: 'active' });
  expect(data.licenses[0].devices[0]).toMatchObject({ name: MACHINE.name });
  expect(data.summary).toContain('1 order, 1 tax invoice');

  await expectNoAxeViolations();
  await snap('account-data-rights');
});

test('"Delete my account" refuses a wrong password, then erases the account and signs the buyer out', async () => {
  const section = page.getByRole('region', { name: 'Delete account' });
  await expect(section.getByText('Your licenses are revoked')).toBeVisible();
  await section.getByLabel('Password', { exact: true }).fill('not my password');
  await section.getByLabel('Your email address, typed again').fill(buyer.email.toUpperCase());
  await section.getByRole('button', { name: 'Delete my account' }).click();
  const confirm = section.getByRole('alertdialog', { name: /cannot be undone/ });
  await expect(confirm).toBeFocused();
  await expectNoAxeViolations();
  await snap('account-delete-confirm');
  await confirm.getByRole('button', { name: 'Yes, delete my account' }).click();
  await expect(section.getByText(DATA_RIGHTS_MESSAGES.wrongPassword)).toBeVisible();
  await expect(section.getByLabel('Password', { exact: true })).toBeFocused();
  expect((await client.validate({ licenseKey }, MACHINE.fingerprint)).code).toBe('VALID');

  await section.getByLabel('Password', { exact: true }).fill(buyer.password);
  await section.getByRole('button', { name: 'Delete my account' }).click();
  await section.getByRole('alertdialog').getByRole('button', { name: 'Yes, delete my account' }).click();
  await page.waitForURL(`${server.url}/`);
  // The purchase's own toast may still be leaving (toasts outlive a page change): this one is the erasure's.
  await expect(
    page.locator('.Toastify__toast--success').filter({ hasText: DATA_RIGHTS_MESSAGES.erased }),
  ).toBeVisible();
  await snap('account-deleted-home');

  expect((await client.validate({ licenseKey }, MACHINE.fingerprint)).code).toBe('REVOKED');
  const confirmation = await smtp.waitFor(
    (m) => m.to.includes(buyer.email) && m.subject === 'Your account was deleted',
  );
  expect(confirmation.text).toContain('72 months');
  const check = await (await page.request.get(`${server.url}/api/auth/check/`)).json();
  expect(check).toMatchObject({ loggedin: false });
});
