import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import { pdfFonts, pdfInfo, pdfText, productionFirm } from '../../../test/support/invoices-helpers';
import { isLayoutControl } from '../../shared/input-policy';
import { buildCreditNoteDocument, buildInvoiceDocument, type InvoiceInput } from './document';
import { REVERSE_CHARGE_NOTICE, renderTaxDocumentPdf, SPECIMEN_NOTICE } from './pdf';
import { createPdfFonts } from './pdf-text';

const typefaces = createPdfFonts();

import { EXPORT_ENDORSEMENT } from './tax';

const firm = productionFirm({ lutArn: 'AD080423000123X' });
const base = {
  firm,
  issuedAt: new Date('2026-06-01T10:00:00Z'),
  itemDescription: 'GST Return Helper (Windows) — license for one user, delivered electronically',
  payment: { razorpayOrderId: 'order_Q1w2E3r4T5y6U7', razorpayPaymentId: 'pay_A1s2D3f4G5h6J7' },
  settledInr: null,
} satisfies Partial<InvoiceInput>;

const rajasthan = buildInvoiceDocument({
  ...base,
  number: 'PCA/26-27/00001',
  buyer: {
    name: 'Asha Meena',
    email: 'asha@example.com',
    billing: { address: '12 Civil Lines, Jaipur 302006', state: 'Rajasthan', country: 'India', gstin: '' },
  },
  currency: 'INR',
  total: 1499_00,
});
const maharashtraB2b = buildInvoiceDocument({
  ...base,
  number: 'PCA/26-27/00002',
  buyer: {
    name: 'Ravi Traders',
    email: 'accounts@ravi.example',
    billing: {
      address: 'Unit 4, Andheri East, Mumbai',
      state: 'Maharashtra',
      country: 'India',
      gstin: '27AAPFU0939F1ZV',
    },
  },
  currency: 'INR',
  total: 499_00,
});
const exportBuyer = {
  name: 'John Smith',
  email: 'john@example.com',
  billing: { address: '', state: '', country: 'United States', gstin: '' },
};
const exported = buildInvoiceDocument({
  ...base,
  number: 'PCA/26-27/00003',
  buyer: exportBuyer,
  currency: 'USD',
  total: 19_99,
  settledInr: 1679_16,
});

/** pdftotext puts table cells on their own lines; one line per run of spaces keeps the assertions readable. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('tax invoice PDF', () => {
  it('is one A4 page of searchable text with the firm identity and every rule 46 item (intra-state)', async () => {
    const pdf = await renderTaxDocumentPdf(typefaces, rajasthan);
    expect((await pdfInfo(pdf))['Page size']).toMatch(/^595\.2\d* x 841\.8\d* pts \(A4\)/);
    expect((await pdfInfo(pdf)).Pages).toBe('1');
    const text = flat(await pdfText(pdf));
    for (const expected of [
      'TAX INVOICE',
      'Pinkcity Advisors LLP',
      '3rd Floor, Ganpati Plaza, MI Road',
      'Jaipur, Rajasthan 302001',
      'GSTIN: 08AAPFP1234A1ZK',
      'Invoice no. PCA/26-27/00001',
      'Date: 01/06/2026',
      'Asha Meena',
      '12 Civil Lines, Jaipur 302006',
      'Rajasthan (state code 08)',
      'Unregistered buyer (no GSTIN)',
      'Rajasthan (08)',
      '997331',
      'Licensing services for the right to use computer software and databases',
      'CGST @ 9% ₹114.33',
      'SGST @ 9% ₹114.33',
      'Taxable value ₹1,270.34',
      'Total (INR) ₹1,499.00',
      'Rupees One Thousand Four Hundred Ninety-Nine Only',
      REVERSE_CHARGE_NOTICE,
      'Authorised signatory',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('IGST @');
    expect(text).not.toContain(SPECIMEN_NOTICE);
  });

  it('charges IGST to a buyer in another state and prints their GSTIN (inter-state B2B)', async () => {
    const text = flat(await pdfText(await renderTaxDocumentPdf(typefaces, maharashtraB2b)));
    expect(text).toContain('Maharashtra (27)');
    expect(text).toContain('GSTIN: 27AAPFU0939F1ZV');
    expect(text).toContain('IGST @ 18% ₹76.12');
    expect(text).toContain('Taxable value ₹422.88');
    expect(text).toContain('Total (INR) ₹499.00');
    expect(text).not.toContain('CGST @');
    expect(422_88 + 76_12).toBe(maharashtraB2b.total);
  });

  it('zero-rates an export under the LUT, with the endorsement and the INR value settled', async () => {
    const text = flat(await pdfText(await renderTaxDocumentPdf(typefaces, exported)));
    expect(text).toContain('Outside India (United States) (96)');
    expect(text).toContain(EXPORT_ENDORSEMENT);
    expect(text).toContain('LUT ARN: AD080423000123X');
    expect(text).toContain('IGST @ 0% $0.00');
    expect(text).toContain('Total (USD) $19.99');
    expect(text).toContain('Value in INR settled by Razorpay ₹1,679.16');
    expect(text).toContain('US Dollars Nineteen and Ninety-Nine Cents Only');
  });

  it('charges IGST on an export when there is no LUT, without the endorsement', async () => {
    const document = buildInvoiceDocument({
      ...base,
      firm: productionFirm(),
      number: 'PCA/26-27/00004',
      buyer: exportBuyer,
      currency: 'USD',
      total: 19_99,
      settledInr: 1679_16,
    });
    const text = flat(await pdfText(await renderTaxDocumentPdf(typefaces, document)));
    expect(text).toContain('IGST @ 18% $3.05');
    expect(text).toContain('Taxable value $16.94');
    expect(text).not.toContain(EXPORT_ENDORSEMENT);
  });

  it('gives a credit note its own number, the invoice it corrects and the same tax split', async () => {
    const note = buildCreditNoteDocument({
      invoice: maharashtraB2b,
      firm,
      number: 'PCAC/26-27/00001',
      issuedAt: new Date('2026-06-05T10:00:00Z'),
      amount: maharashtraB2b.total,
      reason: 'Bought the Windows edition by mistake',
    });
    const text = flat(await pdfText(await renderTaxDocumentPdf(typefaces, note)));
    expect(text).toContain('CREDIT NOTE');
    expect(text).toContain('Credit note no. PCAC/26-27/00001');
    expect(text).toContain('Against invoice PCA/26-27/00002 dated 01/06/2026');
    expect(text).toContain('IGST @ 18% ₹76.12');
    expect(text).toContain('Total (INR) ₹499.00');
    expect(text).toContain('GSTIN: 27AAPFU0939F1ZV');
    expect(text).toContain('Reason: Bought the Windows edition by mistake');
  });

  it('says SPECIMEN on every document of a specimen identity', async () => {
    const specimen = { ...rajasthan, specimen: true };
    expect(flat(await pdfText(await renderTaxDocumentPdf(typefaces, specimen)))).toContain(SPECIMEN_NOTICE);
  });

  it('renders the same bytes every time', async () => {
    const first = await renderTaxDocumentPdf(typefaces, exported);
    const second = await renderTaxDocumentPdf(typefaces, structuredClone(exported));
    expect(first.equals(second)).toBe(true);
  });

  it('embeds a font that really has the rupee sign', async () => {
    const require = createRequire(import.meta.url);
    const file = require.resolve('@fontsource/noto-sans/files/noto-sans-latin-ext-400-normal.woff');
    const font = fontkit.create(readFileSync(file)) as fontkit.Font;
    expect(font.hasGlyphForCodePoint('₹'.codePointAt(0) ?? 0)).toBe(true);
  });
});

/** An invoice for a buyer who wrote their name and address in an Indian script. */
const inScript = (name: string, address: string) =>
  buildInvoiceDocument({
    ...base,
    number: 'PCA/26-27/00009',
    buyer: {
      name,
      email: 'kshama@example.com',
      billing: { address, state: 'Rajasthan', country: 'India', gstin: '' },
    },
    currency: 'INR',
    total: 1499_00,
  });

describe('tax documents in the scripts of Indian addresses', () => {
  it('prints a Devanagari name and address as text, set in Noto Sans Devanagari', async () => {
    const pdf = await renderTaxDocumentPdf(
      typefaces,
      inScript('श्रीमती क्षमा', 'प्लॉट १२, गोपालपुरा बाईपास\nजयपुर ३०२०१८'),
    );
    const text = await pdfText(pdf);
    for (const expected of ['श्रीमती क्षमा', 'प्लॉट १२, गोपालपुरा बाईपास', 'जयपुर ३०२०१८'])
      expect(text).toContain(expected);
    expect(await pdfFonts(pdf)).toEqual(
      expect.arrayContaining(['NotoSansDevanagari-Bold', 'NotoSansDevanagari-Regular', 'NotoSans-Regular']),
    );
    expect((await pdfInfo(pdf)).Pages).toBe('1');
  });

  it('sets each script of an address in its own Noto file, Gurmukhi marks included', async () => {
    const address = ['কলকাতা · અમદાવાદ · ਅੰਮ੍ਰਿਤਸਰ · தமிழ்நாடு', 'హైదరాబాద్ · ಬೆಂಗಳೂರು · തിരുവനന്തപുരം · ଓଡ଼ିଶା'].join('\n');
    const pdf = await renderTaxDocumentPdf(typefaces, inScript('Kshama Tripathi', address));
    const fonts = await pdfFonts(pdf);
    for (const script of [
      'Bengali',
      'Gujarati',
      'Gurmukhi',
      'Tamil',
      'Telugu',
      'Kannada',
      'Malayalam',
      'Oriya',
    ])
      expect(fonts).toContain(`NotoSans${script}-Regular`);
    const text = await pdfText(pdf);
    // Words whose glyphs read back in logical order and composed (a vowel sign drawn before its consonant reads
    // back reordered, Telugu's ై decomposed): what a buyer sees is checked in the fonts above and by eye.
    for (const word of ['কলকাতা', 'અમદાવાદ', 'ಬೆಂಗಳೂರು', 'തിരുവനന്തപുരം']) expect(text).toContain(word);
  });

  it('replaces control characters that older stored text still holds', async () => {
    const pdf = await renderTaxDocumentPdf(
      typefaces,
      inScript('Asha\u0007 Meena\u202e', '12 Civil Lines\u0085Jaipur\u2028302006 \u202eevil\u202c'),
    );
    const text = await pdfText(pdf);
    expect(text).toContain('Asha Meena');
    expect(text).toContain('12 Civil Lines Jaipur 302006 evil');
    // pdftotext itself ends lines with LF and the page with a form feed; nothing else may be a control.
    const controls = [...text].filter(
      (char) => (char < ' ' && char !== '\n' && char !== '\f') || isLayoutControl(char.charCodeAt(0)),
    );
    expect(controls).toEqual([]);
  });

  it('renders the same bytes every time in any script', async () => {
    const document = inScript('श्रीमती क्षमा', 'ਅੰਮ੍ਰਿਤਸਰ · சென்னை');
    const first = await renderTaxDocumentPdf(typefaces, document);
    expect(first.equals(await renderTaxDocumentPdf(typefaces, structuredClone(document)))).toBe(true);
    // The parsed fonts are shared by every document an instance draws: another document drawn in between, and
    // fonts parsed afresh, give the same bytes.
    await renderTaxDocumentPdf(typefaces, inScript('ਗੁਰਪ੍ਰੀਤ ਸਿੰਘ', 'কলকাতা · ಬೆಂಗಳೂರು'));
    expect(first.equals(await renderTaxDocumentPdf(typefaces, document))).toBe(true);
    expect(first.equals(await renderTaxDocumentPdf(createPdfFonts(), document))).toBe(true);
  });
});
