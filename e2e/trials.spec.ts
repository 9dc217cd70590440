import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { expect, person, type Shop, test } from './fixtures';
import { checkScreen as checkPage } from './support/check-screen';
import { startOperatorEnrolment } from './support/steps';

/**
 * Free trials in the browser: the operator gives a tool 14 trial days from the command line; a signed-out visitor's
 * "Try free" opens the login dialog, a signed-in one starts the trial from the card; My Tools shows the days left
 * with the key and end date and "Buy — keeps this key", which opens the billing form; the dashboard counts the trial on Overview and the tool's page.
 * Every screen is checked with axe at 390 and 1440 px (screenshots into SHOTS_DIR when set).
 */
test.describe.configure({ mode: 'serial' });

const WINDOWS_TOOL = 'PDF Utility Toolkit (Windows)';
const buyer = person('Ritu Sharma', 'ritu.sharma@example.in', '+919845012345', 'Marigold-window-4417');
const operator = person('Dev Operator', 'dev.ops@example.in', '+919845067890', 'Sandstone-arch-9023');

test.use({ shopOptions: { name: 'trials' } });

let shop: Shop;
let page: Page;
let toolId = '';
let trialKey = '';

const checkScreen = (name: string) => checkPage(page, `trials-${name}`);

async function logIn(person: typeof buyer) {
  const login = page.getByRole('dialog', { name: 'Welcome Back' });
  await login.getByLabel('Email').fill(person.email);
  await login.getByRole('textbox', { name: 'Password' }).fill(person.password);
  await login.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(login).toBeHidden({ timeout: 30_000 });
}

const toolCard = () => page.getByRole('article', { name: WINDOWS_TOOL, exact: true });

test.beforeAll(async ({ shop: started, openPage }) => {
  test.setTimeout(300_000);
  shop = started;
  const listed = await shop.admin('tools', 'list', '--json');
  expect(listed.code, listed.stderr).toBe(0);
  const tools = JSON.parse(listed.stdout) as Array<{ _id: string; name: string; device: string | null }>;
  toolId = tools.find((tool) => tool.device === 'Windows' && tool.name === 'PDF Utility Toolkit')?._id ?? '';
  const edited = await shop.admin('tools', 'edit', toolId, '--trial-days', '14');
  expect(edited.code, edited.stderr).toBe(0);
  await shop.signUp(buyer);
  await shop.signUp(operator);
  expect((await shop.admin('operators', 'add', operator.email)).code).toBe(0);

  page = await openPage({ timezoneId: 'Asia/Kolkata', locale: 'en-US' });
});

test('signed out, "Try free for 14 days" sits under the unchanged buy button and opens the login dialog', async () => {
  await page.goto(`${shop.url}/utility-tools`);
  const card = toolCard();
  await expect(card.getByRole('button', { name: /^Windows - / })).toBeVisible();
  const tryFree = card.getByRole('button', { name: 'Try free for 14 days' });
  await expect(tryFree).toBeVisible();
  await checkScreen('catalogue-signed-out');
  await tryFree.focus();
  await page.keyboard.press('Enter');
  const login = page.getByRole('dialog', { name: 'Welcome Back' });
  await expect(login).toBeVisible();
  // The dialog says what signing in is for here: the trial, not buying.
  await expect(
    login.getByText(`Sign in (or sign up) to start your 14-day free trial of ${WINDOWS_TOOL}.`, {
      exact: false,
    }),
  ).toBeVisible();
  await checkScreen('login-for-trial');
});

test('signed in, the trial starts from the keyboard, is announced and emailed, and the link goes away', async () => {
  await logIn(buyer);
  const tryFree = toolCard().getByRole('button', { name: 'Try free for 14 days' });
  await expect(tryFree).toBeVisible();
  await checkScreen('catalogue-signed-in');
  await tryFree.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#announcer')).toHaveText(/Your 14-day free trial has started/);
  await expect(tryFree).toBeHidden();
  await expect(toolCard().getByRole('button', { name: /^Windows - / })).toBeFocused();
  const mail = await shop.smtp.waitFor((m) => m.to.includes(buyer.email) && /free trial/.test(m.subject));
  trialKey = /[23456789A-Z]{5}(-[23456789A-Z]{5}){3}/.exec(mail.text)?.[0] ?? '';
  expect(trialKey).not.toBe('');
  expect(mail.text).toContain('ends on');
  // The card now says how long the trial has left.
  await expect(toolCard().getByText('Trial: 14 days left')).toBeVisible();
});

test('My Tools shows the trial’s key, end date and days left; “Buy — keeps this key” opens the billing form', async () => {
  await page.goto(`${shop.url}/my-tools`);
  const card = page.getByRole('article', { name: WINDOWS_TOOL, exact: true });
  await expect(card.getByText('Free trial · 14 days left')).toBeVisible();
  const ends = new Date(Date.now() + 14 * 24 * 60 * 60 * 1000);
  const endText = new Intl.DateTimeFormat('en-IN', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'Asia/Kolkata',
  }).format(ends);
  await expect(card.getByText(`Ends on ${endText}`)).toBeVisible();
  await expect(card.getByRole('region', { name: 'Trial license' }).locator('code')).toHaveText(trialKey);
  await checkScreen('my-tools');
  await card.getByRole('button', { name: 'Buy — keeps this key' }).click();
  await expect(page).toHaveURL(/\/utility-tools$/);
  await expect(page.getByRole('dialog', { name: /^Billing Information/ })).toBeVisible();
  await page.keyboard.press('Escape');
});

test('the dashboard counts the trial on Overview and on the tool’s page', async () => {
  test.setTimeout(180_000);
  await page.context().clearCookies();
  await page.goto(`${shop.url}/admin`);
  const secret = await startOperatorEnrolment(page, operator);
  await page.getByLabel('The 6-digit code the app now shows').fill(await generate({ secret }));
  await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
  await page.getByRole('button', { name: /open the dashboard/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();

  const card = (title: string) =>
    page.locator('section', { has: page.getByRole('heading', { name: title, exact: true }) });
  const figures = card('Free trials, every tool');
  await expect(figures.getByText('Started')).toBeVisible();
  await expect(figures.locator('dd').nth(0)).toHaveText('1');
  await expect(figures.locator('dd').nth(1)).toHaveText('1');
  await expect(figures.locator('dd').nth(3)).toHaveText('0 %');
  await checkScreen('dashboard-overview');

  await page.goto(`${shop.url}/admin/tools/${toolId}`);
  await expect(page.getByLabel('Trial days')).toHaveValue('14');
  const panel = card('Free trials');
  await expect(panel.getByText(buyer.email)).toBeVisible();
  await checkScreen('dashboard-tool');
  await panel.getByRole('button', { name: `Extend the trial of ${buyer.email} by 7 days` }).click();
  await expect(page.locator('#announcer')).toHaveText('Trial extended by 7 days.');
});

test('signed out, /my-tools asks to sign in and lands there; the trial bought, its key is listed as purchased', async () => {
  await page.context().clearCookies();
  await page.goto(`${shop.url}/my-tools`);
  const login = page.getByRole('dialog', { name: 'Welcome Back' });
  await expect(login).toBeVisible();
  await expect(
    login.getByText('Sign in to see your tools, trials and orders.', { exact: false }),
  ).toBeVisible();
  await logIn(buyer);
  await expect(page).toHaveURL(`${shop.url}/my-tools`);
  await expect(page.getByRole('button', { name: buyer.name })).toBeFocused();
  const card = page.getByRole('article', { name: WINDOWS_TOOL, exact: true });
  await card.getByRole('button', { name: 'Buy — keeps this key' }).click();
  await expect(page).toHaveURL(/\/utility-tools$/);
  const billing = page.getByRole('dialog', { name: /^Billing Information/ });
  await expect(billing).toBeVisible();
  // This browser is en-US: the international form, in USD.
  await billing.getByLabel('Country').selectOption('United States');
  await billing.getByRole('button', { name: 'Proceed to Payment' }).click();
  await page
    .getByRole('dialog', { name: 'Razorpay Test Checkout' })
    .getByRole('button', { name: 'Simulate success' })
    .click();
  await page.waitForURL(`${shop.url}/my-tools`, { timeout: 15_000 });
  const bought = page.getByRole('article', { name: WINDOWS_TOOL, exact: true });
  await expect(bought.getByText(/^Purchased: /)).toBeVisible();
  await expect(bought.getByText('Free trial', { exact: false })).toHaveCount(0);
  await expect(bought.getByRole('region', { name: 'License' }).locator('code')).toHaveText(trialKey);
  await expect(bought.getByRole('button', { name: 'Get Credentials' })).toBeVisible();
});
