import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  LicenseClient,
  licensedFrom,
  verifyLicenseFile,
} from '../../../../packages/license-client/src/index';
import type { TestClient } from '../../../../test/support/client';
import { shopTestAppForFile } from '../../../../test/support/file-apps';
import { pdfText } from '../../../../test/support/invoices-helpers';
import { fingerprint, licenseApiCall } from '../../../../test/support/license-fixtures';
import { myLicenseOf } from '../../../../test/support/renewal-fixtures';
import { addTool, newBuyer, orderRow, payThroughEmulator } from '../../../../test/support/shop-fixtures';
import { seatMember } from '../../../../test/support/team-fixtures';
import type { CheckoutQuote } from '../../../shared/checkout-quote';
import { newEditionSchema } from '../../../shared/edition-schemas';
import type { OrderHistoryOrder } from '../../../shared/order-history';
import type { Tool } from '../../../shared/shop';
import { addEdition } from '../../catalogue/editions';
import type { AccountExport } from '../../data-rights/data-export';
import { creditNotes, invoices } from '../../db/schema/invoices';
import { gstr1Report } from '../../invoices/gstr1';
import { cliActor } from '../../operator/audit';
import { refundOrder } from '../refund';

/**
 * Issue 64's must-show, on whichever database the run uses (PGlite, then PostgreSQL in CI): a tool sold as Standard
 * (₹1,499, nothing extra) and Pro (₹2,999, `ocr` and `batch`); a business in Rajasthan buys Standard and upgrades
 * for the difference, through the same checkout, invoice and GSTR-1 as any order; its refund moves it back.
 */

const LUT_ARN = 'AD080423000123X';
// A GSTIN of Rajasthan, the firm's own state: CGST + SGST.
const RAJASTHAN = {
  address: 'Plot 12, Malviya Nagar Industrial Area, Jaipur',
  state: 'Rajasthan',
  country: 'India',
  gstin: '08ABCDE1234F1Z0',
  currency: 'INR',
} as const;
const GERMANY = {
  address: 'Hauptstrasse 1, Berlin',
  state: '',
  country: 'Germany',
  gstin: '',
  currency: 'USD',
};

const t = shopTestAppForFile({ env: { LUT_ARN } });
let toolId: string;
let standardId: string;
let proId: string;

beforeAll(async () => {
  toolId = (
    await addTool(t, { name: 'PDF Tool', device: 'Windows', priceInrPaise: 1499_00, activationLimit: 2 })
  ).id;
  const actor = cliActor('editions-test');
  standardId = (
    await addEdition(
      t.ctx,
      toolId,
      newEditionSchema.parse({ name: 'Standard', priceInrPaise: 1499_00, priceUsdCents: 19_00 }),
      actor,
    )
  ).edition.id;
  proId = (
    await addEdition(
      t.ctx,
      toolId,
      newEditionSchema.parse({
        name: 'Pro',
        priceInrPaise: 2999_00,
        priceUsdCents: 39_00,
        entitlements: ['ocr', 'batch'],
      }),
      actor,
    )
  ).edition.id;
}, 120_000);

const flat = (text: string) => text.replace(/\s+/g, ' ');
const rupees = (subunits: number) =>
  `₹${(subunits / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

async function licenseCall(action: 'activate' | 'validate', licenseKey: string, machine: string) {
  const response = await licenseApiCall(t, action, {
    licenseKey,
    toolId,
    fingerprint: machine,
    ...(action === 'activate' ? { name: 'Accounts PC' } : {}),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{
    code: string;
    edition: { name: string } | null;
    entitlements: string[];
    licenseFile?: string;
  }>();
}

const myLicense = (client: TestClient) => myLicenseOf(client, toolId);

async function invoiceTextOf(client: TestClient, orderId: string): Promise<string> {
  const listed = (await client.get('/api/orders/'))
    .json<OrderHistoryOrder[]>()
    .find((order) => order.id === orderId);
  const pdf = await client.get(listed?.invoiceUrl ?? '');
  expect(pdf.statusCode).toBe(200);
  return flat(await pdfText(pdf.rawPayload));
}

describe('editions and upgrades', () => {
  it('shows each edition in the catalogue with its prices and entitlements', async () => {
    const catalogue = (await (await t.client()).get('/api/alltools/')).json<Tool[]>();
    expect(catalogue.find((tool) => tool._id === toolId)?.editions).toEqual([
      { id: standardId, name: 'Standard', priceInr: 1499, priceUsd: 19, entitlements: [], deviceLimit: 2 },
      {
        id: proId,
        name: 'Pro',
        priceInr: 2999,
        priceUsd: 39,
        entitlements: ['ocr', 'batch'],
        deviceLimit: 2,
      },
    ]);
    // A tool sold at its own prices answers as it did before editions: no editions field at all.
    const other = catalogue.find((tool) => tool._id !== toolId);
    expect(other).toBeDefined();
    expect(other && 'editions' in other).toBe(false);
  });

  it('sells Standard, then upgrades it to Pro for the difference with GST, on the same key and machine', async () => {
    const buyer = await newBuyer(t);
    // An order of a tool with editions names one.
    const unnamed = await buyer.client.post('/api/checkout/quote', {
      toolId,
      currency: 'INR',
      state: 'Rajasthan',
    });
    expect(unnamed.statusCode).toBe(400);

    const first = await payThroughEmulator(t, buyer.client, {
      toolId,
      editionId: standardId,
      currency: 'INR',
      billingDetails: RAJASTHAN,
    });
    expect(first).toMatchObject({ status: 'paid', kind: 'new-license', amount: 1499_00 });
    const standardText = await invoiceTextOf(buyer.client, first.id);
    expect(standardText).toContain('PDF Tool (Windows) — Standard — license for up to 2 devices');

    const license = await myLicense(buyer.client);
    const key = license.licenseKey ?? '';
    const machine = fingerprint('accounts-pc');
    expect((await licenseCall('activate', key, machine)).code).toBe('VALID');
    expect(await licenseCall('validate', key, machine)).toMatchObject({
      code: 'VALID',
      edition: { name: 'Standard' },
      entitlements: [],
    });

    // My Tools offers the upgrade at the difference; the quote splits its GST as the invoice will.
    expect(license.edition).toEqual({ id: standardId, name: 'Standard' });
    expect(license.upgrades).toEqual([
      { editionId: proId, name: 'Pro', amount: 1500_00, currency: 'INR', entitlements: ['ocr', 'batch'] },
    ]);
    const quote = await buyer.client.post('/api/checkout/quote', {
      upgradeLicenseId: license.licenseId,
      editionId: proId,
      currency: 'INR',
      state: 'Rajasthan',
      gstin: RAJASTHAN.gstin,
    });
    expect(quote.statusCode, quote.body).toBe(200);
    const quoted = quote.json<CheckoutQuote>();
    expect(quoted).toMatchObject({ listPrice: 1500_00, discount: 0, total: 1500_00 });
    expect(quoted.taxes.map((tax) => tax.name)).toEqual(['CGST', 'SGST']);
    expect(quoted.taxableValue + quoted.taxes.reduce((sum, tax) => sum + tax.amount, 0)).toBe(1500_00);

    const upgrade = await payThroughEmulator(t, buyer.client, {
      upgradeLicenseId: license.licenseId,
      editionId: proId,
      currency: 'INR',
      billingDetails: RAJASTHAN,
    });
    expect(upgrade).toMatchObject({
      status: 'paid',
      kind: 'upgrade',
      amount: quoted.total,
      licenseId: license.licenseId,
    });

    // Its own invoice: the upgrade line, the taxable value and CGST + SGST the quote showed, the total paid.
    const upgradeText = await invoiceTextOf(buyer.client, upgrade.id);
    expect(upgradeText).toContain('PDF Tool (Windows) — Upgrade from Standard to Pro');
    expect(upgradeText).toContain(`Taxable value ${rupees(quoted.taxableValue)}`);
    for (const tax of quoted.taxes) expect(upgradeText).toContain(`${tax.name} @ 9% ${rupees(tax.amount)}`);
    expect(upgradeText).toContain(`Total (INR) ${rupees(upgrade.amount)}`);

    // The same key on the same machine now runs as Pro, without activating again.
    const validated = await licenseCall('validate', key, machine);
    expect(validated).toMatchObject({
      code: 'VALID',
      edition: { name: 'Pro' },
      entitlements: ['ocr', 'batch'],
    });
    // A new license file verifies with the reference client and carries what Pro unlocks.
    const client = new LicenseClient({ serverUrl: t.baseUrl, toolId });
    const checked = verifyLicenseFile(validated.licenseFile ?? '', await client.publicKeys(), {
      fingerprint: machine,
      toolId,
      now: t.clock.now(),
    });
    expect(checked.valid ? 'valid' : checked.reason).toBe('valid');
    const licensed = licensedFrom(checked.valid ? checked.payload : {});
    expect(licensed.edition?.name).toBe('Pro');
    expect(licensed.hasEntitlement('ocr')).toBe(true);
    expect(licensed.hasEntitlement('translate')).toBe(false);
    expect((await myLicense(buyer.client)).upgrades).toEqual([]);
    // The buyer's data export names the license's edition and its upgrade.
    const exported = (await buyer.client.get('/api/account/export')).json<AccountExport>();
    expect(exported.licenses.find((each) => each.licenseKey === key)).toMatchObject({
      edition: 'Pro',
      upgrades: [{ orderId: upgrade.id, from: 'Standard', to: 'Pro', refunded: false }],
    });

    // GSTR-1: both invoices are B2B lines of the buyer's GSTIN, each with its own taxable value.
    const issued = await t.ctx.db.select().from(invoices).where(eq(invoices.userId, buyer.user.id));
    const day = issued[0]?.issuedAt.toISOString().slice(0, 10) ?? '';
    const report = await gstr1Report(t.ctx, { from: day, to: day });
    const lines = report.b2b.filter((line) => line.buyerGstin === RAJASTHAN.gstin);
    expect(lines.map((line) => line.total).sort()).toEqual([1499_00, 1500_00]);
    expect(lines.find((line) => line.total === 1500_00)?.taxableValue).toBe(quoted.taxableValue);

    // A refund of the upgrade: a credit note for the upgrade alone; the license answers Standard again.
    await refundOrder(t.ctx, { orderId: upgrade.id, source: 'admin', reason: 'Asked for by the buyer' });
    const notes = await t.ctx.db.select().from(creditNotes).where(eq(creditNotes.userId, buyer.user.id));
    expect(notes.map((note) => [note.orderId, note.total])).toEqual([[upgrade.id, 1500_00]]);
    expect(await licenseCall('validate', key, machine)).toMatchObject({
      code: 'VALID',
      edition: { name: 'Standard' },
      entitlements: [],
    });
    expect((await orderRow(t, first.razorpayOrderId)).status).toBe('paid');
    const firstInvoice = issued.find((invoice) => invoice.orderId === first.id);
    const [untouched] = await t.ctx.db.select().from(invoices).where(eq(invoices.orderId, first.id));
    expect(untouched).toEqual(firstInvoice);
  });

  it('upgrades a 3-seat team for 3 × the difference, and every member key answers Pro', async () => {
    const owner = await newBuyer(t);
    await payThroughEmulator(t, owner.client, {
      toolId,
      editionId: standardId,
      currency: 'INR',
      billingDetails: RAJASTHAN,
      seats: 3,
    });
    const team = await myLicense(owner.client);
    // Two colleagues take seats (the team's own tests cover invitations by email).
    const memberKeys = [
      await seatMember(t, owner.client, team.licenseId),
      await seatMember(t, owner.client, team.licenseId),
    ];
    expect(team.upgrades).toEqual([expect.objectContaining({ editionId: proId, amount: 3 * 1500_00 })]);

    const upgrade = await payThroughEmulator(t, owner.client, {
      upgradeLicenseId: team.licenseId,
      editionId: proId,
      currency: 'INR',
      billingDetails: RAJASTHAN,
    });
    expect(upgrade).toMatchObject({ seats: 3, listPrice: 3 * 1500_00, amount: 3 * 1500_00 });
    for (const key of [team.licenseKey ?? '', ...memberKeys]) {
      const machine = fingerprint('team');
      await licenseCall('activate', key, machine);
      expect(await licenseCall('validate', key, machine)).toMatchObject({
        edition: { name: 'Pro' },
        entitlements: ['ocr', 'batch'],
      });
    }
  });

  it('upgrades a USD license in USD as an export under the LUT', async () => {
    const buyer = await newBuyer(t);
    await payThroughEmulator(t, buyer.client, {
      toolId,
      editionId: standardId,
      currency: 'USD',
      billingDetails: GERMANY,
    });
    const license = await myLicense(buyer.client);
    expect(license.upgrades).toEqual([expect.objectContaining({ amount: 20_00, currency: 'USD' })]);
    const inRupees = await buyer.client.post('/api/checkout/quote', {
      upgradeLicenseId: license.licenseId,
      editionId: proId,
      currency: 'INR',
      state: 'Rajasthan',
    });
    expect(inRupees.statusCode).toBe(400);
    const upgrade = await payThroughEmulator(t, buyer.client, {
      upgradeLicenseId: license.licenseId,
      editionId: proId,
      currency: 'USD',
      billingDetails: GERMANY,
    });
    expect(upgrade).toMatchObject({ currency: 'USD', amount: 20_00 });
    const text = await invoiceTextOf(buyer.client, upgrade.id);
    expect(text).toContain('Upgrade from Standard to Pro');
    expect(text).toContain(`LUT ARN: ${LUT_ARN}`);
    expect(text).toContain('IGST @ 0% $0.00');
    expect(text).toContain('Total (USD) $20.00');
  });
});
