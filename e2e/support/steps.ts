import { expect, type Locator, type Page } from '@playwright/test';
import type { TestSmtpServer } from '../../test/support/smtp';

type Person = { name: string; email: string; phone: string; password: string };

/**
 * Signs `person` up through the site's own dialogs, as a visitor does: Sign Up, the form, the 4-digit code from the
 * email the server sent, Complete Signup; done when the reloaded page's header names them.
 */
export async function signUpInDialog(page: Page, smtp: TestSmtpServer, person: Person, timeout = 15_000) {
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await completeSignUpDialog(page, smtp, person, timeout);
  await expect(page.getByRole('button', { name: person.name })).toBeVisible({ timeout });
}

/**
 * From the open "Create an Account" dialog: the form, the code from the "Your verification code" email, Complete
 * Signup; done when the page has reloaded.
 */
export async function completeSignUpDialog(
  page: Page,
  smtp: TestSmtpServer,
  person: Person,
  timeout = 15_000,
) {
  const signup = page.getByRole('dialog', { name: 'Create an Account' });
  await signup.getByLabel('Full Name').fill(person.name);
  await signup.getByLabel('Email').fill(person.email);
  await signup.getByLabel('Phone', { exact: true }).fill(person.phone);
  await signup.getByLabel('Password', { exact: true }).fill(person.password);
  await signup.getByLabel('Confirm Password', { exact: true }).fill(person.password);
  await signup.getByRole('button', { name: 'Verify Email' }).click();
  // The code's own email: one sent earlier (a team invitation) may hold a 4-digit number too, such as a year.
  const codeMail = await smtp.waitFor(
    (mail) => mail.to.includes(person.email) && mail.subject === 'Your verification code',
  );
  const verify = page.getByRole('dialog', { name: 'Verify Your Email' });
  await verify.getByLabel('Verification Code').fill(/\b(\d{4})\b/.exec(codeMail.text)?.[1] ?? '');
  // Signup reloads the page after 2 s. Waiting for that reload, not only for the name in the account menu (shown
  // before it too), keeps the next click from landing on the page being replaced.
  const reloaded = page.waitForEvent('load', { timeout });
  await verify.getByRole('button', { name: 'Complete Signup' }).click();
  await reloaded;
}

/**
 * Signs `person` in through the Login dialog with the keyboard alone, from /utility-tools at `siteUrl`; done when the
 * page has reloaded signed in. Signing in reloads the page, and the header names the person before that reload too:
 * waiting for the reload keeps the journey's next key from landing on the page being replaced.
 */
export async function signInByKeyboard(
  page: Page,
  siteUrl: string,
  person: Pick<Person, 'name' | 'email' | 'password'>,
  timeout = 30_000,
) {
  await page.goto(`${siteUrl}/utility-tools`);
  await expect(page.getByRole('button', { name: 'INR' })).toBeVisible({ timeout });
  const login = page.getByRole('dialog', { name: 'Welcome Back' });
  const button = page.getByRole('button', { name: 'Login' }).filter({ visible: true }).first();
  // Until the page has hydrated the button does nothing: pressed again until the dialog shows.
  await expect(async () => {
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(login).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout });
  await page.keyboard.type(person.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(person.password);
  const reloaded = page.waitForEvent('load', { timeout });
  await page.keyboard.press('Enter');
  await reloaded;
  await expect(page.getByRole('button', { name: person.name })).toBeAttached({ timeout });
}

/**
 * Buys in rupees with the Razorpay emulator: INR, the card's `Windows - ₹1,499.00` button, the billing form (an
 * address in Rajasthan), Simulate success; done when My Tools has opened.
 */
export async function buyInRupees(page: Page, card: Locator, address: string, timeout = 15_000) {
  await page.getByRole('button', { name: 'INR' }).click();
  await card.getByRole('button', { name: 'Windows - ₹1,499.00' }).click();
  const billing = page.getByRole('dialog', { name: 'Billing Information', exact: true });
  await billing.getByLabel('Address').fill(address);
  await billing.getByLabel('State').selectOption('Rajasthan');
  await billing.getByRole('button', { name: 'Proceed to Payment' }).click();
  await page
    .getByRole('dialog', { name: 'Razorpay Test Checkout' })
    .getByRole('button', { name: 'Simulate success' })
    .click();
  await page.waitForURL(/\/my-tools$/, { timeout });
}

/** Switches to INR, opens the billing dialog from the buy button of that name and fills it validly (Rajasthan). */
export async function openInrBilling(
  page: Page,
  buyButton: string | RegExp,
  address = '14 Civil Lines, Ajmer Road',
) {
  await page.getByRole('button', { name: 'INR' }).click();
  await page.getByRole('button', { name: buyButton }).click();
  const billing = page.getByRole('dialog', { name: 'Billing Information', exact: true });
  await billing.getByLabel('Address').fill(address);
  await billing.getByLabel('State').selectOption('Rajasthan');
  return billing;
}

/**
 * The operator's first sign-in on the dashboard's sign-in screen, up to the setup code for the authenticator app:
 * email, password, Continue, the two-step setup, Show the setup code. Returns the key (spaces removed).
 */
export async function startOperatorEnrolment(page: Page, operator: { email: string; password: string }) {
  await page.getByLabel('Email').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  // Password hashing is deliberately slow (scrypt), more so on a busy machine.
  await expect(page.getByRole('heading', { level: 1, name: 'Set up two-step verification' })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'Show the setup code' }).click();
  return ((await page.getByTestId('setup-key').textContent()) ?? '').replace(/\s+/g, '');
}
