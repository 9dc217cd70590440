import type { Page } from '@playwright/test';
import type { MyLicense } from '../src/shared/licenses';
import type { Tool } from '../src/shared/shop';
import { expect, person, type Shop, test, uniqueEmail } from './fixtures';
import { authenticator } from './support/authenticator';
import { checkScreen } from './support/check-screen';
import { expectVisibleFocus, tabTo as tabToIn } from './support/focus';
import { startOperatorEnrolment } from './support/steps';

/**
 * Editions and upgrades (issue 64) with the keyboard alone. The operator gives the Windows toolkit three editions on
 * its dashboard page; then, at a phone's width and at a desktop's, a buyer sees them on the catalogue's card,
 * chooses Pro in the billing dialog, pays in the Razorpay emulator, finds Pro on My Tools and on the order's page
 * with an offer to upgrade to Business for the difference, and later upgrades from My Tools through the same
 * checkout. Every screen is checked with axe at 390 and 1440 px (screenshots when SHOTS_DIR is set).
 */
test.describe.configure({ mode: 'serial' });
test.use({ shopOptions: { name: 'editions' } });

const operator = person(
  'Meera Operator',
  'meera.editions@example.in',
  '+919812345678',
  'Sunrise over Amer 7',
);
const TOOL = 'PDF Utility Toolkit (Windows)';
const EDITIONS = [
  { name: 'Standard', inr: '1499', usd: '19.99', entitlements: '' },
  { name: 'Pro', inr: '2999', usd: '39', entitlements: 'ocr, batch' },
  { name: 'Business', inr: '4999', usd: '59', entitlements: 'ocr, batch, api' },
];

let shop: Shop;
let setupKey = '';
const nextCode = authenticator(() => setupKey);

test.beforeAll(async ({ shop: started }) => {
  test.setTimeout(180_000);
  shop = started;
  await shop.signUp(operator);
  expect((await shop.admin('operators', 'add', operator.email)).code).toBe(0);
});

const tabTo = (page: Page, name: string | RegExp, options?: { back?: boolean; max?: number }) =>
  tabToIn(page, name, options);

/** Types into the focused field what was typed nowhere before (the field is empty). */
const type = (page: Page, text: string) => page.keyboard.type(text);

test('the operator gives the Windows toolkit three editions on its dashboard page', async ({ openPage }) => {
  test.setTimeout(240_000);
  const page = await openPage({ viewport: { width: 1440, height: 900 }, timezoneId: 'Asia/Kolkata' });
  await page.goto(`${shop.url}/admin`);
  setupKey = await startOperatorEnrolment(page, operator);
  await page.getByLabel('The 6-digit code the app now shows').fill(await nextCode());
  await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
  await page.getByRole('button', { name: /open the dashboard/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();

  const tools = (await (await page.request.get(`${shop.url}/api/alltools/`)).json()) as Tool[];
  const windows = tools.find((tool) => tool.device === 'Windows');
  await page.goto(`${shop.url}/admin/tools/${windows?._id}`);
  await expect(page.getByText('No editions.')).toBeVisible();
  // The operator starts once the page has loaded: its other panels still arriving moved the page under a Tab that
  // had just scrolled to the editions (focus on "Add an edition" off screen, in one run of five).
  await page.waitForLoadState('networkidle');

  for (const edition of EDITIONS) {
    await tabTo(page, 'Add an edition', { max: 80 });
    await page.keyboard.press('Enter');
    await expectVisibleFocus(page, `new edition ${edition.name}`, /^Name/);
    await type(page, edition.name);
    await page.keyboard.press('Tab');
    await type(page, edition.inr);
    await page.keyboard.press('Tab');
    await type(page, edition.usd);
    await page.keyboard.press('Tab');
    await type(page, edition.entitlements);
    await tabTo(page, /^Code from your authenticator app/);
    await type(page, await nextCode());
    // Enter in the code field sends the form.
    await page.keyboard.press('Enter');
    await expect(page.locator('#main').getByText(`Added ${edition.name}.`)).toBeVisible();
    await expectVisibleFocus(page, `${edition.name} added`, `Edit ${edition.name}`);
    await expect(page.locator('#announcer')).toHaveText(`Added ${edition.name}.`);
  }
  await expect(page.getByText('Unlocks ocr, batch, api')).toBeVisible();

  // What an edition unlocks changes without a code; Escape leaves an edit unsaved, focus back on its button.
  await tabTo(page, 'Edit Standard', { back: true });
  await page.keyboard.press('Enter');
  await expectVisibleFocus(page, 'editing Standard', /^Name/);
  await tabTo(page, /^Entitlements/);
  await type(page, 'print');
  await page.keyboard.press('Escape');
  await expectVisibleFocus(page, 'edit left with Escape', 'Edit Standard');
  await expect(page.getByText('Unlocks print')).toHaveCount(0);
  await checkScreen(page, 'editions-dashboard-tool');
});

/** A buyer signed up through the real calls, in a browser of their own at `width`. */
async function buyerAt(openPage: (options?: object) => Promise<Page>, width: number) {
  const page = await openPage({
    viewport: { width, height: width < 768 ? 844 : 900 },
    timezoneId: 'Asia/Kolkata',
    locale: 'en-US',
  });
  const buyer = person('Ishaan Buyer', uniqueEmail('editions'), '+919812345672', 'Monsoon-kite-5521');
  await shop.signUp(buyer, page.context().request);
  return { page, buyer };
}

/** The site's live region says `text` (it may say something else first). */
const announced = (page: Page, text: string | RegExp) =>
  expect(page.locator('#announcer')).toHaveText(text, { timeout: 15_000 });

for (const width of [390, 1440]) {
  test.describe(`at ${width} px`, () => {
    let page: Page;

    test('a buyer sees the editions on the card, chooses Pro in the billing dialog and pays', async ({
      openPage,
    }) => {
      test.setTimeout(180_000);
      ({ page } = await buyerAt(openPage, width));
      await page.goto(`${shop.url}/utility-tools`);
      const card = page.getByRole('article', { name: TOOL, exact: true });
      await expect(card).toBeVisible();
      await tabTo(page, 'INR');
      await page.keyboard.press('Space');

      // The card lists the editions with their prices beside its own texts; its button costs the lowest.
      const editions = card.getByRole('list', { name: `Editions of ${TOOL}` }).getByRole('listitem');
      await expect(editions).toHaveText([
        /^Standard\s*Up to 2 devices\s*₹1,499\.00$/,
        /^Pro\s*Up to 2 devices · ocr, batch\s*₹2,999\.00$/,
        /^Business\s*Up to 2 devices · ocr, batch, api\s*₹4,999\.00$/,
      ]);
      await expect(card.getByText('Lifetime Validity')).toBeVisible();
      await checkScreen(page, `editions-catalogue-${width}`, { at: width });

      await tabTo(page, `Windows - ₹1,499.00: buy ${TOOL}`);
      await page.keyboard.press('Enter');
      const billing = page.getByRole('dialog', { name: 'Billing Information', exact: true });
      await expect(billing).toBeVisible();
      // The edition comes first: a radio group, the lowest chosen, focus on it.
      await expectVisibleFocus(page, 'billing dialog opened', /^Standard/);
      await expect(billing.getByRole('group', { name: 'Edition' })).toBeVisible();
      await page.keyboard.press('ArrowDown');
      await expect(billing.getByRole('radio', { name: /^Pro/ })).toBeChecked();
      await expect(billing.getByText(`${TOOL} — Pro`)).toBeVisible();

      await tabTo(page, /^Address/);
      await type(page, '7 MI Road, Jaipur');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Rajasthan');
      const proceed = billing.getByRole('button', { name: /^Proceed to Payment/ });
      // The order summary and the pay button follow the edition chosen, with GST split for Rajasthan.
      await expect(proceed).toHaveText('Proceed to Payment · Pay ₹2,999.00');
      await expect(billing.getByTestId('order-total')).toHaveText('₹2,999.00');
      await expect(billing.getByText(/^CGST 9 %/)).toBeVisible();
      await checkScreen(page, `editions-billing-pro-${width}`, { at: width });

      await tabTo(page, /^Proceed to Payment/);
      await page.keyboard.press('Enter');
      const checkout = page.getByRole('dialog', { name: 'Razorpay Test Checkout' });
      await expect(checkout).toBeVisible();
      await expect(checkout).toContainText('₹2,999.00');
      await tabTo(page, 'Simulate success');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${shop.url}/my-tools`, { timeout: 20_000 });

      const mine = page.getByRole('article', { name: TOOL, exact: true });
      await expect(mine.getByText('Edition: Pro')).toBeVisible();
      await expect(mine.getByRole('button', { name: /^Upgrade to Business — ₹2,000\.00/ })).toBeVisible();
      await checkScreen(page, `editions-my-tools-pro-${width}`, { at: width });
    });

    test('the order’s page names the edition and offers the upgrade too', async () => {
      // The order history's link to the order, named by its tool.
      await tabTo(page, TOOL, { max: 80 });
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/my-tools\/orders\//);
      const license = page.getByRole('region', { name: 'License' });
      await expect(license.getByText('Edition: Pro')).toBeVisible();
      const offer = license.getByRole('button', { name: /^Upgrade to Business — ₹2,000\.00/ });
      await expect(offer).toBeVisible();
      // The order's line says what was bought, as the invoice's does.
      await expect(page.getByRole('cell', { name: `${TOOL} — Pro`, exact: true })).toBeVisible();
      await checkScreen(page, `editions-order-page-${width}`, { at: width });
      // It opens the same billing dialog; Escape closes it and gives focus back to the offer.
      await offer.focus();
      await page.keyboard.press('Enter');
      const billing = page.getByRole('dialog', { name: 'Billing Information', exact: true });
      await expect(billing.getByText(`${TOOL}: Pro → Business`)).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(billing).toBeHidden();
      await expectVisibleFocus(page, 'upgrade dialog closed', /^Upgrade to Business/);
    });

    test('later the buyer upgrades to Business from My Tools, through the same checkout', async () => {
      test.setTimeout(120_000);
      await page.goto(`${shop.url}/my-tools`);
      const mine = page.getByRole('article', { name: TOOL, exact: true });
      await expect(mine.getByText('Edition: Pro')).toBeVisible();
      await tabTo(page, /^Upgrade to Business — ₹2,000\.00/, { max: 60 });
      await page.keyboard.press('Enter');

      const billing = page.getByRole('dialog', { name: 'Billing Information', exact: true });
      await expect(billing.getByText(`${TOOL}: Pro → Business`)).toBeVisible();
      // All the license's seats are upgraded: no seats asked; the details typed at the purchase are there.
      await expect(billing.getByLabel(/^Seats/)).toHaveCount(0);
      await expect(billing.getByRole('textbox', { name: 'Address' })).toHaveValue('7 MI Road, Jaipur');
      const proceed = billing.getByRole('button', { name: /^Proceed to Payment/ });
      await expect(proceed).toHaveText('Proceed to Payment · Pay ₹2,000.00');
      await expect(billing.getByText(/^SGST 9 %/)).toBeVisible();
      await checkScreen(page, `editions-upgrade-billing-${width}`, { at: width });

      await tabTo(page, /^Proceed to Payment/);
      await page.keyboard.press('Enter');
      const checkout = page.getByRole('dialog', { name: 'Razorpay Test Checkout' });
      await expect(checkout).toContainText('₹2,000.00');
      await tabTo(page, 'Simulate success');
      await page.keyboard.press('Enter');

      // My Tools reads the license again: Business, no offer left; focus, which was on the offer, is on the edition.
      await expect(mine.getByText('Edition: Business')).toBeVisible({ timeout: 20_000 });
      await expect(mine.getByRole('button', { name: /^Upgrade to/ })).toHaveCount(0);
      await expectVisibleFocus(page, 'upgraded', 'Edition: Business');
      await announced(page, /Business/);
      const licenses = (await (await page.request.get(`${shop.url}/api/my-licenses/`)).json()) as MyLicense[];
      expect(licenses.map((license) => license.edition?.name)).toEqual(['Business']);
      await checkScreen(page, `editions-my-tools-business-${width}`, { at: width });
    });
  });
}
