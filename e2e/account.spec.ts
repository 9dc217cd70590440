import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, type Shop, test, uniqueEmail } from './fixtures';
import { virtualAuthenticator } from './support/authenticator';
import { checkScreen as checkPage } from './support/check-screen';

/**
 * The /account page in a real browser over the real server and a real SMTP server (issue 33): the password change
 * signs another browser out, the email change confirmed by the code the new address receives, "Sign out everywhere
 * else", and a passkey added with Chromium's virtual authenticator and used to sign a fresh browser in. axe at 390
 * and 1440 px; screenshots into SHOTS_DIR when it is set.
 */

test.use({ shopOptions: { name: 'account' } });

let shop: Shop;
test.beforeAll(({ shop: started }) => {
  shop = started;
});

const PASSWORD = 'Account page 2026';

/** A call from the page, as the site's own fetch wrapper makes it (the CSRF cookie echoed). */
function callApi(page: Page, method: string, url: string, body: Record<string, string>) {
  return page.evaluate(
    async ({ method, url, body }) => {
      await fetch('/api/csrf-token/', { credentials: 'include' });
      const token = /(?:^|; )csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? '';
      const response = await fetch(url, {
        method,
        credentials: 'include',
        headers: { 'X-CSRFToken': decodeURIComponent(token) },
        body: new URLSearchParams(body),
      });
      return response.status;
    },
    { method, url, body },
  );
}

type Buyer = { context: BrowserContext; page: Page; email: string; name: string };

/** A new account, signed up through the API with the emailed code, in a browser context of its own. */
async function newBuyer(browser: Browser, label: string): Promise<Buyer> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const buyer = {
    name: `Buyer ${label}`,
    email: uniqueEmail(label),
    phone: '+919876543210',
    password: PASSWORD,
  };
  await shop.signUp(buyer, context.request);
  await page.goto(`${shop.url}/utility-tools`);
  return { context, page, email: buyer.email, name: buyer.name };
}

/** Another browser signed in to the same account with its password. */
async function secondBrowser(browser: Browser, email: string, password = PASSWORD) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${shop.url}/utility-tools`);
  expect(await callApi(page, 'POST', '/api/auth/login/', { email, password })).toBe(200);
  return { context, page };
}

const signedIn = async (page: Page) =>
  (await (await page.request.get(`${shop.url}/api/auth/check/`)).json()).loggedin as boolean;

const section = (page: Page, name: string) => page.getByRole('region', { name });

async function openAccount(page: Page) {
  await page.goto(`${shop.url}/account`);
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  await expect(section(page, 'Sessions').getByText('This browser')).toBeVisible();
}

const checkScreen = (page: Page, name: string) =>
  checkPage(page, `account-${name}`, { noHorizontalScroll: true });

test('a signed-out visitor is asked to sign in on /account; the user menu leads to Account', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${shop.url}/account`);
  await expect(page.getByRole('dialog', { name: 'Welcome Back' })).toBeVisible();
  await expect(page).toHaveURL(`${shop.url}/account`);
  const html = await (await fetch(`${shop.url}/account`)).text();
  // Unlisted, as /my-tools is: a canonical link and no place in the sitemap (issue 56).
  expect(html).toContain(`<link rel="canonical" href="`);
  expect(html).not.toContain('<meta name="robots"');
  expect(await (await fetch(`${shop.url}/sitemap.xml`)).text()).not.toContain('/account');

  const buyer = await newBuyer(browser, 'menu');
  await buyer.page.goto(`${shop.url}/utility-tools`);
  await buyer.page.getByRole('button', { name: buyer.name }).click();
  await buyer.page.getByRole('menuitem', { name: 'Account' }).click();
  await buyer.page.waitForURL(`${shop.url}/account`);
  await expect(section(buyer.page, 'Profile').getByLabel('Full Name')).toHaveValue(buyer.name);
  // The checkout reminders (issue 55) are an optional email like the others: on until turned off here.
  const reminders = section(buyer.page, 'Email preferences').getByLabel('Checkout reminders');
  await expect(reminders).toBeChecked();
  await reminders.uncheck();
  await expect
    .poll(async () => (await buyer.page.request.get(`${shop.url}/api/account/email-preferences`)).json())
    .toMatchObject({ checkoutReminders: false });
  await checkScreen(buyer.page, 'page');
  await context.close();
  await buyer.context.close();
});

test('changing the password signs the other browser out and emails a notice', async ({ browser }) => {
  const buyer = await newBuyer(browser, 'password');
  const other = await secondBrowser(browser, buyer.email);
  await openAccount(buyer.page);
  const form = section(buyer.page, 'Password');
  await form.getByRole('textbox', { name: 'Current Password' }).fill('not the password');
  await form.getByRole('textbox', { name: 'New Password', exact: true }).fill('A brand new one 9');
  await form.getByRole('textbox', { name: 'Confirm New Password' }).fill('A brand new one 9');
  await form.getByRole('button', { name: 'Change Password' }).click();
  await expect(form.getByText('Your current password is not right.')).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Current Password' })).toBeFocused();
  expect(await signedIn(other.page)).toBe(true);

  await form.getByRole('textbox', { name: 'Current Password' }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Change Password' }).click();
  // Password hashing is deliberately slow (scrypt), more so on a busy machine.
  await expect(form.getByText('Every other browser was signed out.')).toBeVisible({ timeout: 30_000 });
  expect(await signedIn(buyer.page)).toBe(true);
  expect(await signedIn(other.page)).toBe(false);
  await other.page.goto(`${shop.url}/account`);
  await expect(other.page.getByRole('dialog', { name: 'Welcome Back' })).toBeVisible();
  expect((await shop.mailTo(buyer.email, 'Your password was changed')).text).toContain('/Contact');
  await buyer.context.close();
  await other.context.close();
});

test('the email moves to a new address confirmed by the code sent there; the old one is told', async ({
  browser,
}) => {
  const buyer = await newBuyer(browser, 'old');
  const moved = uniqueEmail('new');
  await openAccount(buyer.page);
  const form = section(buyer.page, 'Email');
  await form.getByLabel('New Email').fill(moved);
  await form.getByRole('button', { name: 'Send Code' }).click();
  const code = await shop.codeIn(moved, 'Confirm your new email address', 6);
  await expect(form.getByLabel('Verification Code')).toBeFocused();
  // The same 6-digit field as the other codes: a numeric keypad, the code offered from the mail, 6 at most (issue 63).
  const codeField = form.getByLabel('Verification Code');
  await expect(codeField).toHaveAttribute('maxlength', '6');
  await expect(codeField).toHaveAttribute('inputmode', 'numeric');
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(codeField).toHaveAccessibleDescription(/^The 6-digit code we emailed to /);
  await form.getByLabel('Verification Code').fill(code === '000000' ? '111111' : '000000');
  await form.getByRole('button', { name: 'Confirm Email' }).click();
  await expect(form.getByText('Invalid or expired verification code.').first()).toBeVisible();

  await form.getByLabel('Verification Code').fill(code);
  await form.getByRole('button', { name: 'Confirm Email' }).click();
  await expect(form.getByText(`Your email is now ${moved}.`)).toBeVisible();
  await expect(form.getByText(moved, { exact: true })).toBeVisible();
  expect((await shop.mailTo(buyer.email, 'Your email address was changed')).text).toContain(
    `${shop.url}/Contact`,
  );
  await buyer.context.close();
});

test('"Sign out everywhere else" ends the other browsers and keeps this one', async ({ browser }) => {
  const buyer = await newBuyer(browser, 'everywhere');
  const other = await secondBrowser(browser, buyer.email);
  await openAccount(buyer.page);
  const sessions = section(buyer.page, 'Sessions');
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(sessions.getByText('1 other browser was signed out.')).toBeVisible();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  expect(await signedIn(other.page)).toBe(false);
  expect(await signedIn(buyer.page)).toBe(true);
  await buyer.context.close();
  await other.context.close();
});

test('a passkey added on the account page signs a fresh browser in', async ({ browser }) => {
  const buyer = await newBuyer(browser, 'passkey');
  await openAccount(buyer.page);
  const first = await virtualAuthenticator(buyer.page);
  const passkeys = section(buyer.page, 'Passkeys');
  await passkeys.getByLabel('Passkey Name').fill('Test laptop');
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(passkeys.getByText('Test laptop', { exact: true })).toBeVisible();
  await checkScreen(buyer.page, 'passkey');
  const { credentials } = await first.cdp.send('WebAuthn.getCredentials', {
    authenticatorId: first.authenticatorId,
  });
  expect(credentials).toHaveLength(1);

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${shop.url}/utility-tools`);
  const second = await virtualAuthenticator(page);
  await second.cdp.send('WebAuthn.addCredential', {
    authenticatorId: second.authenticatorId,
    credential: credentials[0] as never,
  });
  await page.getByRole('button', { name: 'Login' }).click();
  const login = page.getByRole('dialog', { name: 'Welcome Back' });
  await expect(login.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  await login.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('button', { name: buyer.name })).toBeVisible({ timeout: 15_000 });
  expect(await signedIn(page)).toBe(true);

  await buyer.page.reload();
  await expect(section(buyer.page, 'Passkeys').getByText(/Last used/)).toBeVisible();
  await context.close();
  await buyer.context.close();
});
