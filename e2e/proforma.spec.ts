import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { pdfText } from '../test/support/invoices-helpers';
import { expect, person as personOf, test } from './fixtures';
import { checkScreen } from './support/check-screen';
import { expectVisibleFocus, tabTo as tabToIn } from './support/focus';
import { signInByKeyboard } from './support/steps';

/**
 * Buying as a firm (issue 68) with the keyboard alone, at a phone's and a desktop's width: a buyer with a GSTIN in
 * Maharashtra asks for a proforma invoice for 5 seats, deducting TDS; the order page shows it awaiting payment with
 * the amount due less TDS, the payment link and the bank details; the buyer uploads its Form 16A there. The billing
 * dialog and the order page: axe 0 at 390 and 1440 px; the proforma PDF read back and drawn (SHOTS_DIR).
 */
test.describe.configure({ mode: 'serial' });

const GSTIN = '27AAPFU0939F1ZV';
const ADDRESS = 'Unit 4, Trade Centre, Bandra Kurla Complex, Mumbai 400051';
const WINDOWS_BUY = 'Windows - ₹1,499.00: buy PDF Utility Toolkit (Windows)';

test.use({
  shopOptions: { name: 'proforma' },
  contextOptions: { timezoneId: 'Asia/Kolkata', locale: 'en-US' },
});

/** A small real PDF, as the buyer's Form 16A would be. */
function form16a(): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument();
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.text('FORM NO. 16A: certificate under section 203 for tax deducted at source');
    doc.end();
  });
}

for (const width of [390, 1440]) {
  test(`at ${width} px, keyboard only: a proforma for 5 seats with TDS, on the order page, then the Form 16A`, async ({
    shop,
    page,
  }) => {
    test.setTimeout(180_000);
    const buyer = personOf(
      `Meera Kulkarni ${width}`,
      `meera.${width}@example.in`,
      '+919812345674',
      'Monsoon-ledger-6620',
    );
    const tabTo = (name: string | RegExp, options?: { back?: boolean; max?: number }) =>
      tabToIn(page, name, options);
    await shop.signUp(buyer);
    await page.setViewportSize({ width, height: width < 768 ? 844 : 900 });
    await signInByKeyboard(page, shop.url, buyer);

    await tabTo('INR');
    await page.keyboard.press('Space');
    await tabTo(WINDOWS_BUY);
    await page.keyboard.press('Enter');
    const billing = page.getByRole('dialog', { name: 'Billing Information', exact: true });
    await expect(billing).toBeVisible();
    await expectVisibleFocus(page, 'billing opened', /Address/);
    await page.keyboard.type(ADDRESS);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Maharashtra');
    await expect(billing.getByRole('combobox', { name: 'State' })).toHaveValue('Maharashtra');
    await tabTo(/^GSTIN/);
    await page.keyboard.type(GSTIN);
    await tabTo(/^Seats/);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('5');
    const summary = billing.getByRole('region', { name: 'Order summary' });
    await expect(summary.getByTestId('order-total')).toHaveText('₹7,495.00');

    // TDS: 10 % of the taxable value (₹7,495.00 ÷ 1.18 = ₹6,351.69, IGST to Maharashtra) comes off what is due.
    await tabTo(/We deduct TDS/);
    await page.keyboard.press('Space');
    const pan = billing.getByRole('textbox', { name: /^PAN for TDS/ });
    await expect(pan).toHaveValue('AAPFU0939F');
    await expect(summary).toContainText('IGST 18 %₹1,143.31');
    await expect(summary).toContainText('₹635.17');
    await expect(billing.getByRole('button', { name: /Proceed to Payment · Pay ₹6,859\.83/ })).toBeVisible();
    await checkScreen(page, `proforma-journey-${width}-billing`, { fullPage: false, at: width });

    await tabTo('Get a proforma invoice');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/my-tools\/orders\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    const awaiting = page.getByRole('region', { name: 'Awaiting payment' });
    await expect(awaiting).toBeVisible({ timeout: 30_000 });
    await expect(awaiting).toContainText('Amount due₹6,859.83');
    await expect(awaiting).toContainText('Specimen Bank');
    await expect(awaiting.getByRole('link', { name: 'Pay ₹6,859.83 online' })).toBeVisible();
    const tdsPanel = page.getByRole('region', { name: 'TDS and Form 16A' });
    await expect(tdsPanel).toContainText('Not received yet');
    await checkScreen(page, `proforma-journey-${width}-order-awaiting`, {
      noHorizontalScroll: true,
      at: width,
    });

    // The proforma itself, as the buyer downloads it: the same figures, to the paisa.
    const proformaLink = awaiting.getByRole('link', { name: /^Proforma invoice PCAP\// });
    const pdf = await page.request.get(`${shop.url}${await proformaLink.getAttribute('href')}`);
    expect(pdf.status()).toBe(200);
    const text = (await pdfText(await pdf.body())).replace(/\s+/g, ' ');
    for (const figure of [
      'Proforma invoice',
      '6,351.69',
      '1,143.31',
      '7,495.00',
      '635.17',
      '6,859.83',
      GSTIN,
    ])
      expect(text).toContain(figure);
    if (process.env.SHOTS_DIR) {
      mkdirSync(process.env.SHOTS_DIR, { recursive: true });
      const file = path.join(process.env.SHOTS_DIR, `proforma-pdf-${width}.pdf`);
      writeFileSync(file, await pdf.body());
      execFileSync('pdftoppm', ['-png', '-r', '80', file, file.replace(/\.pdf$/, '')]);
    }

    // The Form 16A, chosen and uploaded with the keyboard.
    await tabTo(/^Form 16A \(PDF\)/);
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Space');
    await (await chooser).setFiles({
      name: 'form16a-q3.pdf',
      mimeType: 'application/pdf',
      buffer: await form16a(),
    });
    await tabTo('Upload Form 16A');
    await page.keyboard.press('Enter');
    await expect(tdsPanel).toContainText('Received', { timeout: 15_000 });
    await expect(tdsPanel.getByRole('link', { name: /form16a-q3\.pdf/ })).toBeVisible();
    await checkScreen(page, `proforma-journey-${width}-order-form16a`, {
      noHorizontalScroll: true,
      at: width,
    });
  });
}
