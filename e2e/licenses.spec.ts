import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { LicenseClient, type PublicKey, verifyLicenseFile } from '../packages/license-client/src/index';
import { LICENSE_MESSAGES } from '../src/shared/licenses';
import { expect, person, type Shop, test } from './fixtures';
import { buyInRupees, signUpInDialog } from './support/steps';

/**
 * Licenses from the buyer's side, against the real server, a real SMTP server and the Razorpay emulator: buy a
 * tool, take the key from the email, activate two machines through the license API, be refused a third, free one
 * on My Tools in the browser, and activate the third. The tests share one browser session and run in order.
 */
test.describe.configure({ mode: 'serial' });

const buyer = person('Kavya Mathur', 'kavya.mathur@example.in', '9812345670', 'Saffron-lamp-8842');
const WINDOWS_TOOL = 'PDF Utility Toolkit (Windows)';
const machines = {
  a: { fingerprint: 'win-office-desktop-0001', name: 'Office desktop' },
  b: { fingerprint: 'win-home-laptop-000002', name: 'Home laptop' },
  c: { fingerprint: 'win-new-workstation-03', name: 'New workstation' },
};

test.use({ shopOptions: { name: 'licenses' } });

let shop: Shop;
let page: Page;
let licenseKey = '';
let toolId = '';
let client: LicenseClient;
let firstActivationId = '';

test.beforeAll(async ({ shop: started, openPage }) => {
  shop = started;
  page = await openPage({
    timezoneId: 'Asia/Kolkata',
    locale: 'en-US',
    acceptDownloads: true,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
});

const toolCard = () => page.getByRole('article', { name: WINDOWS_TOOL, exact: true });
const key = () => ({ licenseKey });

test('a buyer pays with the emulator and gets the license key by email', async () => {
  await page.goto(`${shop.url}/utility-tools`);
  await signUpInDialog(page, shop.smtp, buyer);
  await buyInRupees(page, toolCard(), '22 Station Road, Jaipur');

  const mail = await shop.smtp.waitFor(
    (m) => m.to.includes(buyer.email) && m.subject === `Your ${WINDOWS_TOOL} license key`,
  );
  licenseKey = /Your license key\s*\n\s*(\S+)/.exec(mail.text)?.[1] ?? '';
  expect(licenseKey).toMatch(/^[A-Z0-9]{5}(-[A-Z0-9]{5}){3}$/);
  const catalogue = (await (await page.request.get(`${shop.url}/api/my-tools/`)).json()) as Array<{
    _id: string;
    name: string;
  }>;
  toolId = catalogue[0]?._id ?? '';
  client = new LicenseClient({ serverUrl: shop.url, toolId });
});

test('the key activates two machines, refuses a third, and the first again uses no seat', async () => {
  const a = await client.activate(key(), machines.a.fingerprint, machines.a.name);
  expect(a).toMatchObject({
    valid: true,
    code: 'VALID',
    license: { activationsUsed: 1, activationLimit: 2 },
  });
  firstActivationId = a.activation?.id ?? '';
  expect((await client.activate(key(), machines.b.fingerprint, machines.b.name)).code).toBe('VALID');
  const c = await client.activate(key(), machines.c.fingerprint, machines.c.name);
  expect(c).toMatchObject({ valid: false, code: 'LIMIT_REACHED', license: { activationsUsed: 2 } });
  const again = await client.activate(key(), machines.a.fingerprint);
  expect(again.activation?.id).toBe(firstActivationId);
  expect(again.license?.activationsUsed).toBe(2);
  expect((await client.validate(key(), machines.a.fingerprint)).code).toBe('VALID');
  const otherTool = new LicenseClient({
    serverUrl: shop.url,
    toolId: '00000000-0000-4000-8000-000000000000',
  });
  expect((await otherTool.validate(key(), machines.a.fingerprint)).code).toBe('WRONG_TOOL');
});

test('My Tools shows the key and the devices, and frees a device with Deactivate', async ({ snap }) => {
  await page.goto(`${shop.url}/my-tools`);
  const card = toolCard();
  await expect(card.getByText(licenseKey)).toBeVisible();
  await card.getByRole('button', { name: 'Copy license key' }).click();
  await expect(card.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(licenseKey);

  const devices = card.getByRole('list', { name: 'Devices' });
  await expect(devices.getByRole('listitem')).toHaveCount(2);
  await expect(card.getByText('2 of 2 devices')).toBeVisible();
  const laptop = devices.getByRole('listitem').filter({ hasText: machines.b.name });
  await expect(laptop.getByText(/Activated \d{1,2} \w{3,4} \d{4}/)).toBeVisible();
  await expect(laptop.getByText(/Last seen/)).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
  await snap('licenses-my-tools-devices');

  await laptop.getByRole('button', { name: `Deactivate ${machines.b.name}` }).click();
  await laptop.getByRole('button', { name: 'Yes, deactivate' }).click();
  // Shown as a toast (and said through the one live region, which holds the same words).
  await expect(page.getByRole('note').filter({ hasText: LICENSE_MESSAGES.deviceDeactivated })).toBeVisible();
  await expect(devices.getByRole('listitem')).toHaveCount(1);
  await expect(card.getByText('1 of 2 devices')).toBeVisible();

  expect((await client.validate(key(), machines.b.fingerprint)).code).toBe('NOT_ACTIVATED');
  const c = await client.activate(key(), machines.c.fingerprint, machines.c.name);
  expect(c).toMatchObject({ valid: true, code: 'VALID', license: { activationsUsed: 2 } });
  await page.reload();
  await expect(devices.getByRole('listitem').filter({ hasText: machines.c.name })).toBeVisible();
});

test('Download license file gives a file that verifies for that device only', async () => {
  const publicKeys: PublicKey[] = await client.publicKeys();
  const office = toolCard()
    .getByRole('list', { name: 'Devices' })
    .getByRole('listitem')
    .filter({ hasText: machines.a.name });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    office.getByRole('link', { name: `Download license file for ${machines.a.name}` }).click(),
  ]);
  const text = readFileSync((await download.path()) ?? '', 'utf8');
  expect(verifyLicenseFile(text, publicKeys, { fingerprint: machines.a.fingerprint, toolId })).toMatchObject({
    valid: true,
    payload: { licenseKey, activationId: firstActivationId },
  });
  expect(verifyLicenseFile(text, publicKeys, { fingerprint: machines.c.fingerprint }).valid).toBe(false);
});
