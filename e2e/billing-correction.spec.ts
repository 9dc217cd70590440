import type { Page } from '@playwright/test';
import { pdfText } from '../test/support/invoices-helpers';
import { expect, type Person, person as personOf, type Shop, test } from './fixtures';
import { checkScreen } from './support/check-screen';
import { expectVisibleFocus, tabTo as tabToIn } from './support/focus';

/**
 * A buyer adds their GSTIN to a paid order from the order page, with the keyboard alone, at a phone's and a
 * desktop's width: a GSTIN with a wrong check character is refused on its field; the right one issues a credit
 * note and a new invoice, which the page lists (the old invoice marked cancelled) and one email carries.
 */
test.describe.configure({ mode: 'serial' });

const ACTION = 'Add or correct GSTIN and billing address';
const GSTIN = '27AAPFU0939F1ZV';
const ADDRESS = 'Unit 4, Trade Centre, Bandra Kurla Complex, Mumbai 400051';

test.use({
  shopOptions: { name: 'billing-correction' },
  contextOptions: { timezoneId: 'Asia/Kolkata', locale: 'en-US' },
});

/** Signs up and in, and pays for the Windows tool on the emulator, by API in the page's own cookie jar. */
async function paidOrder(shop: Shop, page: Page, person: Person) {
  await shop.signUp(person);
  const call = async (url: string, body?: unknown) => {
    const cookies = await page.context().cookies(shop.url);
    const csrf = cookies.find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
    const response = body
      ? await page.request.post(`${shop.url}${url}`, { data: body, headers: { 'x-csrftoken': csrf } })
      : await page.request.get(`${shop.url}${url}`);
    expect(response.status(), `${url}: ${await response.text()}`).toBe(200);
    return response.json();
  };
  await call('/api/csrf-token/');
  await call('/api/auth/login/', { email: person.email, password: person.password });
  const tools = (await call('/api/alltools/')) as Array<{
    _id: string;
    device?: string;
    comingSoon?: boolean;
  }>;
  const windows = tools.find((tool) => tool.device === 'Windows' && !tool.comingSoon);
  const created = (await call('/api/create-payment/', {
    toolId: windows?._id,
    currency: 'INR',
    billingDetails: { currency: 'INR', address: '14 Civil Lines, Jaipur', state: 'Rajasthan', gstin: '' },
  })) as { order_id: string; razorpay_key_id: string };
  const paid = await page.request.post(`${shop.url}/emulator/razorpay/checkout/${created.order_id}/pay`, {
    data: { key_id: created.razorpay_key_id },
  });
  await call('/api/verify-payment/', await paid.json());
  const orders = (await call('/api/orders/')) as Array<{ id: string; invoiceNumber: string }>;
  return orders[0] as { id: string; invoiceNumber: string };
}

for (const width of [390, 1440]) {
  test(`at ${width} px, keyboard only: a GSTIN added to a paid order gives a credit note and a new invoice`, async ({
    shop,
    page,
  }) => {
    test.setTimeout(150_000);
    const person = personOf(
      `Kavya ${width}`,
      `kavya.${width}@example.in`,
      '+919812345673',
      'Monsoon-kite-5521',
    );
    const tabTo = (name: string | RegExp, options?: { back?: boolean; max?: number }) =>
      tabToIn(page, name, options);
    await page.setViewportSize({ width, height: width < 768 ? 844 : 900 });
    await page.goto(`${shop.url}/`);
    const order = await paidOrder(shop, page, person);
    await page.goto(`${shop.url}/my-tools/orders/${order.id}`);
    // What an earlier checkout in this tab left behind: the details the order was first billed to.
    await page.evaluate((draft) => sessionStorage.setItem('shop:billing-draft', JSON.stringify(draft)), {
      address: '14 Civil Lines, Jaipur',
      state: 'Rajasthan',
      country: 'India',
      gstin: '',
    });
    const billed = page.getByRole('region', { name: 'Billed to' });
    await expect(billed.getByRole('button', { name: ACTION })).toBeVisible({ timeout: 30_000 });

    await tabTo(ACTION, { max: 80 });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: ACTION });
    await expect(dialog).toBeVisible();
    await expectVisibleFocus(page, 'dialog opened', /Address/);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(ADDRESS);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Maharashtra');
    await expect(dialog.getByRole('combobox', { name: 'State' })).toHaveValue('Maharashtra');
    await page.keyboard.press('Tab');
    // A wrong check character: refused on the field before anything is sent, focus on it.
    await page.keyboard.type('27AAPFU0939F1ZW');
    await page.keyboard.press('Enter');
    const gstin = dialog.getByRole('textbox', { name: /GSTIN/ });
    await expect(gstin).toHaveAttribute('aria-invalid', 'true');
    await expect(gstin).toBeFocused();
    await checkScreen(page, `billing-correction-dialog-${width}`, { fullPage: false, at: width });

    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(GSTIN);
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden({ timeout: 15_000 });
    await expect(billed.getByRole('status')).toContainText(
      /^Credit note PCAC\/.* both are on their way by email\.$/,
    );
    await expect(billed).toContainText(GSTIN);
    await expect(billed).toContainText('Maharashtra');

    const documents = page.getByRole('region', { name: 'Tax documents' });
    const links = documents.getByRole('link');
    await expect(links).toHaveCount(3);
    await expect(links.nth(0)).toHaveText(`Invoice ${order.invoiceNumber}`);
    await expect(links.nth(1)).toHaveText(/^Credit note PCAC\/\d\d-\d\d\/\d{5}$/);
    await expect(links.nth(2)).toHaveText(/^Invoice PCA\/\d\d-\d\d\/\d{5}$/);
    await expect(documents).toContainText('Cancelled by credit note PCAC/');
    await expect(page.getByRole('region', { name: 'History' })).toContainText('Billing details corrected');
    await checkScreen(page, `billing-correction-done-${width}`, { at: width });

    // The new invoice as downloaded carries the GSTIN; one email brought both documents.
    const newInvoice = await page.request.get(`${shop.url}${await links.nth(2).getAttribute('href')}`);
    expect((await pdfText(await newInvoice.body())).replace(/\s+/g, ' ')).toContain(`GSTIN: ${GSTIN}`);
    const mail = await shop.smtp.waitFor(
      (m) => m.to.includes(person.email) && /corrected tax invoice/.test(m.subject),
    );
    expect(mail.attachments.map((file) => file.filename?.split('-')[0]).sort()).toEqual([
      'Credit',
      'Invoice',
    ]);

    // The next checkout offers the corrected GSTIN and address, not the ones first typed.
    const tools = (await (await page.request.get(`${shop.url}/api/alltools/`)).json()) as Array<{
      _id: string;
      device?: string;
      comingSoon?: boolean;
    }>;
    const macos = tools.find((tool) => tool.device === 'macOS' && !tool.comingSoon);
    await page.goto(`${shop.url}/utility-tools`);
    await page.getByRole('button', { name: 'INR' }).click();
    await expect(page.getByRole('button', { name: 'INR', pressed: true })).toBeVisible();
    await page.goto(`${shop.url}/utility-tools?checkout=${macos?._id}`);
    const billing = page.getByRole('dialog', { name: 'Billing Information', exact: true });
    await expect(billing).toBeVisible({ timeout: 30_000 });
    await expect(billing.getByRole('textbox', { name: /Address/ })).toHaveValue(ADDRESS);
    await expect(billing.getByRole('combobox', { name: 'State' })).toHaveValue('Maharashtra');
    await expect(billing.getByRole('textbox', { name: /GSTIN/ })).toHaveValue(GSTIN);
  });
}
