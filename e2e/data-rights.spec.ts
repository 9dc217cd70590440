import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { LicenseClient } from '../packages/license-client/src/index';
import { DATA_RIGHTS_MESSAGES } from '../src/shared/privacy';
import { SHOP_MESSAGES } from '../src/shared/shop';
import { SITE } from '../src/shared/site';
import { expect, person, type Shop, test } from './fixtures';
import { buyInRupees, signUpInDialog } from './support/steps';

/**
 * The buyer's data rights on /account, against the real server, a real SMTP server and the Razorpay emulator: buy a
 * tool and run it on a machine, download everything the shop holds, then delete the account — the tool's license
 * answers REVOKED and the address gets the confirmation. The tests share one browser session and run in order.
 */
test.describe.configure({ mode: 'serial' });

const buyer = person('Ishaan Bhandari', 'ishaan.bhandari@example.in', '9812345671', 'Marigold-kite-5531');
const WINDOWS_TOOL = 'PDF Utility Toolkit (Windows)';
const MACHINE = { fingerprint: 'win-studio-desktop-0007', name: 'Studio desktop' };

test.use({ shopOptions: { name: 'data-rights' }, consoleAllowed: /status of 400/ });

let shop: Shop;
let page: Page;
let licenseKey = '';
let client: LicenseClient;

test.beforeAll(async ({ shop: started, openPage }) => {
  shop = started;
  page = await openPage({ timezoneId: 'Asia/Kolkata', locale: 'en-US', acceptDownloads: true });
});

async function expectNoAxeViolations() {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
}

test('a buyer signs up, buys a tool and runs it on one machine', async () => {
  await page.goto(`${shop.url}/utility-tools`);
  await signUpInDialog(page, shop.smtp, buyer);
  await buyInRupees(
    page,
    page.getByRole('article', { name: WINDOWS_TOOL, exact: true }),
    '7 Hawa Mahal Road, Jaipur',
  );
  // The confirmation is said before the new page's title, in the one live region, not replaced by it (issue 63).
  await expect(page.locator('#announcer')).toHaveText(
    `${SHOP_MESSAGES.purchase.success} My Tools — ${SITE.name}`,
  );

  const mail = await shop.smtp.waitFor(
    (m) => m.to.includes(buyer.email) && m.subject === `Your ${WINDOWS_TOOL} license key`,
  );
  licenseKey = /Your license key\s*\n\s*(\S+)/.exec(mail.text)?.[1] ?? '';
  const catalogue = (await (await page.request.get(`${shop.url}/api/my-tools/`)).json()) as Array<{
    _id: string;
  }>;
  client = new LicenseClient({ serverUrl: shop.url, toolId: catalogue[0]?._id ?? '' });
  expect((await client.activate({ licenseKey }, MACHINE.fingerprint, MACHINE.name)).code).toBe('VALID');
});

test('"Download my data" gives one JSON file with the order, the license and its machine', async ({
  snap,
}) => {
  await page.getByRole('button', { name: buyer.name }).click();
  await page.getByRole('menuitem', { name: 'Account' }).click();
  await page.waitForURL(`${shop.url}/account`);
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
  await snap('data-rights-account-data-rights');
});

test('"Delete my account" refuses a wrong password, then erases the account and signs the buyer out', async ({
  snap,
}) => {
  const section = page.getByRole('region', { name: 'Delete account' });
  await expect(section.getByText('Your licenses are revoked')).toBeVisible();
  await section.getByLabel('Password', { exact: true }).fill('not my password');
  await section.getByLabel('Your email address, typed again').fill(buyer.email.toUpperCase());
  await section.getByRole('button', { name: 'Delete my account' }).click();
  const confirm = section.getByRole('alertdialog', { name: /cannot be undone/ });
  await expect(confirm).toBeFocused();
  await expectNoAxeViolations();
  await snap('data-rights-account-delete-confirm');
  await confirm.getByRole('button', { name: 'Yes, delete my account' }).click();
  await expect(section.getByText(DATA_RIGHTS_MESSAGES.wrongPassword)).toBeVisible();
  await expect(section.getByLabel('Password', { exact: true })).toBeFocused();
  expect((await client.validate({ licenseKey }, MACHINE.fingerprint)).code).toBe('VALID');

  await section.getByLabel('Password', { exact: true }).fill(buyer.password);
  await section.getByRole('button', { name: 'Delete my account' }).click();
  await section.getByRole('alertdialog').getByRole('button', { name: 'Yes, delete my account' }).click();
  await page.waitForURL(`${shop.url}/`);
  // Said, then the home page's title after it: the page change does not replace the confirmation (issue 63).
  await expect(page.locator('#announcer')).toHaveText(
    `${DATA_RIGHTS_MESSAGES.erased} ${SITE.name} — Accounting, Tax & Business Consulting in Jaipur`,
  );
  // The purchase's own toast may still be leaving (toasts outlive a page change): this one is the erasure's.
  await expect(
    page.locator('.Toastify__toast--success').filter({ hasText: DATA_RIGHTS_MESSAGES.erased }),
  ).toBeVisible();
  await snap('data-rights-account-deleted-home');

  expect((await client.validate({ licenseKey }, MACHINE.fingerprint)).code).toBe('REVOKED');
  const confirmation = await shop.smtp.waitFor(
    (m) => m.to.includes(buyer.email) && m.subject === 'Your account was deleted',
  );
  expect(confirmation.text).toContain('72 months');
  const check = await (await page.request.get(`${shop.url}/api/auth/check/`)).json();
  expect(check).toMatchObject({ loggedin: false });
});
