import { type Page, request } from '@playwright/test';
import { generate } from 'otplib';
import { expect, type Shop, test } from './fixtures';
import { checkScreen } from './support/check-screen';
import { expectVisibleFocus, readFocus } from './support/focus';

/**
 * The portal with the keyboard alone, at a phone's and a desktop's width (issue 53): sign up, start a free trial,
 * sign out, open /account signed out (the sign-in dialog says why; closing it leaves focus on the page's Sign in;
 * signing in lands on /account), My Tools with the trial's key copied, each account section (password change with
 * the Sessions list re-read, email change, the last other browser signed out, delete with a typo first), then the
 * dashboard's sign-in, two-step setup, a tool page with a new draft and a new coupon. After every action focus is
 * on a visible, named control (never the page body), and each change is said exactly once through the site's one
 * live region. Every screen and dialog is checked with axe at the journey's width, so at 390 and at 1440 px across the
 * two journeys (screenshots into SHOTS_DIR).
 */
test.describe.configure({ mode: 'serial' });

test.use({ shopOptions: { name: 'portal-keyboard' }, consoleAllowed: /status of 40\d/ });

let shop: Shop;
let toolId = '';

test.beforeAll(async ({ shop: started }) => {
  test.setTimeout(300_000);
  shop = started;
  const listed = await shop.admin('tools', 'list', '--json');
  expect(listed.code, listed.stderr).toBe(0);
  const tools = JSON.parse(listed.stdout) as Array<{ _id: string; name: string; device: string | null }>;
  toolId = tools.find((tool) => tool.device === 'Windows' && tool.name === 'PDF Utility Toolkit')?._id ?? '';
  expect((await shop.admin('tools', 'edit', toolId, '--trial-days', '14')).code).toBe(0);
});

/** Every message the live region says, in order, recorded from each page load on. */
const RECORD_ANNOUNCEMENTS = () => {
  const said: string[] = [];
  (window as unknown as { __said: string[] }).__said = said;
  const watch = () => {
    const region = document.getElementById('announcer');
    if (!region) {
      window.setTimeout(watch, 20);
      return;
    }
    new MutationObserver(() => {
      const text = region.textContent ?? '';
      if (text) said.push(text);
    }).observe(region, { childList: true, characterData: true, subtree: true });
  };
  watch();
};

/** Signs in over the API as another browser would: one more session for the account. */
async function signInElsewhere(email: string, password: string): Promise<void> {
  const api = await request.newContext({
    baseURL: shop.url,
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  });
  try {
    const { csrfToken } = (await (await api.get('/api/csrf-token/')).json()) as { csrfToken: string };
    const response = await api.post('/api/auth/login/', {
      form: { email, password },
      headers: { 'X-CSRFToken': csrfToken },
    });
    expect(response.status(), `/api/auth/login/: ${await response.text()}`).toBe(200);
  } finally {
    await api.dispose();
  }
}

for (const width of [390, 1440]) {
  test.describe(`at ${width} px`, () => {
    const height = width < 768 ? 844 : 900;
    const buyer = {
      name: `Meera Iyer ${width}`,
      email: `meera.${width}@example.in`,
      phone: width === 390 ? '9823456711' : '9823456712',
      password: 'Lantern-harbour-5521',
      newPassword: 'Saffron-courtyard-7734',
      newEmail: `meera.iyer.${width}@example.in`,
    };
    const operator = {
      name: `Dev Operator ${width}`,
      email: `dev.ops.${width}@example.in`,
      phone: width === 390 ? '+919845067891' : '+919845067892',
      password: 'Sandstone-arch-9023',
    };
    let page: Page;

    test.beforeAll(async ({ openPage }) => {
      page = await openPage({
        viewport: { width, height },
        timezoneId: 'Asia/Kolkata',
        locale: 'en-IN',
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      await page.addInitScript(RECORD_ANNOUNCEMENTS);
    });

    // Closed before the next width's journey, so nothing it still does counts there.
    test.afterAll(async () => {
      await page?.context().close();
    });

    /** The axe check at this journey's width; the journey at the other width checks the same screen there. */
    const check = (name: string) => checkScreen(page, `portal-keyboard-${width}-${name}`, { at: width });

    /** Tab (or Shift+Tab) until the named control has focus; focus never falls to the page body on the way. */
    async function tabTo(name: string | RegExp, { back = false, max = 60 } = {}) {
      const matches = (text: string) => (typeof name === 'string' ? text === name : name.test(text));
      for (let presses = 0; presses < max; presses++) {
        await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
        const focused = await readFocus(page);
        expect(focused, `Tab towards ${name}, press ${presses + 1}: focus on a control`).not.toBeNull();
        if (focused && matches(focused.name)) return expectVisibleFocus(page, `Tab to ${name}`, name);
      }
      throw new Error(`${name} not reached with ${max} presses`);
    }

    /** The live region said `message` exactly once since the last check (a duplicate would follow within 0.5 s). */
    async function expectSaidOnce(message: RegExp, step: string) {
      const said = () => page.evaluate(() => [...(window as unknown as { __said: string[] }).__said]);
      await expect
        .poll(async () => (await said()).some((text) => message.test(text)), { message: step })
        .toBe(true);
      await page.waitForTimeout(500);
      expect(
        (await said()).filter((text) => message.test(text)),
        `${step}: said once`,
      ).toHaveLength(1);
      await page.evaluate(() => {
        (window as unknown as { __said: string[] }).__said.length = 0;
      });
    }

    test('signs up with every problem shown at once and the password rule up front, and lands signed in', async () => {
      await page.goto(`${shop.url}/utility-tools`);
      // The navbar's buttons wait for hydration (disabled until then).
      await expect(page.getByRole('button', { name: 'Sign Up' })).toBeEnabled();
      await tabTo('Sign Up');
      await page.keyboard.press('Enter');
      const signup = page.getByRole('dialog', { name: 'Create an Account' });
      await expect(signup).toBeVisible();
      await expectVisibleFocus(page, 'signup opened', /Full Name/);
      // The rule is there before anything is typed, as the field's description.
      await expect(
        signup.getByRole('textbox', { name: 'Password', exact: true }),
      ).toHaveAccessibleDescription('At least 6 characters, and not a commonly used password.');
      await check('signup');

      // A first try with a name only: every other field's problem at once, focus on the first of them.
      await page.keyboard.type(buyer.name);
      await tabTo('Verify Email');
      await page.keyboard.press('Enter');
      await expect(signup.getByRole('textbox', { name: 'Email' })).toHaveAttribute('aria-invalid', 'true');
      await expect(signup.getByRole('textbox', { name: 'Password', exact: true })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      await expect(signup.getByText('Phone number is required', { exact: false })).toBeVisible();
      await expectVisibleFocus(page, 'signup refused', /Email/);
      await check('signup-errors');

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
      const mail = await shop.smtp.waitFor((m) => m.to.includes(buyer.email) && /\b\d{4}\b/.test(m.text));
      await page.keyboard.type(/\b(\d{4})\b/.exec(mail.text)?.[1] ?? '');
      await page.keyboard.press('Enter');
      await expect(verify.getByText('Registration successful! You are now logged in.')).toBeVisible();

      // The page reloads; focus is on the account menu, named with the buyer's name, and the sign-in is said.
      await expect(page.getByRole('button', { name: buyer.name })).toBeFocused({ timeout: 15_000 });
      await expectVisibleFocus(page, 'signed up', buyer.name);
      await expectSaidOnce(new RegExp(`^Signed in as ${buyer.name}\\.$`), 'signed up');
    });

    test('starts a trial: said once, focus on the card, the card says the days left; toasts clear the header', async () => {
      const card = page.getByRole('article', { name: 'PDF Utility Toolkit (Windows)', exact: true });
      await tabTo('Try free for 14 days: PDF Utility Toolkit (Windows)', { max: 80 });
      await page.keyboard.press('Enter');
      await expectSaidOnce(/Your 14-day free trial has started/, 'trial started');
      await expectVisibleFocus(page, 'trial started', /^Windows - /);
      await expect(card.getByText('Trial: 14 days left')).toBeVisible();
      // The toast sits below the sticky header and is no live region of its own.
      const toast = page.locator('.Toastify__toast').first();
      await expect(toast).toBeVisible();
      const header = await page.locator('header').first().boundingBox();
      const toastBox = await toast.boundingBox();
      expect(toastBox?.y ?? 0).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
      await expect(page.locator('section.Toastify')).toHaveAttribute('aria-live', 'off');

      // The billing buttons (from the card's button, still focused): Tab reaches them in the order they are drawn.
      await page.keyboard.press('Enter');
      const billing = page.getByRole('dialog', { name: 'Billing Information' });
      await expect(billing).toBeVisible();
      const cancel = await billing.getByRole('button', { name: 'Cancel' }).boundingBox();
      const proceed = await billing.getByRole('button', { name: 'Proceed to Payment' }).boundingBox();
      if (width < 640) expect(cancel?.y ?? 0).toBeLessThan(proceed?.y ?? 0);
      else expect(cancel?.x ?? 0).toBeLessThan(proceed?.x ?? 0);
      await tabTo('Cancel');
      await page.keyboard.press('Tab');
      await expectVisibleFocus(page, 'after Cancel', /^Proceed to Payment/);
      await page.keyboard.press('Escape');
      await expectVisibleFocus(page, 'billing closed', /^Windows - /);
    });

    test('signed out, /account shows the sign-in dialog saying why; closed, focus is on Sign in; signed in, it is /account', async () => {
      const menu = page.getByRole('button', { name: buyer.name });
      await menu.focus();
      await page.keyboard.press('ArrowUp');
      await expectVisibleFocus(page, 'menu opened at its end', 'Sign Out');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${shop.url}/utility-tools`);
      await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();

      await page.goto(`${shop.url}/account`);
      const login = page.getByRole('dialog', { name: 'Welcome Back' });
      await expect(login).toBeVisible();
      await expect(login.getByText('Sign in to open your account settings.', { exact: false })).toBeVisible();
      await expectVisibleFocus(page, 'deep link dialog', /^Email/);
      await check('account-signed-out-dialog');
      await page.keyboard.press('Escape');
      await expectVisibleFocus(page, 'dialog closed', 'Sign in');
      await expect(page.getByRole('heading', { level: 1, name: 'Sign in to continue' })).toBeVisible();
      await check('account-signed-out');
      await page.keyboard.press('Enter');
      await expect(login).toBeVisible();
      await page.keyboard.type(buyer.email);
      await page.keyboard.press('Tab');
      await page.keyboard.type(buyer.password);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible({ timeout: 15_000 });
      expect(page.url()).toBe(`${shop.url}/account`);
      await expectVisibleFocus(page, 'signed in on /account', buyer.name);
      await expectSaidOnce(new RegExp(`^Signed in as ${buyer.name}\\.$`), 'signed in');
    });

    test('My Tools through the menu: the trial’s key, end and days left; copying the key is said once', async () => {
      await page.keyboard.press('Enter');
      await expectVisibleFocus(page, 'menu opened', 'Dashboard');
      await page.keyboard.press('ArrowDown');
      await expectVisibleFocus(page, 'menu item', 'My Tools');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${shop.url}/my-tools`);
      await expectVisibleFocus(page, 'landed on My Tools', 'Skip to content');
      await expectSaidOnce(/^My Tools — /, 'My Tools');
      const card = page.getByRole('article', { name: 'PDF Utility Toolkit (Windows)', exact: true });
      await expect(card.getByText('Free trial · 14 days left')).toBeVisible();
      await expect(card.getByText(/^Ends on \d{1,2} \w{3,4} \d{4}$/)).toBeVisible();
      await expect(card.getByRole('region', { name: 'Trial license' }).locator('code')).toHaveText(
        /[23456789A-Z]{5}(-[23456789A-Z]{5}){3}/,
      );
      await expect(card.getByRole('button', { name: 'Buy — keeps this key' })).toBeVisible();
      await check('my-tools');
      await tabTo('Copy license key: PDF Utility Toolkit (Windows)');
      await page.keyboard.press('Enter');
      await expectSaidOnce(/^License key copied$/, 'key copied');
      await expectVisibleFocus(
        page,
        'key copied',
        /^(Copied|Copy license key: PDF Utility Toolkit \(Windows\))$/,
      );
    });

    test('the account page: password, email, sessions and delete, each with focus kept and said once', async () => {
      // Two more browsers signed in: the password change signs them out, and the list shows it at once.
      await signInElsewhere(buyer.email, buyer.password);
      await signInElsewhere(buyer.email, buyer.password);
      await page.goto(`${shop.url}/account`);
      const sessions = page.getByRole('region', { name: 'Sessions' });
      await expect(sessions.getByRole('listitem')).toHaveCount(3);
      // "…on Linux This browser", with the space a screen reader needs.
      await expect(sessions.getByRole('listitem').filter({ hasText: 'This browser' })).toHaveText(
        / on \S+ This browser/,
      );
      await check('account');

      await tabTo('Current Password', { max: 80 });
      await page.keyboard.type(buyer.password);
      await tabTo('New Password');
      await page.keyboard.type(buyer.newPassword);
      await tabTo('Confirm New Password');
      await page.keyboard.type(buyer.newPassword);
      await page.keyboard.press('Enter');
      await expectSaidOnce(/password/i, 'password changed');
      await expectVisibleFocus(page, 'password changed', /^(Confirm New Password|Change Password)/);
      await expect(sessions.getByRole('listitem')).toHaveCount(1);

      // Email change: the code field's label is clear of the sticky header.
      await tabTo('New Email');
      await page.keyboard.type(buyer.newEmail);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('textbox', { name: 'Verification Code' })).toBeVisible();
      await expectVisibleFocus(page, 'code asked', /Verification Code/);
      await expectSaidOnce(/code/i, 'code sent');
      const label = await page.getByText('Verification Code', { exact: true }).boundingBox();
      const header = await page.locator('header').first().boundingBox();
      expect(label?.y ?? 0).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
      const codeMail = await shop.smtp.waitFor(
        (m) => m.to.includes(buyer.newEmail) && /\b\d{6}\b/.test(m.text),
      );
      await page.keyboard.type(/\b(\d{6})\b/.exec(codeMail.text)?.[1] ?? '');
      await page.keyboard.press('Enter');
      await expectSaidOnce(/email/i, 'email changed');
      await expect(page.getByText(buyer.newEmail, { exact: true })).toBeVisible();
      await expectVisibleFocus(page, 'email changed', 'New Email');

      // The last other browser signed out: its row and button go, focus goes to the Sessions heading.
      await signInElsewhere(buyer.newEmail, buyer.newPassword);
      await page.reload();
      await expect(sessions.getByRole('listitem')).toHaveCount(2);
      await sessions.getByRole('button', { name: 'Sign out everywhere else' }).focus();
      await tabTo(/^Sign out .* signed in /, { back: true });
      await page.keyboard.press('Enter');
      await expect(sessions.getByRole('listitem')).toHaveCount(1);
      await expectSaidOnce(/signed out/i, 'session ended');
      await expectVisibleFocus(page, 'last other session ended', 'Sessions');

      // Delete: a typo in the email is refused on its field before "cannot be undone" is asked.
      const remove = page.getByRole('region', { name: 'Delete account' });
      await tabTo('Password', { max: 80 });
      await page.keyboard.type(buyer.newPassword);
      await tabTo('Your email address, typed again');
      await page.keyboard.type(buyer.newEmail.replace('meera', 'meeta'));
      await page.keyboard.press('Enter');
      await expect(
        remove.getByText('Type the email address of this account exactly as it is shown.'),
      ).toBeVisible();
      await expect(remove.getByRole('alertdialog')).toHaveCount(0);
      await expectVisibleFocus(page, 'typo refused', 'Your email address, typed again');
      await check('account-delete-typo');
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(buyer.newEmail);
      await page.keyboard.press('Enter');
      const confirm = remove.getByRole('alertdialog');
      await expect(confirm).toBeVisible();
      await expect(confirm).toBeFocused();
      await tabTo('Yes, delete my account');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${shop.url}/`);
      await expectVisibleFocus(page, 'account deleted', 'Skip to content');
    });

    test('the dashboard: sign-in and two-step setup steps, a tool page with a new draft, a new coupon', async () => {
      test.setTimeout(180_000);
      await shop.signUp(operator);
      expect((await shop.admin('operators', 'add', operator.email)).code).toBe(0);
      await page.goto(`${shop.url}/admin`);
      await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the dashboard' })).toBeVisible();
      await expectVisibleFocus(page, 'sign-in step', 'Email');
      await page.keyboard.type(operator.email);
      await page.keyboard.press('Tab');
      await page.keyboard.type(operator.password);
      await page.keyboard.press('Enter');

      await expect(page.getByRole('heading', { level: 1, name: 'Set up two-step verification' })).toBeVisible(
        {
          timeout: 30_000,
        },
      );
      await expectVisibleFocus(page, 'setup step', 'Show the setup code');
      await expectSaidOnce(/^Set up two-step verification$/, 'setup step');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('setup-key')).toBeVisible();
      await expectVisibleFocus(page, 'setup code shown', 'The 6-digit code the app now shows');
      await check('dashboard-setup');
      const secret = ((await page.getByTestId('setup-key').textContent()) ?? '').replace(/\s+/g, '');
      await page.keyboard.type(await generate({ secret }));
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 1, name: 'Save your recovery codes' })).toBeVisible();
      await expectVisibleFocus(page, 'recovery codes', 'Copy the codes');
      await expectSaidOnce(/^Save your recovery codes$/, 'recovery codes');
      await check('dashboard-recovery-codes');
      await page.keyboard.press('Enter');
      await expectSaidOnce(/^Recovery codes copied\.$/, 'codes copied');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/recovery codes/);
      await expect(page.getByRole('link', { name: 'Download as a text file' })).toHaveAttribute(
        'download',
        'dashboard-recovery-codes.txt',
      );
      await tabTo('I have saved them — open the dashboard');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
      await expectVisibleFocus(page, 'dashboard opened', 'Skip to content');
      await expectSaidOnce(/^Overview — /, 'overview');
      // Every screen of the navigation is in sight at this width, none cut off.
      for (const link of await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link').all()) {
        const box = await link.boundingBox();
        expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
      }
      await check('dashboard-overview');

      await tabTo('Tools');
      await page.keyboard.press('Enter');
      await expectSaidOnce(/^Tools — /, 'tools');
      await expectVisibleFocus(page, 'tools list', 'Tools');
      await tabTo('PDF Utility Toolkit');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${shop.url}/admin/tools/**`);
      await expectVisibleFocus(page, 'tool page opened', 'Skip to content');
      await expectSaidOnce(/^Edit tool — /, 'tool page');
      const version = width === 390 ? '1.1.0' : '1.2.0';
      await tabTo('Version', { max: 150 });
      await page.keyboard.type(version);
      await tabTo('Create draft');
      await page.keyboard.press('Enter');
      await expectSaidOnce(
        new RegExp(`^Draft ${version.replace(/\./g, '\\.')} created\\.$`),
        'draft created',
      );
      await expectVisibleFocus(page, 'draft created', new RegExp(`^${version.replace(/\./g, '\\.')}`));
      await check('dashboard-tool');

      await page.goto(`${shop.url}/admin/coupons`);
      await expect(page.getByRole('heading', { level: 1, name: 'Coupons' })).toBeVisible();
      const code = `KEYS${width}`;
      await page.keyboard.press('Tab');
      await tabTo('Code', { max: 80 });
      await page.keyboard.type(code);
      await tabTo('Percent off');
      await page.keyboard.type('10');
      await tabTo('Create the coupon');
      await page.keyboard.press('Enter');
      await expectSaidOnce(new RegExp(`^Coupon ${code} created\\.`), 'coupon created');
      await expectVisibleFocus(page, 'coupon created', code);
      await check('dashboard-coupons');
    });
  });
}
