import type { Page } from '@playwright/test';
import { LicenseClient } from '../packages/license-client/src/index';
import { pdfText } from '../test/support/invoices-helpers';
import { expect, type Person, person, type Shop, test } from './fixtures';
import { checkScreen } from './support/check-screen';
import { expectVisibleFocus, tabTo as tabToIn } from './support/focus';
import { completeSignUpDialog } from './support/steps';

/**
 * Team licenses from the buyer's side (issue 54), against the real server, SMTP server and Razorpay emulator: an
 * accounting practice with a GSTIN buys 5 seats in INR with a coupon, with the keyboard; the summary, the payment
 * and the invoice PDF (read with pdftotext) agree on "5 ×", the discount, GST on the discounted value and the total.
 * The owner invites two colleagues from the team panel on My Tools; each opens the emailed link signed out, signs up
 * (or in) from the page and accepts, lands on My Tools with the tool focused, and activates their own key through
 * the license API. The owner takes one seat back (that key answers REVOKED at its next validate) and gives the freed
 * seat to a third colleague. The seats dialog, the team panel and the invitation page: axe 0 at 390 and 1440 px.
 */
test.describe.configure({ mode: 'serial' });

const TOOL = 'PDF Utility Toolkit (Windows)';
/** The invitation names the tool as the catalogue does, without the edition. */
const TOOL_NAME = 'PDF Utility Toolkit';
const WINDOWS_BUY = 'Windows - ₹1,499.00: buy PDF Utility Toolkit (Windows)';
const ADDRESS = '3rd Floor, Ganpati Plaza, MI Road';
const GSTIN = '08ABCDE1234F1Z0';
const COUPON = 'TEAM-20';
const PAY_BUTTON = /^Proceed to Payment · Pay ₹5,996\.00$/;

const owner = person('Ritu Sharma', 'ritu@sharma-associates.example.in', '+919812345601', 'Ledger-lamp-4417');
const colleague = (first: string, last: string, phone: string) =>
  person(
    `${first} ${last}`,
    `${first.toLowerCase()}@sharma-associates.example.in`,
    phone,
    `${first}-abacus-9051`,
  );
const asha = colleague('Asha', 'Verma', '+919812345602');
const karan = colleague('Karan', 'Mehta', '+919812345603');
const neha = colleague('Neha', 'Joshi', '+919812345604');
test.use({ shopOptions: { name: 'teams' } });
const CONTEXT = { timezoneId: 'Asia/Kolkata', locale: 'en-US' };

let shop: Shop;
let page: Page;
let toolId = '';
/** Each colleague's key, as My Tools gives it to them. */
const keys = new Map<string, string>();

const tabTo = (name: string | RegExp, options?: { back?: boolean; max?: number }) =>
  tabToIn(page, name, options);

test.beforeAll(async ({ shop: started, openPage }) => {
  test.setTimeout(300_000);
  shop = started;
  const added = await shop.admin('coupons', 'add', COUPON, '--percent', '20', '--max-uses', '10');
  expect(added.stdout).toContain(`Coupon ${COUPON} created`);
  page = await openPage(CONTEXT);
});

/** Until the page has hydrated a button does nothing: pressed again until `opened` shows. */
async function pressUntil(
  target: Page,
  button: ReturnType<Page['getByRole']>,
  opened: ReturnType<Page['getByRole']>,
) {
  await expect(async () => {
    await button.focus();
    await target.keyboard.press('Enter');
    await expect(opened).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/** The invitation link in the email `person` was sent. */
async function invitationLink(person: Person): Promise<string> {
  const mail = await shop.smtp.waitFor(
    (m) => m.to.includes(person.email) && /An invitation to use/.test(m.subject),
  );
  const link = /https?:\/\/\S+\/my-tools\/team-invitations\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  return link ?? '';
}

/** The team panel on the owner's My Tools, with its "used of total" line. */
const teamPanel = (target: Page) =>
  target.getByRole('article', { name: TOOL, exact: true }).getByRole('region', { name: 'Team' });

test('a practice with a GSTIN buys 5 seats in INR with a coupon, with the keyboard; summary, payment and invoice agree', async () => {
  test.setTimeout(180_000);
  await shop.signUp(owner);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${shop.url}/utility-tools`);
  await expect(page.getByRole('button', { name: 'INR' })).toBeVisible({ timeout: 30_000 });
  const login = page.getByRole('dialog', { name: 'Welcome Back' });
  await pressUntil(
    page,
    page.getByRole('button', { name: 'Login' }).filter({ visible: true }).first(),
    login,
  );
  await page.keyboard.type(owner.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(owner.password);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: owner.name })).toBeAttached({ timeout: 30_000 });

  await tabTo('INR');
  await page.keyboard.press('Space');
  await tabTo(WINDOWS_BUY);
  await page.keyboard.press('Enter');
  const billing = page.getByRole('dialog', { name: 'Billing Information', exact: true });
  await expect(billing).toBeVisible();
  await expectVisibleFocus(page, 'billing opened', /Address/);
  await page.keyboard.type(ADDRESS);
  await page.keyboard.press('Tab');
  await page.keyboard.type('Rajasthan');
  await expect(billing.getByRole('combobox', { name: 'State' })).toHaveValue('Rajasthan');
  await tabTo(/^GSTIN/);
  await page.keyboard.type(GSTIN);

  // Seats: 1 unless changed; the summary and the pay button follow the number typed.
  await tabTo(/^Seats/);
  const seats = billing.getByRole('spinbutton', { name: /^Seats/ });
  await expect(seats).toHaveValue('1');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('5');
  const summary = billing.getByRole('region', { name: 'Order summary' });
  await expect(summary).toContainText('List price (5 × ₹1,499.00)₹7,495.00');
  await expect(summary.getByTestId('order-total')).toHaveText('₹7,495.00');

  await tabTo(/^Coupon code/);
  await page.keyboard.type(COUPON.toLowerCase());
  await page.keyboard.press('Enter');
  await expect(summary).toContainText(`Coupon ${COUPON}`);
  await expect(summary).toContainText('−₹1,499.00');
  await expect(summary.getByTestId('order-total')).toHaveText('₹5,996.00');
  await expect(billing.getByRole('button', { name: PAY_BUTTON })).toBeVisible();
  // GST on the discounted value: CGST + SGST in the firm's state, adding up to the total with the taxable value.
  const taxable = /Taxable value₹([\d,]+\.\d\d)/.exec((await summary.textContent()) ?? '')?.[1] ?? '';
  const cgst = /CGST 9 %₹([\d,]+\.\d\d)/.exec((await summary.textContent()) ?? '')?.[1] ?? '';
  const sgst = /SGST 9 %₹([\d,]+\.\d\d)/.exec((await summary.textContent()) ?? '')?.[1] ?? '';
  const paise = (text: string) => Math.round(Number(text.replace(/,/g, '')) * 100);
  expect(paise(taxable) + paise(cgst) + paise(sgst)).toBe(599_600);
  expect(Math.abs(paise(cgst) - Math.round(paise(taxable) * 0.09))).toBeLessThanOrEqual(1);
  await checkScreen(page, 'team-seats-dialog', { fullPage: false });
  await page.setViewportSize({ width: 1440, height: 900 });

  await tabTo(PAY_BUTTON);
  await page.keyboard.press('Enter');
  const checkout = page.getByRole('dialog', { name: 'Razorpay Test Checkout' });
  await expect(checkout).toContainText('₹5,996.00');
  await tabTo('Simulate success');
  await page.keyboard.press('Enter');
  await page.waitForURL(`${shop.url}/my-tools`, { timeout: 15_000 });

  const orders = (await (await page.request.get(`${shop.url}/api/orders/`)).json()) as Array<{
    amount: number;
    invoiceUrl: string | null;
  }>;
  expect(orders).toHaveLength(1);
  expect(orders[0]?.amount).toBe(5996);
  const pdf = await page.request.get(`${shop.url}${orders[0]?.invoiceUrl}`);
  expect(pdf.status()).toBe(200);
  const text = (await pdfText(await pdf.body(), { layout: true })).replace(/\s+/g, ' ');
  expect(text).toContain('5 ×');
  expect(text).toContain(GSTIN);
  expect(text).toContain(COUPON);
  expect(text).toContain('1,499.00');
  expect(text).toContain(taxable);
  expect(text).toContain(cgst);
  expect(text).toContain(sgst);
  expect(text).toMatch(/Total[^0-9]*5,996\.00/);

  const mine = (await (await page.request.get(`${shop.url}/api/my-tools/`)).json()) as Array<{
    _id: string;
  }>;
  toolId = mine[0]?._id ?? '';
});

test('the owner invites two colleagues from the team panel on My Tools', async ({ consoleWatch }) => {
  await page.goto(`${shop.url}/my-tools`);
  const panel = teamPanel(page);
  await expect(panel.getByTestId('team-seats')).toHaveText('1 of 5 seats used', { timeout: 30_000 });
  await expect(panel.getByRole('listitem').filter({ hasText: `${owner.name} (you, owner)` })).toBeVisible();

  const email = panel.getByRole('textbox', { name: 'Invite by email' });
  for (const person of [asha, karan]) {
    await email.fill(person.email);
    await email.press('Enter');
    await expect(panel.getByRole('listitem').filter({ hasText: person.email })).toBeVisible();
    await expect(email).toHaveValue('');
    await expect(email).toBeFocused();
  }
  await expect(panel.getByTestId('team-seats')).toHaveText('3 of 5 seats used');
  // The same address twice: refused on the field, no third seat taken.
  await email.fill(asha.email);
  await email.press('Enter');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(panel.getByTestId('team-seats')).toHaveText('3 of 5 seats used');
  // The refusal is a 409, which the browser itself logs; nothing else may be.
  consoleWatch.allow(/status of 409/);
  await email.fill('');
  await checkScreen(page, 'team-panel', { noHorizontalScroll: true });
});

test('a colleague opens the link signed out, signs up from the page, accepts and lands on My Tools with the tool focused', async ({
  openPage,
}) => {
  test.setTimeout(120_000);
  const link = await invitationLink(asha);
  const tab = await openPage(CONTEXT);
  await tab.setViewportSize({ width: 390, height: 844 });
  await tab.goto(link);
  // Signed out: the page asks to sign in, and the sign-in dialog is already open with the reason.
  const login = tab.getByRole('dialog', { name: 'Welcome Back' });
  await expect(login).toContainText('to accept your seat', { timeout: 30_000 });
  await login.getByRole('button', { name: /Sign up/ }).click();
  // Signing up reloads the page 2 s after it succeeds (docs/product.md §4).
  await completeSignUpDialog(tab, shop.smtp, { ...asha, phone: asha.phone.replace('+91', '') }, 30_000);

  // The reload after signing up comes back to the invitation, which now shows whose team and which tool.
  const invitation = tab.getByRole('region', { name: TOOL_NAME, exact: true });
  await expect(invitation).toBeVisible({ timeout: 30_000 });
  await expect(invitation).toContainText(`A seat from ${owner.name}'s team`);
  await expect(invitation).toContainText(`${owner.name} invited ${asha.email}`);
  await checkScreen(tab, 'team-invitation', { noHorizontalScroll: true });

  await invitation.getByRole('button', { name: 'Accept seat' }).focus();
  await tab.keyboard.press('Enter');
  await tab.waitForURL(`${shop.url}/my-tools`);
  const heading = tab.getByRole('heading', { name: TOOL, exact: true });
  await expect(heading).toBeFocused({ timeout: 30_000 });
  await expectVisibleFocus(tab, 'seat accepted', TOOL);
  await expect(tab.locator('#announcer')).toHaveText(
    `${TOOL} is in your tools now: a seat from ${owner.name}'s team.`,
  );
  const card = tab.getByRole('article', { name: TOOL, exact: true });
  await expect(card).toContainText(`Seat from ${owner.name}'s team`);
  await expect(card.getByRole('region', { name: 'Team' })).toHaveCount(0);
  keys.set(asha.email, await myKey(tab));
  await tab.context().close();
});

test('the second colleague, already registered, signs in from the invitation page and accepts', async ({
  openPage,
}) => {
  test.setTimeout(120_000);
  await shop.signUp(karan);
  const link = await invitationLink(karan);
  const tab = await openPage(CONTEXT);
  await tab.goto(link);
  const login = tab.getByRole('dialog', { name: 'Welcome Back' });
  await expect(login).toBeVisible({ timeout: 30_000 });
  await login.getByLabel('Email').fill(karan.email);
  await login.getByLabel('Password', { exact: true }).fill(karan.password);
  await login.getByRole('button', { name: 'Sign In', exact: true }).click();
  const invitation = tab.getByRole('region', { name: TOOL_NAME, exact: true });
  await invitation.getByRole('button', { name: 'Accept seat' }).click({ timeout: 30_000 });
  await tab.waitForURL(`${shop.url}/my-tools`);
  await expect(tab.getByRole('heading', { name: TOOL, exact: true })).toBeFocused({ timeout: 30_000 });
  keys.set(karan.email, await myKey(tab));
  await tab.context().close();
});

/** The signed-in member's own license key of the tool, as My Tools lists it. */
async function myKey(tab: Page): Promise<string> {
  const licenses = (await (await tab.request.get(`${shop.url}/api/my-licenses/`)).json()) as Array<{
    toolId: string;
    licenseKey: string | null;
  }>;
  const key = licenses.find((license) => license.toolId === toolId)?.licenseKey ?? '';
  expect(key).toMatch(/^[A-Z0-9]{5}(-[A-Z0-9]{5}){3}$/);
  await expect(tab.getByRole('article', { name: TOOL, exact: true }).getByText(key)).toBeVisible();
  return key;
}

test('each colleague activates their own key through the license API; the owner sees their devices', async () => {
  const client = new LicenseClient({ serverUrl: shop.url, toolId });
  const a = await client.activate(
    { licenseKey: keys.get(asha.email) ?? '' },
    'asha-laptop-fp-0001',
    'ASHA-LAPTOP',
  );
  expect(a).toMatchObject({ valid: true, code: 'VALID' });
  const k = await client.activate(
    { licenseKey: keys.get(karan.email) ?? '' },
    'karan-desk-fp-00002',
    'KARAN-DESK',
  );
  expect(k).toMatchObject({ valid: true, code: 'VALID' });
  expect(keys.get(asha.email)).not.toBe(keys.get(karan.email));

  await page.reload();
  const panel = teamPanel(page);
  await expect(panel.getByTestId('team-seats')).toHaveText('3 of 5 seats used', { timeout: 30_000 });
  await expect(panel.getByRole('list', { name: `Devices of ${asha.name}` })).toContainText(
    /ASHA-LAPTOP · last seen \d{1,2} \w{3,4} \d{4}/,
  );
  await expect(panel.getByRole('list', { name: `Devices of ${karan.name}` })).toContainText('KARAN-DESK');
  await checkScreen(page, 'team-panel-members');
});

test('the owner takes a seat back: that key answers REVOKED at its next validate; the freed seat goes to a third colleague', async ({
  openPage,
}) => {
  test.setTimeout(120_000);
  const panel = teamPanel(page);
  await panel.getByRole('button', { name: `Remove ${asha.name} from the team` }).click();
  const confirm = page.getByRole('dialog', { name: `Remove ${asha.name}?` });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await checkScreen(page, 'team-remove-dialog', { fullPage: false });
  await page.setViewportSize({ width: 1440, height: 900 });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(confirm).toBeHidden();
  await expect(panel.getByRole('listitem').filter({ hasText: asha.email })).toHaveCount(0);
  await expect(panel.getByTestId('team-seats')).toHaveText('2 of 5 seats used');
  await expect(panel.getByRole('textbox', { name: 'Invite by email' })).toBeFocused();

  const client = new LicenseClient({ serverUrl: shop.url, toolId });
  const revoked = await client.validate({ licenseKey: keys.get(asha.email) ?? '' }, 'asha-laptop-fp-0001');
  expect(revoked).toMatchObject({ valid: false, code: 'REVOKED' });
  expect(
    (await client.validate({ licenseKey: keys.get(karan.email) ?? '' }, 'karan-desk-fp-00002')).code,
  ).toBe('VALID');

  // The freed seat goes to Neha.
  const email = panel.getByRole('textbox', { name: 'Invite by email' });
  await email.fill(neha.email);
  await email.press('Enter');
  await expect(panel.getByRole('listitem').filter({ hasText: neha.email })).toBeVisible();
  await shop.signUp(neha);
  const link = await invitationLink(neha);
  const tab = await openPage(CONTEXT);
  await tab.goto(link);
  const login = tab.getByRole('dialog', { name: 'Welcome Back' });
  await login.getByLabel('Email').fill(neha.email, { timeout: 30_000 });
  await login.getByLabel('Password', { exact: true }).fill(neha.password);
  await login.getByRole('button', { name: 'Sign In', exact: true }).click();
  await tab
    .getByRole('region', { name: TOOL_NAME, exact: true })
    .getByRole('button', { name: 'Accept seat' })
    .click({ timeout: 30_000 });
  await tab.waitForURL(`${shop.url}/my-tools`);
  const nehaKey = await myKey(tab);
  await tab.context().close();
  const activated = await client.activate({ licenseKey: nehaKey }, 'neha-laptop-fp-00003', 'NEHA-LAPTOP');
  expect(activated).toMatchObject({ valid: true, code: 'VALID' });

  await page.reload();
  await expect(panel.getByTestId('team-seats')).toHaveText('3 of 5 seats used', { timeout: 30_000 });
  await expect(panel.getByRole('listitem').filter({ hasText: neha.email })).toBeVisible();
});

test('Add seats buys more seats for the same team, with its own order: the billing dialog opens on My Tools', async () => {
  test.setTimeout(120_000);
  const panel = teamPanel(page);
  await panel.getByRole('button', { name: 'Add seats' }).click();
  const billing = page.getByRole('dialog', { name: 'Billing Information', exact: true });
  await expect(billing).toBeVisible({ timeout: 30_000 });
  await expect(billing).toContainText('Your team has 5 seats.');
  // What this tab typed for the first order is still there; its coupon and its number of seats are not.
  await expect(billing.getByRole('textbox', { name: 'Address' })).toHaveValue(ADDRESS);
  await expect(billing.getByRole('textbox', { name: /^GSTIN/ })).toHaveValue(GSTIN);
  const seats = billing.getByRole('spinbutton', { name: /^Seats to add/ });
  await expect(seats).toHaveValue('1');
  await seats.fill('2');
  const summary = billing.getByRole('region', { name: 'Order summary' });
  await expect(summary).toContainText('List price (2 × ₹1,499.00)₹2,998.00');
  await expect(summary.getByTestId('order-total')).toHaveText('₹2,998.00');
  await checkScreen(page, 'team-add-seats-dialog', { fullPage: false });
  await page.setViewportSize({ width: 1440, height: 900 });

  await billing.getByRole('button', { name: /^Proceed to Payment · Pay ₹2,998\.00$/ }).click();
  const checkout = page.getByRole('dialog', { name: 'Razorpay Test Checkout' });
  await expect(checkout).toContainText('₹2,998.00');
  await checkout.getByRole('button', { name: 'Simulate success' }).click();
  await expect(panel.getByTestId('team-seats')).toHaveText('3 of 7 seats used', { timeout: 30_000 });
  await expect(panel.getByRole('button', { name: 'Add seats' })).toBeFocused();

  const orders = (await (await page.request.get(`${shop.url}/api/orders/`)).json()) as Array<{
    amount: number;
  }>;
  expect(orders.map((order) => order.amount).sort()).toEqual([2998, 5996]);
});
