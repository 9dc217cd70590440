/**
 * A large shop written straight into the tables (issue 35): buyers, paid, refunded, failed and abandoned orders in
 * INR and USD over three financial years with their invoices and credit notes (some priced with a coupon, the
 * discount on the invoice), purchases, licenses and devices, free trials (some converted into the paid license,
 * most ended unbought, with the machines they claimed), coupon uses, order history, sent mail, contact messages and
 * audit entries. `npm run seed:scale` and `npm run bench -- --scale`
 * both call `seedScale`.
 *
 * The rows follow the shop's rules: documents are built by the invoice module's own builders, numbered per series
 * and financial year in order of issue with no gap, and the counters are left at the last number, so the next real
 * invoice follows. License keys are hashed and sealed through ctx.dataSecrets. What is not done row by row, to stay
 * fast: every buyer shares ONE password hash (scrypt takes ~100 ms a password; the password is in the manifest),
 * and emails are stored with a short body instead of the rendered template.
 *
 * Repeatable: every choice comes from a small PRNG seeded with `seed`; only the nonces of sealed values differ
 * from run to run (AES-GCM needs fresh ones).
 */
import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { hashPassword } from '../../src/server/auth/passwords';
import { seedDefaultCatalogue } from '../../src/server/catalogue/seed';
import { COUPON_HOLD_MS } from '../../src/server/coupons/redemptions';
import { users } from '../../src/server/db/schema/accounts';
import { tools } from '../../src/server/db/schema/catalogue';
import { contactMessages } from '../../src/server/db/schema/contact';
import { couponRedemptions, coupons } from '../../src/server/db/schema/coupons';
import { creditNotes, documentCounters, invoices } from '../../src/server/db/schema/invoices';
import { licenseActivations, licenses } from '../../src/server/db/schema/licenses';
import { outbox } from '../../src/server/db/schema/mail';
import { auditLog } from '../../src/server/db/schema/operator';
import { orderEvents, orders, purchases } from '../../src/server/db/schema/orders';
import { trialMachines, trials } from '../../src/server/db/schema/trials';
import {
  buildCreditNoteDocument,
  buildInvoiceDocument,
  type TaxDocument,
} from '../../src/server/invoices/document';
import { financialYearOf, formatDocumentNumber } from '../../src/server/invoices/numbering';
import type { AppContext } from '../../src/server/kernel/context';
import { TRIAL_MACHINE_PURPOSE } from '../../src/server/licenses/activate';
import { storedSecret } from '../../src/server/licenses/secrets-at-rest';
import { sealMailBody } from '../../src/server/mail/outbox';
import { CONTACT_TOPICS } from '../../src/shared/constants';
import { type CouponValue, couponDiscount } from '../../src/shared/coupons';
import { INDIAN_STATES } from '../../src/shared/indian-states';
import type { LicenseCredentials } from '../../src/shared/licenses';
import { orderAmountSubunits } from '../../src/shared/money';

export type ScaleOptions = { buyers: number; orders: number; seed: number };

/** What a benchmark needs to find in the seeded shop: named buyers, keys, ids and numbers that exist. */
export type ScaleManifest = ScaleOptions & {
  password: string;
  /** Owns 50 tools (My Tools). */
  fiftyToolsBuyer: string;
  /** Has 100 orders (50 refunded, 50 paid): "Download my data". */
  hundredOrdersBuyer: string;
  sampleEmails: string[];
  samplePaymentIds: string[];
  sampleInvoiceNumbers: string[];
  /** Active licenses of license-key tools: key and tool id. */
  sampleLicenses: Array<{ licenseKey: string; toolId: string }>;
  financialYears: string[];
  rows: Record<string, number>;
};

export const SCALE_PASSWORD = 'scale-shop-password-1';
/** Changes whenever seedScale writes a different shop, so a kept copy of an older one is not reused. */
export const SCALE_SHOP_VERSION = 2;
const EXTRA_TOOLS = 60;
/** The share of orders priced with a coupon, and the coupons they use: percentages and a fixed amount. */
const COUPON_SHARE = 0.06;
type SeedCoupon = CouponValue & { code: string };
const COUPONS: SeedCoupon[] = [
  { code: 'WELCOME10', percent: 10, amountInrPaise: null, amountUsdCents: null },
  { code: 'DIWALI25', percent: 25, amountInrPaise: null, amountUsdCents: null },
  { code: 'CAMEET500', percent: null, amountInrPaise: 50_000, amountUsdCents: 600 },
];
/**
 * Every other extra tool offers a 14-day trial. This share of the sales of such a tool began as a trial (the
 * trial's license became the paid one), and a trial that was never bought is started for every 25 orders.
 */
const TRIAL_DAYS = 14;
const CONVERTED_SHARE = 0.1;
const ORDERS_PER_OPEN_TRIAL = 25;
const DAY_MS = 24 * 60 * 60 * 1000;
const MAIL_KEPT_MS = 90 * DAY_MS;
/** The first day of the three financial years the orders span: 1 April 2024, India time. */
const FIRST_DAY = Date.parse('2024-04-01T00:00:00+05:30');
const USD_SETTLED_PAISE_PER_CENT = 84.2;
const COUNTRIES = ['United States', 'United Kingdom', 'Singapore', 'Germany', 'Canada', 'Australia', 'Nepal'];
const FIRST = [
  'Asha',
  'Ravi',
  'Meera',
  'Arjun',
  'Priya',
  'Vikram',
  'Neha',
  'Karan',
  'Sara',
  'John',
  'Li',
  'Ana',
];
const LAST = ['Sharma', 'Gupta', 'Iyer', 'Khan', 'Patel', 'Singh', 'Das', 'Mehta', 'Smith', 'Chen', 'Rossi'];
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** sfc32: small, fast, good enough for plausible data, and the same sequence for the same seed. */
function prng(seed: number) {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed | 0;
  const next = () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 20; i++) next();
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  const text = (alphabet: string, length: number) => {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet.charAt(int(alphabet.length));
    return out;
  };
  const uuid = () => {
    const hex = text('0123456789abcdef', 32).split('');
    hex[12] = '4';
    hex[16] = '89ab'.charAt(int(4));
    const h = hex.join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
  return { next, int, pick, text, uuid };
}

type Random = ReturnType<typeof prng>;

/** A value as COPY's CSV format reads it: NULL unquoted and empty, everything else quoted. */
function csvValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    value instanceof Date
      ? value.toISOString()
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  return `"${text.replaceAll('"', '""')}"`;
}

type Raw = { query(sql: string, params?: unknown[], options?: { blob?: Blob }): Promise<unknown> };

/**
 * Writes rows in bulk: on PGlite by `COPY … FROM '/dev/blob'` (a CSV made here, tens of thousands of rows a second
 * where multi-row INSERTs with bound parameters manage about a thousand), on PostgreSQL by multi-row INSERTs of a
 * few thousand rows (under its 65,535 parameters a statement).
 */
async function insertAll<T extends Record<string, unknown>>(ctx: AppContext, table: PgTable, rows: T[]) {
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0] as object);
  const columns = getTableColumns(table) as Record<string, { name: string }>;
  const client = (ctx.db as unknown as { $client: Raw }).$client;
  const pglite = typeof (client as { dumpDataDir?: unknown }).dumpDataDir === 'function';
  const batch = pglite ? 20_000 : Math.max(1, Math.min(5000, Math.floor(60_000 / keys.length)));
  for (let i = 0; i < rows.length; i += batch) {
    const slice = rows.slice(i, i + batch);
    if (!pglite) {
      // biome-ignore lint/suspicious/noExplicitAny: one helper for every table's row type
      await ctx.db.insert(table).values(slice as any);
      continue;
    }
    const text = slice.map((row) => `${keys.map((key) => csvValue(row[key])).join(',')}\n`).join('');
    // The rows are consistent by construction: the foreign-key and change-feed triggers are skipped while they load.
    if (i === 0) await client.query(`set session_replication_role = replica`);
    const names = keys.map((key) => `"${(columns[key] as { name: string }).name}"`).join(',');
    await client.query(`copy "${getTableName(table)}" (${names}) from '/dev/blob' with (format csv)`, [], {
      blob: new Blob([text]),
    });
  }
  if (pglite) await client.query(`set session_replication_role = origin`);
}

type Tool = typeof tools.$inferSelect;
type Buyer = { id: string; name: string; email: string; phone: string; createdAt: Date };
type Order = typeof orders.$inferInsert & { id: string; createdAt: Date; refundedAt?: Date };

function makeBuyers(random: Random, count: number, firstOrderAt: number, now: number): Buyer[] {
  return Array.from({ length: count }, (_, i) => {
    const first = random.pick(FIRST);
    const last = random.pick(LAST);
    const email =
      i === 0
        ? 'fifty.tools@scale.example'
        : i === 1
          ? 'hundred.orders@scale.example'
          : `${first}.${last}.${i}@scale.example`.toLowerCase();
    return {
      id: random.uuid(),
      name: `${first} ${last}`,
      email,
      phone: `+919${String(100000000 + random.int(899999999))}`,
      createdAt: new Date(firstOrderAt - 30 * DAY_MS + random.next() * (now - firstOrderAt)),
    };
  });
}

function billingFor(random: Random, currency: 'INR' | 'USD') {
  if (currency === 'USD')
    return { address: '', state: '', country: random.pick(COUNTRIES), gstin: '', currency };
  const state = random.next() < 0.3 ? 'Rajasthan' : random.pick(INDIAN_STATES).name;
  const code = INDIAN_STATES.find((entry) => entry.name === state)?.gstCode ?? '08';
  const gstin =
    random.next() < 0.1 ? `${code}AAACP${random.text('0123456789', 4)}K1Z${random.text(ALNUM, 1)}` : '';
  return { address: `${1 + random.int(400)}, MG Road`, state, country: 'India', gstin, currency };
}

/** The orders over the span, oldest first, each by a buyer for a tool; live purchases stay one per buyer and tool. */
function makeOrders(
  random: Random,
  buyers: Buyer[],
  forSale: Tool[],
  offers: SeedCoupon[],
  count: number,
  now: number,
): Order[] {
  const owned = new Set<string>();
  const out: Order[] = [];
  const times = Array.from({ length: count }, () => FIRST_DAY + random.next() * (now - FIRST_DAY - DAY_MS));
  times.sort((a, b) => a - b);
  const special: Array<{ buyer: number; tool: number; status: 'paid' | 'refunded' }> = [];
  for (let t = 0; t < 50; t++) special.push({ buyer: 0, tool: t, status: 'paid' });
  for (let t = 0; t < 50; t++)
    special.push({ buyer: 1, tool: t, status: 'refunded' }, { buyer: 1, tool: t, status: 'paid' });
  const specialAt = new Set(special.map((_, i) => Math.floor(((i + 0.5) * count) / special.length)));
  let nextSpecial = 0;
  for (let i = 0; i < count; i++) {
    const createdAt = new Date(times[i] as number);
    const forced = specialAt.has(i) ? special[nextSpecial++] : undefined;
    const buyer = forced ? (buyers[forced.buyer] as Buyer) : random.pick(buyers);
    let tool = forced ? forced && (forSale[forced.tool] as Tool) : random.pick(forSale);
    const roll = random.next();
    let status: Order['status'] =
      forced?.status ?? (roll < 0.84 ? 'paid' : roll < 0.9 ? 'refunded' : roll < 0.97 ? 'failed' : 'created');
    if (status === 'paid') {
      for (let tries = 0; owned.has(`${buyer.id}:${tool.id}`) && tries < 5; tries++)
        tool = random.pick(forSale);
      if (owned.has(`${buyer.id}:${tool.id}`)) status = 'failed';
      else owned.add(`${buyer.id}:${tool.id}`);
    }
    if (buyer.createdAt > createdAt) buyer.createdAt = new Date(createdAt.getTime() - random.int(DAY_MS));
    const currency = random.next() < 0.75 ? 'INR' : 'USD';
    const listPrice = orderAmountSubunits(tool, currency);
    const coupon = random.next() < COUPON_SHARE ? random.pick(offers) : undefined;
    const discount = coupon ? couponDiscount(listPrice, coupon, currency) : 0;
    const paid = status === 'paid' || status === 'refunded';
    const paidAt = paid ? new Date(createdAt.getTime() + 30_000 + random.int(240_000)) : null;
    const refundedAt =
      status === 'refunded' && paidAt
        ? new Date(Math.min(now - 60_000, paidAt.getTime() + DAY_MS * (1 + random.int(20))))
        : undefined;
    out.push({
      id: random.uuid(),
      userId: buyer.id,
      toolId: tool.id,
      razorpayOrderId: `order_${random.text(ALNUM, 14)}`,
      razorpayPaymentId: paid || status === 'failed' ? `pay_${random.text(ALNUM, 14)}` : null,
      amount: listPrice - discount,
      currency,
      couponCode: coupon?.code ?? null,
      listPrice,
      discount,
      billing: billingFor(random, currency),
      status,
      failureReason: status === 'failed' ? 'Payment declined by the bank' : null,
      createdAt,
      paidAt,
      updatedAt: refundedAt ?? paidAt ?? createdAt,
      refundedAt,
    });
  }
  return out;
}

/** Next serial of a series in a financial year, counted here as nextDocumentNumber counts in the database. */
function numberer(prefix: string, series: 'invoice' | 'credit-note') {
  const last = new Map<string, number>();
  return {
    next(at: Date) {
      const year = financialYearOf(at);
      const serial = (last.get(year) ?? 0) + 1;
      last.set(year, serial);
      return formatDocumentNumber(prefix, series, year, serial);
    },
    counters: () => [...last].map(([financialYear, lastNumber]) => ({ series, financialYear, lastNumber })),
  };
}

const timed = async <T>(label: string, log: (line: string) => void, work: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  const result = await work();
  log(`  ${label.padEnd(34)} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
  return result;
};

/** A trial row: a buyer's trial of a tool through its license, its emails not yet marked sent. */
function trialRow(
  random: Random,
  trial: { userId: string; toolId: string; licenseId: string; startedAt: Date; convertedAt?: Date },
) {
  return {
    id: random.uuid(),
    userId: trial.userId,
    toolId: trial.toolId,
    licenseId: trial.licenseId,
    startedAt: trial.startedAt,
    convertedAt: trial.convertedAt ?? null,
    reminderSentAt: null as Date | null,
    endNoticeSentAt: null as Date | null,
  };
}

/** Writes the shop into an empty database (no user yet); refuses otherwise. */
export async function seedScale(
  ctx: AppContext,
  options: ScaleOptions,
  log: (line: string) => void = console.log,
): Promise<ScaleManifest> {
  const [existing] = await ctx.db.select({ id: users.id }).from(users).limit(1);
  if (existing)
    throw new Error('The database already holds accounts; seed:scale writes only into an empty one.');
  const random = prng(options.seed);
  const now = ctx.clock.now().getTime();
  const firm = ctx.config.firm;
  const rows: Record<string, number> = {};

  const forSale = await timed('catalogue (default + 60 tools)', log, async () => {
    await seedDefaultCatalogue(ctx);
    await insertAll(
      ctx,
      tools,
      Array.from({ length: EXTRA_TOOLS }, (_, i) => ({
        name: `Ledger Utility ${String(i + 1).padStart(2, '0')}`,
        description: 'A desktop utility for accountants: reconcile, convert and file faster.',
        device: i % 3 === 0 ? ('macOS' as const) : ('Windows' as const),
        priceInrPaise: (499 + 100 * (i % 10)) * 100,
        priceUsdCents: i % 4 === 0 ? null : 799 + 100 * (i % 5),
        delivery: i % 7 === 6 ? ('credentials' as const) : ('license_key' as const),
        trialDays: i % 2 === 0 ? TRIAL_DAYS : 0,
        sortOrder: 100 + i,
      })),
    );
    return ctx.db.select().from(tools).where(sql`${tools.active} and not ${tools.comingSoon}`);
  });
  const toolById = new Map(forSale.map((tool) => [tool.id, tool]));

  const passwordHash = await hashPassword(SCALE_PASSWORD);
  const buyers = makeBuyers(random, options.buyers, FIRST_DAY, now);
  const orderList = makeOrders(random, buyers, forSale, COUPONS, options.orders, now);

  await timed(`users (${buyers.length})`, log, () =>
    insertAll(
      ctx,
      users,
      buyers.map((buyer) => ({ ...buyer, passwordHash })),
    ),
  );
  await timed(`orders (${orderList.length})`, log, () =>
    insertAll(
      ctx,
      orders,
      orderList.map(({ refundedAt: _, ...order }) => order),
    ),
  );

  const couponRows = COUPONS.map(({ code, percent, amountInrPaise, amountUsdCents }) => ({
    id: random.uuid(),
    code,
    percent,
    amountInrPaise,
    amountUsdCents,
    createdAt: new Date(FIRST_DAY - DAY_MS),
    createdBy: 'owner@scale.example',
  }));
  await insertAll(ctx, coupons, couponRows);
  const couponIdOf = new Map(couponRows.map((coupon) => [coupon.code, coupon.id]));
  // A paid (or later refunded) order used its coupon; an unpaid one gave it back, unless still within its hold.
  const redemptionRows = orderList.flatMap((order) =>
    order.couponCode
      ? [
          {
            couponId: couponIdOf.get(order.couponCode) as string,
            orderId: order.id,
            userId: order.userId,
            state: order.paidAt
              ? ('used' as const)
              : order.status === 'created' && now - order.createdAt.getTime() < COUPON_HOLD_MS
                ? ('reserved' as const)
                : ('released' as const),
            discount: order.discount as number,
            currency: order.currency,
            createdAt: order.createdAt,
            usedAt: order.paidAt ?? null,
          },
        ]
      : [],
  );
  await timed(`coupon uses (${redemptionRows.length})`, log, () =>
    insertAll(ctx, couponRedemptions, redemptionRows),
  );

  const buyerById = new Map(buyers.map((buyer) => [buyer.id, buyer]));
  const sold = orderList.filter((order) => order.status === 'paid' || order.status === 'refunded');
  const invoiceNumbers = numberer(firm.invoicePrefix, 'invoice');
  const invoiceRows = sold.map((order) => {
    const buyer = buyerById.get(order.userId) as Buyer;
    const tool = toolById.get(order.toolId) as Tool;
    const issuedAt = order.paidAt as Date;
    const number = invoiceNumbers.next(issuedAt);
    const document = buildInvoiceDocument({
      firm,
      number,
      issuedAt,
      buyer: { name: buyer.name, email: buyer.email, billing: order.billing },
      itemDescription: `${tool.device ? `${tool.name} (${tool.device})` : tool.name} — license for up to ${tool.activationLimit} devices, delivered electronically`,
      currency: order.currency,
      total: order.amount,
      settledInr: order.currency === 'USD' ? Math.round(order.amount * USD_SETTLED_PAISE_PER_CENT) : null,
      payment: { razorpayOrderId: order.razorpayOrderId, razorpayPaymentId: order.razorpayPaymentId ?? null },
      coupon: order.couponCode ? { code: order.couponCode, listPrice: order.listPrice as number } : null,
    });
    return {
      id: random.uuid(),
      number,
      orderId: order.id,
      userId: order.userId,
      issuedAt,
      supplyType: document.supplyType,
      buyerGstin: document.buyer.gstin,
      currency: document.currency,
      total: document.total,
      document,
    };
  });
  await timed(`invoices (${invoiceRows.length})`, log, () => insertAll(ctx, invoices, invoiceRows));

  const invoiceOf = new Map(invoiceRows.map((invoice) => [invoice.orderId, invoice]));
  const refunds = sold
    .filter((order) => order.refundedAt)
    .sort((a, b) => (a.refundedAt as Date).getTime() - (b.refundedAt as Date).getTime());
  const noteNumbers = numberer(firm.invoicePrefix, 'credit-note');
  const noteRows = refunds.map((order) => {
    const invoice = invoiceOf.get(order.id) as (typeof invoiceRows)[number];
    const issuedAt = order.refundedAt as Date;
    const number = noteNumbers.next(issuedAt);
    const document = buildCreditNoteDocument({
      invoice: invoice.document as TaxDocument,
      firm,
      number,
      issuedAt,
      amount: order.amount,
      reason: 'Bought the wrong edition',
    });
    return {
      id: random.uuid(),
      number,
      invoiceId: invoice.id,
      orderId: order.id,
      userId: order.userId,
      issuedAt,
      currency: document.currency,
      total: document.total,
      document,
    };
  });
  await timed(`credit notes (${noteRows.length})`, log, () => insertAll(ctx, creditNotes, noteRows));
  await insertAll(ctx, documentCounters, [...invoiceNumbers.counters(), ...noteNumbers.counters()]);

  const sampleLicenses: ScaleManifest['sampleLicenses'] = [];
  const purchaseRows = sold.map((order) => ({
    id: random.uuid(),
    userId: order.userId,
    toolId: order.toolId,
    orderId: order.id,
    createdAt: order.paidAt as Date,
    refundedAt: order.refundedAt ?? null,
  }));
  await timed(`purchases (${purchaseRows.length})`, log, () => insertAll(ctx, purchases, purchaseRows));

  const secretFor = (tool: Tool): LicenseCredentials =>
    tool.delivery === 'credentials'
      ? {
          username: `pca-${random.text('23456789abcdefghjkmnpqrstuvwxyz', 12)}`,
          password: random.text(ALNUM, 16),
        }
      : { licenseKey: Array.from({ length: 4 }, () => random.text(KEY_ALPHABET, 5)).join('-') };
  // Sales that began as a trial: the trial's license, started days before, became the paid one.
  const tried = new Set<string>();
  const trialStartOf = new Map<string, Date>();
  for (const purchase of purchaseRows) {
    const tool = toolById.get(purchase.toolId) as Tool;
    const pair = `${purchase.userId}:${purchase.toolId}`;
    if (tool.trialDays === 0 || tried.has(pair) || random.next() >= CONVERTED_SHARE) continue;
    tried.add(pair);
    const daysBefore = 1 + random.int(tool.trialDays - 1);
    trialStartOf.set(purchase.id, new Date(purchase.createdAt.getTime() - daysBefore * DAY_MS));
  }
  const licenseRows: Array<typeof licenses.$inferInsert & { id: string }> = purchaseRows.map((purchase) => {
    const tool = toolById.get(purchase.toolId) as Tool;
    const secret = secretFor(tool);
    const revoked = purchase.refundedAt !== null;
    if ('licenseKey' in secret && !revoked && sampleLicenses.length < 2000 && random.next() < 0.05)
      sampleLicenses.push({ licenseKey: secret.licenseKey, toolId: tool.id });
    return {
      id: random.uuid(),
      holderId: purchase.userId,
      purchaseId: purchase.id,
      ...storedSecret(ctx.dataSecrets, secret),
      status: revoked ? ('revoked' as const) : ('active' as const),
      expiresAt: null as Date | null,
      statusChangedAt: purchase.refundedAt,
      createdAt: trialStartOf.get(purchase.id) ?? purchase.createdAt,
    };
  });
  const trialRows = licenseRows.flatMap((license, i) => {
    const purchase = purchaseRows[i] as (typeof purchaseRows)[number];
    const startedAt = trialStartOf.get(purchase.id);
    return startedAt
      ? [trialRow(random, { ...purchase, licenseId: license.id, startedAt, convertedAt: purchase.createdAt })]
      : [];
  });
  // Trials never bought: some still running, most ended; most ran on a machine, which the trial claimed.
  const owned = new Set(purchaseRows.map((purchase) => `${purchase.userId}:${purchase.toolId}`));
  const trialTools = forSale.filter((tool) => tool.trialDays > 0);
  const openTrials = trialTools.length ? Math.floor(options.orders / ORDERS_PER_OPEN_TRIAL) : 0;
  const trialActivations: Array<typeof licenseActivations.$inferInsert> = [];
  const trialMachineRows: Array<typeof trialMachines.$inferInsert> = [];
  for (let n = 0; n < openTrials; n++) {
    const buyer = random.pick(buyers);
    const tool = random.pick(trialTools);
    const pair = `${buyer.id}:${tool.id}`;
    if (owned.has(pair) || tried.has(pair)) continue;
    tried.add(pair);
    const startedAt = new Date(
      buyer.createdAt.getTime() + random.next() * (now - 60_000 - buyer.createdAt.getTime()),
    );
    const expiresAt = new Date(startedAt.getTime() + tool.trialDays * DAY_MS);
    const license = {
      id: random.uuid(),
      holderId: buyer.id,
      purchaseId: null,
      ...storedSecret(ctx.dataSecrets, secretFor(tool)),
      status: 'trial' as const,
      expiresAt,
      statusChangedAt: startedAt,
      createdAt: startedAt,
    };
    licenseRows.push(license);
    const trial = trialRow(random, { userId: buyer.id, toolId: tool.id, licenseId: license.id, startedAt });
    if (expiresAt.getTime() < now)
      Object.assign(trial, {
        reminderSentAt: new Date(expiresAt.getTime() - 3 * DAY_MS),
        endNoticeSentAt: expiresAt,
      });
    trialRows.push(trial);
    if (random.next() < 0.2) continue;
    const fingerprint = random.text('0123456789abcdef', 32);
    const activatedAt = new Date(startedAt.getTime() + random.int(DAY_MS));
    trialActivations.push({
      id: random.uuid(),
      licenseId: license.id,
      fingerprint,
      name: `DESKTOP-${random.text(KEY_ALPHABET, 6)}`,
      activatedAt,
      lastSeenAt: new Date(Math.min(now, expiresAt.getTime()) - random.int(DAY_MS)),
      deactivatedAt: null,
      deactivatedBy: null,
    });
    trialMachineRows.push({
      toolId: tool.id,
      fingerprintHash: ctx.dataSecrets.lookupHash(TRIAL_MACHINE_PURPOSE, fingerprint),
      trialId: trial.id,
      createdAt: activatedAt,
    });
  }
  await timed(`licenses (${licenseRows.length})`, log, () => insertAll(ctx, licenses, licenseRows));
  await timed(`trials (${trialRows.length})`, log, async () => {
    await insertAll(ctx, trials, trialRows);
    await insertAll(ctx, trialMachines, trialMachineRows);
  });

  // 1–3 machines a license: the live ones within the tool's limit, one more freed earlier (history).
  const activationRows = licenseRows.slice(0, purchaseRows.length).flatMap((license, i) => {
    const purchase = purchaseRows[i] as (typeof purchaseRows)[number];
    const limit = (toolById.get(purchase.toolId) as Tool).activationLimit;
    const devices = 1 + random.int(3);
    const start = purchase.createdAt.getTime();
    return Array.from({ length: devices }, (_, d) => {
      const freed = d >= limit || license.status === 'revoked';
      const activatedAt = new Date(start + random.int(DAY_MS));
      return {
        id: random.uuid(),
        licenseId: license.id,
        fingerprint: random.text('0123456789abcdef', 32),
        name: `DESKTOP-${random.text(KEY_ALPHABET, 6)}`,
        activatedAt,
        lastSeenAt: new Date(activatedAt.getTime() + random.next() * (now - activatedAt.getTime())),
        deactivatedAt: freed ? new Date(activatedAt.getTime() + DAY_MS) : null,
        deactivatedBy: freed ? ('tool' as const) : null,
      };
    });
  });
  await timed(`license activations (${activationRows.length})`, log, () =>
    insertAll(ctx, licenseActivations, [...activationRows, ...trialActivations]),
  );

  const eventRows = orderList.flatMap((order) => {
    const events: Array<typeof orderEvents.$inferInsert> = [
      {
        orderId: order.id,
        kind: 'created',
        detail: { currency: order.currency },
        createdAt: order.createdAt,
      },
    ];
    if (order.status === 'failed')
      events.push({
        orderId: order.id,
        kind: 'payment-failed',
        detail: { source: 'webhook' },
        createdAt: order.updatedAt,
      });
    if (order.paidAt)
      events.push({
        orderId: order.id,
        kind: 'paid',
        detail: { source: 'verify', paymentId: order.razorpayPaymentId },
        createdAt: order.paidAt,
      });
    if (order.refundedAt)
      events.push({
        orderId: order.id,
        kind: 'refunded',
        detail: { source: 'cli' },
        createdAt: order.refundedAt,
      });
    return events;
  });
  await timed(`order events (${eventRows.length})`, log, () => insertAll(ctx, orderEvents, eventRows));

  // Sent mail: only the last 90 days', as the retention job leaves it.
  const mailRows: Array<typeof outbox.$inferInsert> = [];
  const sent = (to: string, kind: string, ref: string, subject: string, at: Date) => {
    if (now - at.getTime() > MAIL_KEPT_MS) return;
    const body = sealMailBody(ctx.dataSecrets, { html: `<p>${subject}</p>`, text: subject });
    mailRows.push({
      to,
      subject,
      ...body,
      kind,
      ref,
      status: 'sent',
      attempts: 1,
      nextAttemptAt: at,
      createdAt: at,
      sentAt: at,
    });
  };
  for (const order of sold) {
    const buyer = buyerById.get(order.userId) as Buyer;
    sent(buyer.email, 'license-delivery', `order:${order.id}`, 'Your license', order.paidAt as Date);
    if (order.refundedAt)
      sent(buyer.email, 'refund-notice', `order:${order.id}`, 'Your refund', order.refundedAt);
  }
  for (const trial of trialRows) {
    const email = (buyerById.get(trial.userId) as Buyer).email;
    sent(email, 'trial-delivery', `trial:${trial.id}`, 'Your free trial', trial.startedAt);
  }
  await timed(`sent mail (${mailRows.length})`, log, () => insertAll(ctx, outbox, mailRows));

  const messageRows = Array.from({ length: Math.ceil(options.buyers / 20) }, () => {
    const buyer = random.pick(buyers);
    const createdAt = new Date(FIRST_DAY + random.next() * (now - FIRST_DAY));
    return {
      name: buyer.name,
      email: buyer.email,
      relatedTo: random.pick(CONTACT_TOPICS),
      description: 'Please call me about the books of my firm for this financial year.',
      createdAt,
      handledAt: random.next() < 0.9 ? new Date(createdAt.getTime() + DAY_MS) : null,
    };
  });
  await timed(`contact messages (${messageRows.length})`, log, () =>
    insertAll(ctx, contactMessages, messageRows),
  );

  const auditRows = [
    ...refunds.map((order) => ({
      actor: 'cli:operator',
      action: 'order.refund',
      target: `order:${order.id}`,
      before: { status: 'paid' },
      after: {
        status: 'refunded',
        amount: order.amount,
        currency: order.currency,
        reason: 'Bought the wrong edition',
      },
      createdAt: order.refundedAt as Date,
    })),
    ...Array.from({ length: Math.ceil(options.orders / 50) }, () => ({
      actor: 'owner@scale.example',
      action: random.pick(['order.resend', 'message.handled', 'tool.update', 'dashboard.sign_in']),
      target: `order:${random.pick(orderList).id}`,
      before: null,
      after: null,
      createdAt: new Date(FIRST_DAY + random.next() * (now - FIRST_DAY)),
    })),
  ];
  await timed(`audit entries (${auditRows.length})`, log, () => insertAll(ctx, auditLog, auditRows));
  await timed('analyze', log, () => ctx.db.execute(sql`analyze`));

  Object.assign(rows, {
    users: buyers.length,
    orders: orderList.length,
    invoices: invoiceRows.length,
    creditNotes: noteRows.length,
    purchases: purchaseRows.length,
    licenses: licenseRows.length,
    licenseActivations: activationRows.length,
    orderEvents: eventRows.length,
    outbox: mailRows.length,
    contactMessages: messageRows.length,
    auditLog: auditRows.length,
    coupons: couponRows.length,
    couponRedemptions: redemptionRows.length,
    trials: trialRows.length,
    trialMachines: trialMachineRows.length,
  });
  const paidSample = sold.filter((_, i) => i % Math.max(1, Math.floor(sold.length / 200)) === 0);
  return {
    ...options,
    password: SCALE_PASSWORD,
    fiftyToolsBuyer: (buyers[0] as Buyer).email,
    hundredOrdersBuyer: (buyers[1] as Buyer).email,
    sampleEmails: paidSample.map((order) => (buyerById.get(order.userId) as Buyer).email),
    samplePaymentIds: paidSample.map((order) => order.razorpayPaymentId as string),
    sampleInvoiceNumbers: paidSample.map((order) => (invoiceOf.get(order.id) as { number: string }).number),
    sampleLicenses,
    financialYears: [...new Set(invoiceRows.map((invoice) => financialYearOf(invoice.issuedAt)))].sort(),
    rows,
  };
}

/** The number of users, to tell an empty target from a seeded one. */
export async function userCount(ctx: AppContext): Promise<number> {
  const [row] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row?.n ?? 0;
}
