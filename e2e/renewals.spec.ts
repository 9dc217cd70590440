import type { MyLicense } from '../src/shared/licenses';
import { addMonths } from '../src/shared/update-periods';
import { expect, person, type Shop, test, uniqueEmail } from './fixtures';
import { checkScreen } from './support/check-screen';
import { expectVisibleFocus, tabTo } from './support/focus';
import { buyInRupees } from './support/steps';

/**
 * Updates for a period and their renewal (issue 65) as a buyer meets them. The Windows toolkit sells one month of
 * updates with a renewal at ₹599, so a license bought today is already within the 60 days in which renewal opens:
 * My Tools shows "Updates until …" and "Renew updates for ₹599.00"; the reminder emails' link `?renew=<licenseId>`
 * opens that renewal's billing dialog at once, and after paying in the Razorpay emulator (keyboard only) the date
 * moves a month on, focus on it and said. Every screen is checked with axe at 390 and 1440 px (screenshots when
 * SHOTS_DIR is set).
 */
test.use({ shopOptions: { name: 'renewals' } });

const TOOL = 'PDF Utility Toolkit (Windows)';

let shop: Shop;

test.beforeAll(async ({ shop: started }) => {
  shop = started;
  const listed = await shop.admin('tools', 'list', '--json');
  expect(listed.code, listed.stderr).toBe(0);
  const tools = JSON.parse(listed.stdout) as Array<{ _id: string; name: string; device: string | null }>;
  const toolId =
    tools.find((tool) => tool.device === 'Windows' && tool.name === 'PDF Utility Toolkit')?._id ?? '';
  const edited = await shop.admin(
    'tools',
    'edit',
    toolId,
    '--updates-for',
    '1m',
    '--renewal-price-inr',
    '599',
    '--renewal-price-usd',
    '9',
  );
  expect(edited.code, edited.stderr).toBe(0);
});

/** A date as My Tools writes it in India: '6 Jan 2027'. */
const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'Asia/Kolkata',
  });

test('a buyer renews their updates from the reminder’s link, with the keyboard', async ({ openPage }) => {
  test.setTimeout(180_000);
  const page = await openPage({
    viewport: { width: 1440, height: 900 },
    timezoneId: 'Asia/Kolkata',
    locale: 'en-US',
  });
  const buyer = person('Kavya Buyer', uniqueEmail('renewals'), '+919812345673', 'Stepwell-lantern-8812');
  await shop.signUp(buyer, page.context().request);
  await page.goto(`${shop.url}/utility-tools`);
  await buyInRupees(page, page.getByRole('article', { name: TOOL, exact: true }), '7 MI Road, Jaipur');

  const licenses = async () =>
    (await (await page.request.get(`${shop.url}/api/my-licenses/`)).json()) as MyLicense[];
  const [bought] = await licenses();
  expect(bought?.renewal).toEqual({ amount: 599_00, currency: 'INR', months: 1 });
  const end = bought?.updatesUntil ?? '';
  const card = page.getByRole('article', { name: TOOL, exact: true });
  const updates = card.getByRole('region', { name: `Updates of ${TOOL}` });
  await expect(updates.getByText(`Updates until ${day(end)}`)).toBeVisible();
  await expect(updates.getByRole('button', { name: `Renew updates for ₹599.00 for ${TOOL}` })).toBeVisible();
  await checkScreen(page, 'renewals-my-tools');

  // The reminder's button: the renewal's billing dialog opens by itself, and the address is the plain /my-tools again.
  await page.goto(`${shop.url}/my-tools?renew=${bought?.licenseId}`);
  const billing = page.getByRole('dialog', { name: 'Billing Information', exact: true });
  await expect(billing.getByText(`${TOOL}: updates for 1 month`)).toBeVisible();
  await expect(page).toHaveURL(`${shop.url}/my-tools`);
  await expect(billing.getByLabel(/^Seats/)).toHaveCount(0);
  await expect(billing.getByRole('textbox', { name: 'Address' })).toHaveValue('7 MI Road, Jaipur');
  const proceed = billing.getByRole('button', { name: /^Proceed to Payment/ });
  await expect(proceed).toHaveText('Proceed to Payment · Pay ₹599.00');
  await expect(billing.getByText(/^CGST 9 %/)).toBeVisible();
  await checkScreen(page, 'renewals-billing');
  await page.setViewportSize({ width: 1440, height: 900 });

  await tabTo(page, /^Proceed to Payment/);
  await page.keyboard.press('Enter');
  const checkout = page.getByRole('dialog', { name: 'Razorpay Test Checkout' });
  await expect(checkout).toContainText('₹599.00');
  await tabTo(page, 'Simulate success');
  await page.keyboard.press('Enter');

  // Renewed from the old end, a month on: My Tools reads the license again, the new date takes focus and is said.
  await expect.poll(async () => (await licenses())[0]?.updatesUntil, { timeout: 20_000 }).not.toBe(end);
  const [renewed] = await licenses();
  const next = addMonths(new Date(end), 1);
  expect(renewed?.updatesUntil).toBe(next.toISOString());
  await expect(updates.getByText(`Updates until ${day(next.toISOString())}`)).toBeVisible({
    timeout: 20_000,
  });
  await expectVisibleFocus(page, 'renewed', `Updates until ${day(next.toISOString())}`);
  await expect(page.locator('#announcer')).toHaveText(
    `Updates for ${TOOL} now last until ${day(next.toISOString())}.`,
    { timeout: 15_000 },
  );
  await checkScreen(page, 'renewals-my-tools-renewed');
});
