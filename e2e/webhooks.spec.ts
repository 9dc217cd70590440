import type { Page } from '@playwright/test';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import { expect, person, type Shop, test } from './fixtures';
import { authenticator } from './support/authenticator';
import { checkScreen as checkPage } from './support/check-screen';

/**
 * The Webhooks screen from the operator's side: add an endpoint (its secret shown once), watch sign-ups reach a
 * receiver on loopback (WEBHOOKS_ALLOW_LOOPBACK) with a failed and a delivered attempt in the log, redeliver,
 * rotate the secret, disable and enable. Each screen is checked with axe at phone and desktop widths.
 */

test.describe.configure({ mode: 'serial' });

const operator = person('Kavya Operator', 'kavya.ops@example.in', '+919812345670', 'Hawa Mahal at dawn 9');

test.use({ shopOptions: { name: 'webhooks', env: { WEBHOOKS_ALLOW_LOOPBACK: '1' } } });

let shop: Shop;
let receiver: WebhookReceiver;
let page: Page;
let setupKey = '';
let secret = '';
const nextCode = authenticator(() => setupKey);
const checkScreen = (name: string) => checkPage(page, `webhooks-${name}`);

test.beforeAll(async ({ shop: started, openPage }) => {
  test.setTimeout(300_000);
  shop = started;
  receiver = await new WebhookReceiver().start();
  await shop.signUp(operator);
  expect((await shop.admin('operators', 'add', operator.email)).code).toBe(0);
  page = await openPage({ timezoneId: 'Asia/Kolkata' });
  await page.goto(`${shop.url}/admin`);
  await page.getByLabel('Email').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Show the setup code' }).click({ timeout: 30_000 });
  setupKey = ((await page.getByTestId('setup-key').textContent()) ?? '').replace(/\s+/g, '');
  await page.getByLabel('The 6-digit code the app now shows').fill(await nextCode());
  await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
  await page.getByRole('button', { name: /open the dashboard/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
});

test.afterAll(async () => {
  await receiver?.close();
});

test('the operator adds an endpoint and sees its secret once', async () => {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
  await checkScreen('empty');
  // Bad input names its field and adds nothing.
  await page.getByLabel('URL').fill('ftp://files.example.com');
  await page.getByRole('button', { name: 'Add the endpoint' }).click();
  await expect(
    page.getByText('url: an http:// or https:// URL without a user name or password'),
  ).toBeVisible();

  await page.getByLabel('URL').fill(receiver.url('/crm'));
  await page.getByLabel('Description').fill('CRM sign-ups');
  await page.getByRole('checkbox', { name: 'order.paid' }).uncheck();
  await page.getByRole('checkbox', { name: 'order.refunded' }).uncheck();
  await page.getByRole('checkbox', { name: 'customer.created' }).check();
  await page.getByLabel('Code from your authenticator app').fill(await nextCode());
  await page.getByRole('button', { name: 'Add the endpoint' }).click();
  const shown = page.getByRole('status').locator('code');
  await expect(shown).toHaveText(/^whsec_/);
  secret = (await shown.textContent()) ?? '';
  await expect(page.getByRole('table', { name: 'Webhook endpoints' }).locator('tbody tr')).toHaveCount(1);
  await checkScreen('added');
  // Shown once: not after a reload.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);
});

test('sign-ups reach the receiver; a failed attempt and a delivery show, and one is redelivered', async () => {
  test.setTimeout(120_000);
  receiver.answer('/crm', 500);
  await shop.signUp({
    name: 'First Buyer',
    email: 'first.buyer@example.in',
    phone: '+919812345601',
    password: 'Pink city walls 41',
  });
  await expect.poll(() => receiver.at('/crm').length, { timeout: 30_000 }).toBe(1);
  await shop.signUp({
    name: 'Second Buyer',
    email: 'second.buyer@example.in',
    phone: '+919812345602',
    password: 'Pink city walls 42',
  });
  await expect.poll(() => receiver.at('/crm').length, { timeout: 30_000 }).toBe(2);
  const payloads = receiver.at('/crm').map((request) => WebhookReceiver.verify(request, secret));
  expect(payloads.map((payload) => payload.type)).toEqual(['customer.created', 'customer.created']);

  await page.getByRole('link', { name: receiver.url('/crm') }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Webhook endpoint' })).toBeVisible();
  const rows = page.getByRole('table', { name: 'Deliveries, newest first' }).locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('delivered');
  await expect(rows.nth(1)).toContainText('500');
  await expect(rows.nth(1)).toContainText('receiver says 500');
  await checkScreen('deliveries');

  await rows
    .nth(0)
    .getByRole('button', { name: /^Redeliver customer.created/ })
    .click();
  await expect(rows).toHaveCount(3);
  await expect.poll(() => receiver.at('/crm').length, { timeout: 30_000 }).toBe(3);
  expect(receiver.at('/crm')[2]?.headers['webhook-id']).toBe(receiver.at('/crm')[1]?.headers['webhook-id']);
});

test('rotating the secret shows the new one once; disable and enable', async () => {
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  const shown = page.getByRole('status').locator('code');
  await expect(shown).toHaveText(/^whsec_/);
  expect(await shown.textContent()).not.toBe(secret);
  await page.getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByRole('button', { name: 'Enable' })).toBeVisible();
  await expect(page.getByText('Disabled by an operator')).toBeVisible();
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByRole('button', { name: 'Disable' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Activity' }).click();
  const activity = page.getByRole('table', { name: 'Operator actions' }).locator('tbody tr');
  for (const action of [
    'webhook.add',
    'webhook.redeliver',
    'webhook.rotate_secret',
    'webhook.disable',
    'webhook.enable',
  ])
    await expect(activity.filter({ hasText: action })).toHaveCount(1);
});
