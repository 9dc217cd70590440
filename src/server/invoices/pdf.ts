import { BRAND_MARK } from '../../shared/brand-mark';
import { formatSubunits } from '../../shared/money';
import type { PaidAgainstProforma, ProformaTerms, TaxDocument } from './document';
import {
  type PdfFonts,
  printable,
  runsOf,
  setFont,
  shapingFor,
  type TypesetDocument,
  typeset,
  type Weight,
} from './pdf-text';
import { EXPORT_ENDORSEMENT } from './tax';

/**
 * Draws a tax invoice or credit note as an A4 PDF with real, searchable text. Noto Sans comes from npm at run
 * time, one file per script: each run of text is set in the file that has its glyphs (pdf-text.ts). The output
 * depends on the document alone (creation date and file id come from its date and number), so every download of
 * the same document is the same bytes.
 */

export const SPECIMEN_NOTICE = 'SPECIMEN — not a tax invoice';
export const PROFORMA_NOTICE = 'Proforma invoice — not a tax invoice';
export const REVERSE_CHARGE_NOTICE = 'Tax is not payable on reverse charge';

const INK = '#1f2937';
const MUTED = '#4b5563';
const BRAND = BRAND_MARK.background;
const ALERT = '#b42318';
const MARGIN = 48;
const A4_WIDTH = 595.28;
const CONTENT_WIDTH = A4_WIDTH - 2 * MARGIN;
/** The lowest line pdfkit draws on a page before it starts another (A4 is 841.89 high). */
const PAGE_BOTTOM = 841.89 - MARGIN;

type Doc = TypesetDocument;
type LineOptions = {
  size?: number;
  weight?: Weight;
  colour?: string;
  align?: 'left' | 'right';
  width?: number;
};

/** One line of text: each run of a script (the rupee sign included) is drawn in the file that has its glyphs. */
function line(doc: Doc, text: string, x: number, y: number, options: LineOptions = {}): void {
  const size = options.size ?? 9;
  const weight = options.weight ?? 'regular';
  const runs = runsOf(printable(text, { multiline: false }));
  const shaping = shapingFor(doc, runs, weight);
  const drawn = runs.map((run) => ({
    ...run,
    width: setFont(doc, run.face, weight).fontSize(size).widthOfString(run.text, shaping),
  }));
  const total = drawn.reduce((sum, run) => sum + run.width, 0);
  let cursor = options.align === 'right' && options.width ? x + options.width - total : x;
  doc.fillColor(options.colour ?? INK);
  for (const run of drawn) {
    setFont(doc, run.face, weight).fontSize(size);
    doc.text(run.text, cursor, y, { ...shaping, lineBreak: false });
    cursor += run.width;
  }
}

/**
 * Wrapped text (names, addresses, words); returns the y below it. Text of one font is one call, as it always was;
 * text of several scripts is a chain of runs per line, since pdfkit loses line breaks between chained runs.
 */
function paragraph(
  doc: Doc,
  text: string,
  x: number,
  y: number,
  width: number,
  options: LineOptions = {},
): number {
  const weight = options.weight ?? 'regular';
  const clean = printable(text, { multiline: true });
  const runs = runsOf(clean);
  doc.fontSize(options.size ?? 9).fillColor(options.colour ?? INK);
  if (runs.length <= 1) {
    setFont(doc, runs[0]?.face ?? 'latin', weight).text(clean, x, y, { width, lineGap: 1.5 });
    return doc.y;
  }
  let top = y;
  for (const textLine of clean.split('\n')) {
    const lineRuns = runsOf(textLine);
    const shaping = shapingFor(doc, lineRuns, weight);
    if (lineRuns.length === 0) lineRuns.push({ text: '', face: 'latin' });
    lineRuns.forEach((run, index) => {
      const settings = { ...shaping, width, lineGap: 1.5, continued: index < lineRuns.length - 1 };
      setFont(doc, run.face, weight);
      if (index === 0) doc.text(run.text, x, top, settings);
      else doc.text(run.text, settings);
    });
    top = doc.y;
  }
  return top;
}

function drawMark(doc: Doc, x: number, y: number, size: number): void {
  doc
    .save()
    .translate(x, y)
    .scale(size / BRAND_MARK.size);
  doc
    .roundedRect(0, 0, BRAND_MARK.size, BRAND_MARK.size, BRAND_MARK.cornerRadius)
    .fill(BRAND_MARK.background);
  doc.path(BRAND_MARK.letterPath).fill(BRAND_MARK.letterColour);
  doc.circle(BRAND_MARK.dot.cx, BRAND_MARK.dot.cy, BRAND_MARK.dot.r).fill(BRAND_MARK.dot.colour);
  doc.restore();
}

const formatDate = (isoDate: string) => {
  const [year, month, day] = isoDate.split('-');
  return `${day}/${month}/${year}`;
};
const money = (document: TaxDocument, subunits: number) => formatSubunits(subunits, document.currency);
const TITLES: Record<TaxDocument['kind'], string> = {
  invoice: 'Tax invoice',
  'credit-note': 'Credit note',
  proforma: 'Proforma invoice',
};
const NUMBER_LABELS: Record<TaxDocument['kind'], string> = {
  invoice: 'Invoice no.',
  'credit-note': 'Credit note no.',
  proforma: 'Proforma no.',
};
const title = (document: TaxDocument) => TITLES[document.kind];

function drawHeader(doc: Doc, d: TaxDocument, top: number): number {
  drawMark(doc, MARGIN, top, 40);
  const left = MARGIN + 52;
  const width = CONTENT_WIDTH - 52 - 210;
  let y = paragraph(doc, d.supplier.legalName, left, top - 2, width, {
    size: 13,
    weight: 'bold',
    colour: BRAND,
  });
  y = paragraph(doc, d.supplier.address, left, y + 2, width, { colour: MUTED });
  line(doc, `GSTIN: ${d.supplier.gstin}`, left, y + 2, { weight: 'bold' });
  line(doc, `State: ${d.supplier.stateName} (code ${d.supplier.stateCode})`, left, y + 14);
  y += 28;

  const right = { x: MARGIN + CONTENT_WIDTH - 200, width: 200, align: 'right' as const };
  line(doc, title(d).toUpperCase(), right.x, top, { ...right, size: 16, weight: 'bold', colour: BRAND });
  line(doc, `${NUMBER_LABELS[d.kind]} ${d.number}`, right.x, top + 24, { ...right, weight: 'bold' });
  line(doc, `Date: ${formatDate(d.date)}`, right.x, top + 37, right);
  if (d.proforma) {
    line(doc, `Valid until: ${formatDate(d.proforma.validUntil)}`, right.x, top + 50, {
      ...right,
      weight: 'bold',
    });
    line(doc, PROFORMA_NOTICE, right.x, top + 63, { ...right, weight: 'bold', colour: ALERT });
  }
  if (d.original) {
    line(doc, `Against invoice ${d.original.number}`, right.x, top + 50, right);
    line(doc, `dated ${formatDate(d.original.date)}`, right.x, top + 63, right);
  }
  return Math.max(y, top + 76);
}

function drawParties(doc: Doc, d: TaxDocument, top: number): number {
  const half = CONTENT_WIDTH / 2 - 10;
  line(doc, 'BILLED TO', MARGIN, top, { size: 8, weight: 'bold', colour: MUTED });
  let left = paragraph(doc, d.buyer.name, MARGIN, top + 11, half, { size: 10, weight: 'bold' });
  const addressLines = [
    d.buyer.address,
    d.buyer.stateName ? `${d.buyer.stateName} (state code ${d.buyer.stateCode})` : '',
    d.buyer.country,
  ].filter(Boolean);
  left = paragraph(doc, addressLines.join('\n'), MARGIN, left + 1, half);
  const gstin = d.buyer.gstin ? `GSTIN: ${d.buyer.gstin}` : 'Unregistered buyer (no GSTIN)';
  left = paragraph(doc, gstin, MARGIN, left + 2, half, { weight: d.buyer.gstin ? 'bold' : 'regular' });
  left = paragraph(doc, d.buyer.email, MARGIN, left, half, { colour: MUTED });

  const x = MARGIN + CONTENT_WIDTH / 2 + 10;
  line(doc, 'PLACE OF SUPPLY', x, top, { size: 8, weight: 'bold', colour: MUTED });
  const place = `${d.placeOfSupply.name} (${d.placeOfSupply.code})`;
  let right = paragraph(doc, place, x, top + 11, half, { size: 10, weight: 'bold' });
  right = paragraph(doc, REVERSE_CHARGE_NOTICE, x, right + 1, half);
  if (d.proforma) {
    right = paragraph(doc, 'Payable by payment link or bank transfer (NEFT/RTGS), below', x, right, half, {
      colour: MUTED,
    });
  } else if (d.paidAgainst) {
    right = paragraph(doc, `Against proforma ${d.paidAgainst.proforma.number}`, x, right, half, {
      colour: MUTED,
    });
  } else {
    right = paragraph(doc, `Payment: ${d.payment.razorpayPaymentId ?? '—'}`, x, right, half, {
      colour: MUTED,
    });
    right = paragraph(doc, `Order: ${d.payment.razorpayOrderId}`, x, right, half, { colour: MUTED });
  }
  return Math.max(left, right);
}

function drawLines(doc: Doc, d: TaxDocument, top: number): number {
  const columns = { description: MARGIN + 6, sac: MARGIN + 300, quantity: MARGIN + 350, value: MARGIN + 390 };
  const valueWidth = CONTENT_WIDTH - 396;
  doc.rect(MARGIN, top, CONTENT_WIDTH, 20).fill(BRAND);
  const head = { size: 8, weight: 'bold' as const, colour: '#ffffff' };
  line(doc, 'Description of service', columns.description, top + 6, head);
  line(doc, 'SAC', columns.sac, top + 6, head);
  line(doc, 'Qty', columns.quantity, top + 6, head);
  // With a discount the row shows the value before it; the totals take the discount off.
  const value = d.discount ? d.discount.listTaxableValue : d.taxableValue;
  line(doc, d.discount ? 'Value' : 'Taxable value', columns.value, top + 6, {
    ...head,
    align: 'right',
    width: valueWidth,
  });

  const rowTop = top + 28;
  const below = paragraph(doc, d.item.description, columns.description, rowTop, 280, { weight: 'bold' });
  // A team's line reads "N × unit price" (the unit price before a discount, GST included).
  const perSeat =
    d.item.unitPrice !== undefined
      ? paragraph(
          doc,
          `${d.item.quantity} × ${money(d, d.item.unitPrice)} (incl. GST)`,
          columns.description,
          below + 1,
          280,
        )
      : below;
  const after = paragraph(doc, d.item.sacDescription, columns.description, perSeat + 1, 280, {
    colour: MUTED,
  });
  line(doc, d.item.sac, columns.sac, rowTop);
  line(doc, String(d.item.quantity), columns.quantity, rowTop);
  line(doc, money(d, value), columns.value, rowTop, { align: 'right', width: valueWidth });
  const bottom = after + 6;
  doc
    .moveTo(MARGIN, bottom)
    .lineTo(MARGIN + CONTENT_WIDTH, bottom)
    .lineWidth(0.5)
    .stroke('#d1d5db');
  return bottom + 10;
}

function drawTotals(doc: Doc, d: TaxDocument, top: number): number {
  const x = MARGIN + CONTENT_WIDTH - 250;
  const width = 250;
  const row = (label: string, value: string, y: number, weight: Weight = 'regular') => {
    line(doc, label, x, y, { weight });
    line(doc, value, x, y, { weight, align: 'right', width: width - 6 });
  };
  let y = top;
  if (d.discount) {
    row('Value before discount', money(d, d.discount.listTaxableValue), y);
    y += 14;
    row(`Less discount (coupon ${d.discount.code})`, `-${money(d, d.discount.taxableDiscount)}`, y);
    y += 14;
  }
  row('Taxable value', money(d, d.taxableValue), y);
  for (const tax of d.taxes) {
    y += 14;
    row(`${tax.name} @ ${tax.ratePercent}%`, money(d, tax.amount), y);
  }
  y += 18;
  doc.rect(x - 6, y - 5, width + 6, 22).fill('#f3f4f6');
  row(`Total (${d.currency})`, money(d, d.total), y, 'bold');
  y += 24;
  const tds = d.proforma?.tds;
  if (d.proforma && tds) {
    row(`Less TDS u/s ${tds.section} @ ${tds.ratePercent}% of taxable value`, `-${money(d, tds.amount)}`, y);
    y += 18;
    doc.rect(x - 6, y - 5, width + 6, 22).fill('#e8eef5');
    row(`Amount due (${d.currency})`, money(d, d.proforma.amountDue), y, 'bold');
    y += 24;
  }
  if (d.settledInr !== null) {
    row('Value in INR settled by Razorpay', formatSubunits(d.settledInr, 'INR'), y);
    y += 14;
  }
  y = paragraph(doc, `Amount in words: ${d.totalInWords}`, MARGIN, y + 4, CONTENT_WIDTH, { weight: 'bold' });
  if (d.proforma && tds)
    y = paragraph(doc, `Amount due in words: ${d.proforma.amountDueInWords}`, MARGIN, y + 2, CONTENT_WIDTH, {
      weight: 'bold',
    });
  if (d.discount) {
    const { listPrice, amount, code } = d.discount;
    const text = `List price ${money(d, listPrice)} (incl. GST) less coupon ${code} ${money(d, amount)} (incl. GST) = ${money(d, d.total)}. GST is charged on the value after the discount.`;
    y = paragraph(doc, text, MARGIN, y + 2, CONTENT_WIDTH, { colour: MUTED });
  }
  return y + 8;
}

function drawNotes(doc: Doc, d: TaxDocument, top: number): number {
  let y = top;
  if (d.supplyType === 'export-lut') {
    y = paragraph(doc, EXPORT_ENDORSEMENT, MARGIN, y, CONTENT_WIDTH, { weight: 'bold', colour: BRAND });
    y = paragraph(doc, `LUT ARN: ${d.lutArn ?? ''}`, MARGIN, y + 2, CONTENT_WIDTH) + 6;
  } else if (d.supplyType === 'export-igst') {
    y = paragraph(doc, 'Export of services with payment of integrated tax.', MARGIN, y, CONTENT_WIDTH) + 6;
  }
  if (d.proforma) y = drawHowToPay(doc, d, d.proforma, y);
  if (d.paidAgainst) y = paragraph(doc, paidAgainstText(d, d.paidAgainst), MARGIN, y, CONTENT_WIDTH) + 6;
  if (d.kind === 'credit-note') {
    const reason = d.reason ? `Reason: ${d.reason}. ` : '';
    const text = `${reason}This credit note reduces the value and tax of invoice ${d.original?.number} for the refund of the payment above.`;
    y = paragraph(doc, text, MARGIN, y, CONTENT_WIDTH) + 6;
  }
  return y;
}

/** A proforma's validity, its TDS and the two ways to pay it: the payment link and the firm's bank account. */
function drawHowToPay(doc: Doc, d: TaxDocument, terms: ProformaTerms, top: number): number {
  let y = paragraph(doc, 'HOW TO PAY', MARGIN, top, CONTENT_WIDTH, {
    size: 8,
    weight: 'bold',
    colour: MUTED,
  });
  const due = money(d, terms.amountDue);
  if (terms.paymentLinkUrl) {
    // The whole line is the link (a click in the PDF opens the payment page), in one font: no rupee sign in it.
    doc.fillColor(BRAND);
    setFont(doc, 'latin', 'bold').fontSize(9);
    doc.text(`Pay online (card, UPI, net banking): ${terms.paymentLinkUrl}`, MARGIN, y + 2, {
      width: CONTENT_WIDTH,
      link: terms.paymentLinkUrl,
      underline: true,
    });
    y = doc.y;
  }
  if (terms.bank) {
    y = paragraph(
      doc,
      `By NEFT/RTGS: ${due} to ${d.supplier.legalName}, account ${terms.bank.accountNumber}, IFSC ${terms.bank.ifsc}, ${terms.bank.bankName}. Quote ${d.number} as the reference.`,
      MARGIN,
      y + 2,
      CONTENT_WIDTH,
    );
  }
  const tds = terms.tds
    ? ` TDS under section ${terms.tds.section} (PAN ${terms.tds.pan}): deduct ${money(d, terms.tds.amount)}, ${terms.tds.ratePercent}% of the taxable value ${money(d, d.taxableValue)} (GST shown apart, CBDT Circular 23/2017), and send us Form 16A; the tax invoice shows the full value.`
    : '';
  const text = `Prices and any coupon are held until ${formatDate(terms.validUntil)}; the order is cancelled if ${due} has not been received by then. The tax invoice is issued, dated, when the payment is received.${tds}`;
  return paragraph(doc, text, MARGIN, y + 4, CONTENT_WIDTH, { colour: MUTED }) + 6;
}

/** A tax invoice's line on the proforma it was paid against: the money received, and the TDS receivable. */
function paidAgainstText(d: TaxDocument, paid: PaidAgainstProforma): string {
  const receipts = paid.receipts
    .map(
      (receipt) =>
        `${money(d, receipt.amount)} by ${receipt.method === 'payment-link' ? 'payment link' : 'bank transfer'} (${receipt.reference}, ${formatDate(receipt.date)})`,
    )
    .join('; ');
  const tds = paid.tds
    ? ` TDS of ${money(d, paid.tds.amount)} under section ${paid.tds.section} (${paid.tds.ratePercent}% of the taxable value) is deducted by the buyer (PAN ${paid.tds.pan}): the total above is the value of the supply.`
    : '';
  return `Paid against proforma invoice ${paid.proforma.number} of ${formatDate(paid.proforma.date)}: ${receipts}.${tds}`;
}

function drawSignature(doc: Doc, d: TaxDocument, top: number): void {
  const x = MARGIN + CONTENT_WIDTH - 220;
  // Under the signature; a long document (a proforma with its ways to pay) keeps it beside a shorter signature
  // block, so it stays on one page.
  const roomy = Math.max(top + 20, 640) + 90 + 24 <= PAGE_BOTTOM;
  const y = roomy ? Math.max(top + 20, 640) : top + 10;
  const signatureGap = roomy ? 46 : 30;
  line(doc, `For ${d.supplier.legalName}`, x, y, { weight: 'bold', align: 'right', width: 220 });
  doc
    .moveTo(x + 40, y + signatureGap)
    .lineTo(x + 220, y + signatureGap)
    .lineWidth(0.5)
    .stroke(MUTED);
  line(doc, 'Authorised signatory', x, y + signatureGap + 5, { align: 'right', width: 220, colour: MUTED });
  const rule = d.kind === 'credit-note' ? 'rule 53' : 'rule 46';
  paragraph(
    doc,
    d.kind === 'proforma'
      ? 'A proforma invoice asks for payment: it is not a tax invoice and gives no input tax credit. The tax invoice under rule 46 of the CGST Rules, 2017 follows the payment.'
      : `Issued electronically under ${rule} of the CGST Rules, 2017. Keep this document for your tax records.`,
    MARGIN,
    roomy ? y + 90 : y + 2,
    roomy ? CONTENT_WIDTH : CONTENT_WIDTH - 240,
    { size: 7.5, colour: MUTED },
  );
}

function drawSpecimenBanner(doc: Doc): void {
  doc.rect(0, 0, A4_WIDTH, 26).fill('#fef3f2');
  line(doc, SPECIMEN_NOTICE, 0, 8, {
    size: 10,
    weight: 'bold',
    colour: ALERT,
    align: 'right',
    width: A4_WIDTH / 2 + 80,
  });
}

/** Renders a document snapshot to PDF bytes, in the app's fonts (`ctx.pdfFonts`). */
export async function renderTaxDocumentPdf(fonts: PdfFonts, d: TaxDocument): Promise<Buffer> {
  const issued = new Date(`${d.date}T00:00:00+05:30`);
  // Loaded when a document is first drawn: most processes (every `npm run admin` command, a server between
  // invoices) never draw one, and pdfkit and its fonts' code are a tenth of a start.
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    lang: 'en-IN',
    displayTitle: true,
    info: {
      Title: `${d.specimen ? `${SPECIMEN_NOTICE}: ` : ''}${title(d)} ${d.number}`,
      Author: d.supplier.legalName,
      Subject: `${title(d)} ${d.number} for ${printable(d.buyer.name, { multiline: false })}`,
      Creator: d.supplier.legalName,
      CreationDate: issued,
      ModDate: issued,
    },
  });
  const doc = typeset(pdf, fonts);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  let y = MARGIN;
  if (d.specimen) {
    drawSpecimenBanner(doc);
    y += 8;
  }
  y = drawHeader(doc, d, y) + 14;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + CONTENT_WIDTH, y)
    .lineWidth(1)
    .stroke(BRAND);
  y = drawParties(doc, d, y + 14) + 16;
  y = drawLines(doc, d, y);
  y = drawTotals(doc, d, y);
  y = drawNotes(doc, d, y);
  drawSignature(doc, d, y);
  doc.end();
  await finished;
  return Buffer.concat(chunks);
}
