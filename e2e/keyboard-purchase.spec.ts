import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { LicenseClient } from '../packages/license-client/src/index';
import { LICENSE_MESSAGES } from '../src/shared/licenses';
import { expect, person, type Shop, test } from './fixtures';
import { expectVisibleFocus, tabTo as tabToIn } from './support/focus';

/**
 * The whole first purchase with the keyboard alone (Tab, Shift+Tab, Enter, Space, arrows, Escape), as a buyer who
 * cannot use a mouse does it: buy while signed out, sign up with the emailed code, carry on with the same tool and
 * currency after the reload, fill the billing form, close the checkout and open it again, pay, then on My Tools copy
 * the key, download a license file, start and cancel a deactivation, ask for the credentials again, fetch the
 * invoice, and sign out. After every step focus is on a visible, named control with a 2 px, 3:1 focus indicator,
 * on freshly loaded pages too. Each dialog is checked with axe and through the accessibility tree.
 */
test.describe.configure({ mode: 'serial' });

const buyer = person('Kavya Menon', 'kavya.menon@example.in', '9823456710', 'Monsoon-ledger-4417');
const WINDOWS_TOOL = 'PDF Utility Toolkit (Windows)';
const BUY_INR = 'Windows - ₹1,499.00: buy PDF Utility Toolkit (Windows)';
const ADDRESS = '7 MI Road, Jaipur';
// The wrong code is refused with a 400, which the browser itself logs.
test.use({ shopOptions: { name: 'keyboard-purchase' }, consoleAllowed: /status of 400/ });

let shop: Shop;
let page: Page;

test.beforeAll(async ({ shop: started, openPage }) => {
  shop = started;
  page = await openPage({
    viewport: { width: 1440, height: 900 },
    timezoneId: 'Asia/Kolkata',
    locale: 'en-US',
    acceptDownloads: true,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
});

const tabTo = (name: string | RegExp, options?: { back?: boolean; max?: number }) =>
  tabToIn(page, name, options);

/** Reads the dialog as a screen reader does: named, modal, the page behind it out of reach; axe finds nothing. */
async function checkDialog(dialog: Locator, name: string) {
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAccessibleName(name);
  const modal = await dialog.evaluate((node) => ({
    native: node instanceof HTMLDialogElement && node.matches(':modal'),
    ariaModal: node.getAttribute('aria-modal') === 'true',
    // Everything the page had before the dialog is out of the accessibility tree and of Tab's reach.
    rootInert: (document.getElementById('root') as HTMLElement & { inert: boolean }).inert,
  }));
  expect(modal.native || (modal.ariaModal && modal.rootInert), `${name} is modal`).toBe(true);
  // The page behind is out of the accessibility tree: in Chromium's own tree its heading is ignored while it is open.
  expect(await headingExposed(/^(Utility Tools|My Tools)$/), `${name}: the page behind is hidden`).toBe(
    false,
  );

  const results = await new AxeBuilder({ page }).include(await dialogSelector(dialog)).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

/** Whether a level-1 heading with this name is in Chromium's accessibility tree (not ignored), as a screen reader finds it. */
async function headingExposed(name: RegExp): Promise<boolean> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Accessibility.enable');
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const headings = nodes.filter(
      (node) => node.role?.value === 'heading' && name.test(String(node.name?.value ?? '')),
    );
    return headings.some((node) => !node.ignored);
  } finally {
    await cdp.detach();
  }
}

async function dialogSelector(dialog: Locator): Promise<string> {
  return dialog.evaluate((node) => {
    if (!node.id) node.id = `dialog-${Math.random().toString(36).slice(2)}`;
    return `#${node.id}`;
  });
}

/** The dialog at both widths: named, modal, required fields said to be required, and axe-clean. */
async function checkDialogAtBothWidths(dialog: Locator, name: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: width < 768 ? 844 : 900 });
    await checkDialog(dialog, name);
  }
}

function toolCard(name: string) {
  return page.getByRole('article', { name, exact: true });
}

test('a fresh page shows the focus ring from the first Tab, at a phone’s width and a desktop’s', async ({
  snap,
}) => {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: width < 768 ? 844 : 900 });
    await page.goto(`${shop.url}/utility-tools`);
    await expect(toolCard(WINDOWS_TOOL)).toBeVisible();
    await page.keyboard.press('Tab');
    await expectVisibleFocus(page, `first Tab at ${width}`, 'Skip to content');
    await page.keyboard.press('Tab');
    await expectVisibleFocus(page, `second Tab at ${width}`, /home/);
    // With no dialog open the page's heading is in the tree (the check the dialogs below rely on).
    expect(await headingExposed(/^Utility Tools$/)).toBe(true);
    await snap(`keyboard-purchase-fresh-page-second-tab-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('signed out, the buyer picks the currency and a tool, and signs up from the login dialog', async ({
  snap,
}) => {
  await page.goto(`${shop.url}/utility-tools`);
  await expect(toolCard(WINDOWS_TOOL)).toBeVisible();
  await tabTo('INR');
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'INR', pressed: true })).toBeVisible();
  await expectVisibleFocus(page, 'currency chosen', 'INR');

  await tabTo(BUY_INR);
  await page.keyboard.press('Enter');
  const login = page.getByRole('dialog', { name: 'Welcome Back' });
  await checkDialogAtBothWidths(login, 'Welcome Back');
  await page.setViewportSize({ width: 1440, height: 900 });
  await expectVisibleFocus(page, 'login dialog opened', /Email/);
  await tabTo('Sign up');
  await page.keyboard.press('Enter');

  const signup = page.getByRole('dialog', { name: 'Create an Account' });
  await expect(signup).toBeVisible();
  await expectVisibleFocus(page, 'signup dialog opened', /Full Name/);
  // Every field is said to be required (five inputs, each `required`, which is aria-required for a screen reader).
  for (const label of [/^Full Name/, /^Email/, /^Phone/, /^Password/, /^Confirm Password/]) {
    await expect(signup.getByLabel(label).first()).toHaveAttribute('required', '');
  }

  // An empty form: the first §5 message, described on its field, which takes focus.
  await tabTo('Verify Email');
  await page.keyboard.press('Enter');
  const name = signup.getByRole('textbox', { name: 'Full Name' });
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAccessibleDescription('Name is required');
  await expectVisibleFocus(page, 'empty signup submitted', /Full Name/);
  await checkDialogAtBothWidths(signup, 'Create an Account');
  await page.setViewportSize({ width: 1440, height: 900 });
  await snap('keyboard-purchase-signup-error-focus');

  await page.keyboard.type(buyer.name);
  await page.keyboard.press('Tab');
  await page.keyboard.type(buyer.email);
  await tabTo(/^Country code/);
  await page.keyboard.press('Tab');
  await page.keyboard.type(buyer.phone);
  await page.keyboard.press('Tab');
  await page.keyboard.type(buyer.password);
  await tabTo(/^Confirm Password/);
  await page.keyboard.type(buyer.password);
  await page.keyboard.press('Enter');

  const verify = page.getByRole('dialog', { name: 'Verify Your Email' });
  await expect(verify).toBeVisible();
  await expectVisibleFocus(page, 'code step', /Verification Code/);
  const codeMail = await shop.smtp.waitFor(
    (mail) => mail.to.includes(buyer.email) && /\b\d{4}\b/.test(mail.text),
  );
  const code = /\b(\d{4})\b/.exec(codeMail.text)?.[1] as string;

  // A wrong code submitted with Enter: focus stays in the field, and the live region reads the refusal out.
  const wrong = code === '1111' ? '2222' : '1111';
  await page.keyboard.type(wrong);
  await page.keyboard.press('Enter');
  const codeField = verify.getByRole('textbox', { name: 'Verification Code' });
  await expect
    .poll(async () => {
      const announced = (await page.locator('#announcer').textContent()) ?? '';
      const alert = (await verify.getByRole('alert').allTextContents()).join(' ');
      return `${announced} ${alert}`.trim();
    })
    .not.toBe('');
  await expectVisibleFocus(page, 'wrong code refused', /Verification Code/);
  await checkDialogAtBothWidths(verify, 'Verify Your Email');
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  await expect(verify.getByText('Registration successful! You are now logged in.')).toBeVisible();
  await expect(codeField).toBeDisabled();
});

test('after the reload the purchase carries on: the same tool, in the chosen currency', async ({ snap }) => {
  // The page reloads 2 s after signing up; the billing dialog opens for the tool the buyer was buying, in INR.
  const billing = page.getByRole('dialog', { name: 'Billing Information', exact: true });
  await expect(billing).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: buyer.name })).toBeAttached();
  await expect(billing.getByText(WINDOWS_TOOL)).toBeVisible();
  await expect(billing.getByText('Prices include GST.')).toBeVisible();
  await expectVisibleFocus(page, 'billing dialog after the reload', /Address/);

  // The state is asked as required but not reported invalid before it is touched.
  const state = billing.getByRole('combobox', { name: 'State' });
  await expect(state).toHaveAttribute('aria-required', 'true');
  await expect(state).not.toHaveAttribute('aria-invalid', /.*/);
  // No state yet: GST is one line, not split into CGST and SGST or IGST (issue 63).
  const summary = billing.getByRole('region', { name: 'Order summary' });
  await expect(summary).toContainText('GST 18 % (split by the state you choose)₹228.66');
  await expect(summary).not.toContainText(/CGST|SGST|IGST/);
  await checkDialogAtBothWidths(billing, 'Billing Information');
  await page.setViewportSize({ width: 1440, height: 900 });

  // Proceed with nothing filled in: both messages, described on their fields; focus on the first.
  await tabTo(/^Proceed to Payment/);
  await page.keyboard.press('Enter');
  const address = billing.getByRole('textbox', { name: 'Address' });
  await expect(address).toHaveAccessibleDescription('Address is required');
  await expect(state).toHaveAccessibleDescription('State is required');
  await expectVisibleFocus(page, 'billing refused', /Address/);
  await snap('keyboard-purchase-billing-error-focus');

  await page.keyboard.type(ADDRESS);
  await page.keyboard.press('Tab');
  await expectVisibleFocus(page, 'state select', /State/);
  await page.keyboard.type('Rajasthan');
  await expect(state).toHaveValue('Rajasthan');
  await expect(summary).toContainText('CGST 9 %₹114.33');
  await tabTo(/^Proceed to Payment/);
  await snap('keyboard-purchase-billing-proceed-focus');
  await page.keyboard.press('Enter');

  const checkout = page.getByRole('dialog', { name: 'Razorpay Test Checkout' });
  await expect(checkout).toBeVisible();
  await expectVisibleFocus(page, 'checkout opened', 'Simulate success');
  await checkDialogAtBothWidths(checkout, 'Razorpay Test Checkout');
  await page.setViewportSize({ width: 1440, height: 900 });
  await snap('keyboard-purchase-checkout-focus');

  // Escape closes the checkout; focus goes back to the tool's button, not the page body.
  await page.keyboard.press('Escape');
  await expect(checkout).toBeHidden();
  await expectVisibleFocus(page, 'checkout dismissed', BUY_INR);

  // Opened again: the address typed before is still there.
  await page.keyboard.press('Enter');
  await expect(billing).toBeVisible();
  await expect(address).toHaveValue(ADDRESS);
  await expect(state).toHaveValue('Rajasthan');
  await tabTo(/^Proceed to Payment/);
  await page.keyboard.press('Enter');
  await expect(checkout).toBeVisible();
  await tabTo('Close checkout', { back: true });
  await tabTo('Simulate success');
  await page.keyboard.press('Enter');

  // The redirect to My Tools is announced, and focus starts again at the top of the new page.
  await page.waitForURL(`${shop.url}/my-tools`, { timeout: 15_000 });
  await expect(page.locator('#announcer')).toHaveText(/My Tools/);
  await expectVisibleFocus(page, 'landed on My Tools', 'Skip to content');
  await snap('keyboard-purchase-my-tools-landing-focus');
});

test('on My Tools the buyer copies the key, downloads a license file, cancels a deactivation, asks for the credentials and gets the invoice', async ({
  snap,
}) => {
  const card = toolCard(WINDOWS_TOOL);
  await expect(card).toBeVisible();
  const keyMail = await shop.smtp.waitFor(
    (mail) => mail.to.includes(buyer.email) && mail.subject === `Your ${WINDOWS_TOOL} license key`,
  );
  const licenseKey = /Your license key\s*\n\s*(\S+)/.exec(keyMail.text)?.[1] ?? '';
  const mine = (await (await page.request.get(`${shop.url}/api/my-tools/`)).json()) as Array<{
    _id: string;
  }>;
  const client = new LicenseClient({ serverUrl: shop.url, toolId: mine[0]?._id ?? '' });
  expect((await client.activate({ licenseKey }, 'win-keyboard-desk-0001', 'Front desk PC')).code).toBe(
    'VALID',
  );
  // The device shows after a fresh load; the first Tab shows the ring there too.
  await page.reload();
  await expect(card.getByText('Front desk PC')).toBeVisible();
  await page.keyboard.press('Tab');
  await expectVisibleFocus(page, 'My Tools freshly loaded', 'Skip to content');

  await tabTo(`Copy license key: ${WINDOWS_TOOL}`);
  await page.keyboard.press('Enter');
  // The button says Copied for 2 s, then goes back to its name: focus stays on it throughout.
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(licenseKey);
  await expectVisibleFocus(
    page,
    'key copied',
    /^(Copied|Copy license key: PDF Utility Toolkit \(Windows\))$/,
  );
  await snap('keyboard-purchase-copy-key-focus');

  await tabTo('Download license file for Front desk PC');
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  expect((await download).suggestedFilename()).toMatch(/\.lic$|license/i);
  await expectVisibleFocus(page, 'license file downloaded', 'Download license file for Front desk PC');

  // Deactivate asks first; focus goes into the question, and Escape takes it back to Deactivate.
  await tabTo('Deactivate Front desk PC');
  await page.keyboard.press('Enter');
  await expectVisibleFocus(page, 'deactivation asked', 'Cancel');
  await expect(card.getByRole('group', { name: 'Deactivate Front desk PC?' })).toBeVisible();
  await snap('keyboard-purchase-deactivate-confirm-focus');
  await page.keyboard.press('Escape');
  await expect(card.getByRole('group', { name: 'Deactivate Front desk PC?' })).toHaveCount(0);
  await expectVisibleFocus(page, 'deactivation cancelled with Escape', 'Deactivate Front desk PC');
  // And Cancel does the same.
  await page.keyboard.press('Space');
  await expectVisibleFocus(page, 'deactivation asked again', 'Cancel');
  await page.keyboard.press('Enter');
  await expectVisibleFocus(page, 'deactivation cancelled', 'Deactivate Front desk PC');
  await expect(card.getByText('Front desk PC')).toBeVisible();
  await expect(page.getByText(LICENSE_MESSAGES.deviceDeactivated)).toHaveCount(0);

  // Named with its tool, and the same name while it sends (issue 63).
  await tabTo(`Get Credentials for ${WINDOWS_TOOL}`);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('note').filter({ hasText: 'Credentials sent to your email!' })).toBeVisible();
  await expectVisibleFocus(page, 'credentials sent', `Get Credentials for ${WINDOWS_TOOL}`);

  await tabTo(/^Invoice /);
  const invoice = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  expect((await invoice).suggestedFilename()).toMatch(/\.pdf$/);
  await expectVisibleFocus(page, 'invoice downloaded', /^Invoice /);
  await snap('keyboard-purchase-invoice-focus');
});

test('the buyer signs out through the account menu, whose items show where focus is', async ({ snap }) => {
  await expectVisibleFocus(page, 'focus stays on the invoice link', /^Invoice /);
  await tabTo(buyer.name, { back: true, max: 80 });
  await page.keyboard.press('ArrowDown');
  await expectVisibleFocus(page, 'account menu opened', 'Dashboard');
  await snap('keyboard-purchase-menu-item-focus');
  await page.keyboard.press('ArrowDown');
  await expectVisibleFocus(page, 'menu item', 'My Tools');
  await page.keyboard.press('ArrowDown');
  await expectVisibleFocus(page, 'menu item', 'Account');
  await page.keyboard.press('ArrowDown');
  await expectVisibleFocus(page, 'menu item', 'Sign Out');
  await page.keyboard.press('Enter');
  await page.waitForURL(`${shop.url}/utility-tools`);
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await page.keyboard.press('Tab');
  await expectVisibleFocus(page, 'signed out, fresh page', 'Skip to content');

  // Still in INR: the currency the buyer chose outlives paying and signing out.
  await expect(page.getByRole('button', { name: 'INR', pressed: true })).toBeVisible();
});

test('at a phone’s width the chat button has room of its own below the page, so it covers nothing', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const address of ['/utility-tools', '/utility-tools/invalid-link']) {
    await page.goto(`${shop.url}${address}`);
    await page.waitForLoadState('networkidle');
    await page.evaluate(() =>
      window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }),
    );
    const room = await page.evaluate(() => {
      const chat = document.querySelector('a[aria-label^="Chat with us"]')?.getBoundingClientRect();
      const footer = document.querySelector('footer')?.getBoundingClientRect();
      // The footer's last words and links, which its own colour extends below (no white strip under it).
      const lastText = Math.max(
        ...[...document.querySelectorAll('footer a, footer p')].map(
          (each) => each.getBoundingClientRect().bottom,
        ),
      );
      return chat && footer
        ? {
            overlap: lastText - chat.top,
            belowFooter: document.documentElement.scrollHeight - window.scrollY - footer.bottom,
          }
        : undefined;
    });
    expect(room?.overlap, `${address}: the page's text ends above the chat button`).toBeLessThanOrEqual(0);
    expect(room?.belowFooter, `${address}: nothing shows below the footer`).toBeLessThanOrEqual(1);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
});
