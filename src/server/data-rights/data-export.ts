/**
 * "Download my data" (DPDP Act s. 11): everything the shop holds about one account, as one JSON document with a
 * readable summary. The buyer's /account page and the operator's customer page (a request by email or post) both
 * read it from here. Each part is one query, run side by side, so a buyer with a hundred orders still answers in
 * milliseconds; nothing here writes.
 */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { fromSubunits } from '../../shared/money';
import { DATA_PROCESSORS } from '../../shared/privacy';
import { consentHistory } from '../auth/consents';
import { passkeys, sessions, users } from '../db/schema/accounts';
import { toolEditions, tools } from '../db/schema/catalogue';
import { checkoutStarts } from '../db/schema/checkout';
import { contactMessages } from '../db/schema/contact';
import { creditNotes, invoices } from '../db/schema/invoices';
import { licenseActivations, licenses } from '../db/schema/licenses';
import { outbox } from '../db/schema/mail';
import { orderEvents, orders, purchases } from '../db/schema/orders';
import { trials } from '../db/schema/trials';
import { contentDisposition } from '../http/content-disposition';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { revealLicenseKey } from '../licenses/secrets-at-rest';
import { type Actor, recordAudit } from '../operator/audit';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

type ExportContext = Pick<AppContext, 'db' | 'dataSecrets' | 'clock'>;
type Profile = typeof users.$inferSelect;

async function profileOf(ctx: ExportContext, userId: string): Promise<Profile | undefined> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId));
  return user;
}

function signIns(ctx: ExportContext, userId: string) {
  return ctx.db
    .select({
      signedInAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
      expiresAt: sessions.expiresAt,
      browser: sessions.userAgent,
      country: sessions.country,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(asc(sessions.createdAt));
}

function passkeysOf(ctx: ExportContext, userId: string) {
  return ctx.db
    .select({
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
      deviceType: passkeys.deviceType,
      backedUp: passkeys.backedUp,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
}

/** The taxable value and tax of an order, as its invoice was issued (absent while it is unpaid). */
type IssuedTax = {
  taxableValue: number;
  taxes: Array<{ name: string; ratePercent: number; amount: number }>;
};

async function ordersOf(ctx: ExportContext, userId: string) {
  const [rows, events, issued] = await Promise.all([
    ctx.db
      .select({
        id: orders.id,
        createdAt: orders.createdAt,
        paidAt: orders.paidAt,
        tool: tools.name,
        amount: orders.amount,
        listPrice: orders.listPrice,
        couponCode: orders.couponCode,
        discount: orders.discount,
        currency: orders.currency,
        status: orders.status,
        failureReason: orders.failureReason,
        razorpayOrderId: orders.razorpayOrderId,
        razorpayPaymentId: orders.razorpayPaymentId,
        billing: orders.billing,
      })
      .from(orders)
      .innerJoin(tools, eq(tools.id, orders.toolId))
      .where(eq(orders.userId, userId))
      .orderBy(asc(orders.createdAt)),
    ctx.db
      .select({ orderId: orderEvents.orderId, kind: orderEvents.kind, at: orderEvents.createdAt })
      .from(orderEvents)
      .innerJoin(orders, eq(orders.id, orderEvents.orderId))
      .where(eq(orders.userId, userId))
      .orderBy(asc(orderEvents.id)),
    ctx.db
      .select({ orderId: invoices.orderId, document: invoices.document })
      .from(invoices)
      // The order's figures are its current invoice's (a corrected order has cancelled ones too).
      .where(and(eq(invoices.userId, userId), isNull(invoices.cancelledByCreditNoteId))),
  ]);
  const taxOf = new Map(issued.map((row) => [row.orderId, row.document as unknown as IssuedTax]));
  return rows.map(({ amount, listPrice, couponCode, discount, billing, createdAt, paidAt, ...order }) => ({
    ...order,
    amount: fromSubunits(amount),
    // Orders from before coupons carry no list price: they were sold at it.
    listPrice: fromSubunits(listPrice ?? amount),
    coupon: couponCode,
    discount: fromSubunits(discount ?? 0),
    ...taxLines(taxOf.get(order.id)),
    createdAt: iso(createdAt),
    paidAt: iso(paidAt),
    billing: {
      address: billing.address,
      state: billing.state,
      country: billing.country,
      gstin: billing.gstin,
    },
    history: events
      .filter((event) => event.orderId === order.id)
      .map((event) => ({ event: event.kind, at: iso(event.at) })),
  }));
}

/** An order's taxable value and tax, from its invoice; null before it is paid. */
function taxLines(issued: IssuedTax | undefined) {
  if (!issued) return { taxableValue: null, tax: null, taxes: [] };
  const tax = issued.taxes.reduce((sum, line) => sum + line.amount, 0);
  return {
    taxableValue: fromSubunits(issued.taxableValue),
    tax: fromSubunits(tax),
    taxes: issued.taxes.map((line) => ({ ...line, amount: fromSubunits(line.amount) })),
  };
}

/** Tax documents as issued: number, date, amount, and whom they were issued to (they outlive an erasure). */
async function taxDocumentsOf(ctx: ExportContext, userId: string) {
  const issuedTo = (document: unknown) => {
    const { buyer } = document as {
      buyer: { name: string; address: string; country: string; gstin: string | null };
    };
    return { name: buyer.name, address: buyer.address, country: buyer.country, gstin: buyer.gstin };
  };
  const [invoiceRows, creditNoteRows] = await Promise.all([
    ctx.db
      .select({
        number: invoices.number,
        orderId: invoices.orderId,
        issuedAt: invoices.issuedAt,
        currency: invoices.currency,
        total: invoices.total,
        document: invoices.document,
      })
      .from(invoices)
      .where(eq(invoices.userId, userId))
      .orderBy(asc(invoices.issuedAt)),
    ctx.db
      .select({
        number: creditNotes.number,
        invoiceNumber: invoices.number,
        orderId: creditNotes.orderId,
        issuedAt: creditNotes.issuedAt,
        currency: creditNotes.currency,
        total: creditNotes.total,
      })
      .from(creditNotes)
      .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
      .where(eq(creditNotes.userId, userId))
      .orderBy(asc(creditNotes.issuedAt)),
  ]);
  return {
    invoices: invoiceRows.map(({ document, issuedAt, total, ...invoice }) => ({
      ...invoice,
      issuedAt: iso(issuedAt),
      total: fromSubunits(total),
      issuedTo: issuedTo(document),
    })),
    creditNotes: creditNoteRows.map(({ issuedAt, total, ...note }) => ({
      ...note,
      issuedAt: iso(issuedAt),
      total: fromSubunits(total),
    })),
  };
}

/**
 * Every license the account holds (refunded and trial ones too), with its key as My Tools shows it, and its
 * machines; a trial's start, end and what became of it.
 */
async function licensesOf(ctx: ExportContext, userId: string) {
  const owned = await ctx.db
    .select({
      id: licenses.id,
      orderId: purchases.orderId,
      tool: tools.name,
      licenseKeySealed: licenses.licenseKeySealed,
      username: licenses.username,
      status: licenses.status,
      createdAt: licenses.createdAt,
      refundedAt: purchases.refundedAt,
      trialStartedAt: trials.startedAt,
      trialEndsAt: licenses.expiresAt,
      trialConvertedAt: trials.convertedAt,
      edition: toolEditions.name,
      updatesUntil: licenses.updatesUntil,
    })
    .from(licenses)
    .leftJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .leftJoin(trials, eq(trials.licenseId, licenses.id))
    .innerJoin(tools, sql`${tools.id} = coalesce(${purchases.toolId}, ${trials.toolId})`)
    .leftJoin(toolEditions, eq(toolEditions.id, licenses.editionId))
    .where(eq(licenses.holderId, userId))
    .orderBy(asc(licenses.createdAt));
  const devices = owned.length
    ? await ctx.db
        .select({
          licenseId: licenseActivations.licenseId,
          name: licenseActivations.name,
          fingerprint: licenseActivations.fingerprint,
          activatedAt: licenseActivations.activatedAt,
          lastSeenAt: licenseActivations.lastSeenAt,
          deactivatedAt: licenseActivations.deactivatedAt,
        })
        .from(licenseActivations)
        .where(
          inArray(
            licenseActivations.licenseId,
            owned.map((license) => license.id),
          ),
        )
        .orderBy(asc(licenseActivations.activatedAt))
    : [];
  // Its upgrades and renewals (decisions 056, 059): the orders that acted on it, with what they changed.
  const changes = owned.length
    ? await ctx.db
        .select({
          licenseId: orders.licenseId,
          orderId: orders.id,
          kind: orders.kind,
          status: orders.status,
          paidAt: orders.paidAt,
          terms: orders.terms,
        })
        .from(orders)
        .where(
          and(
            inArray(
              orders.licenseId,
              owned.map((license) => license.id),
            ),
            inArray(orders.kind, ['upgrade', 'renewal']),
            inArray(orders.status, ['paid', 'refunded']),
          ),
        )
        .orderBy(asc(orders.paidAt))
    : [];
  const editionNames = new Map(
    (changes.length
      ? await ctx.db
          .select({ id: toolEditions.id, name: toolEditions.name })
          .from(toolEditions)
          .where(
            inArray(
              toolEditions.id,
              changes
                .flatMap((change) => [change.terms?.fromEditionId ?? '', change.terms?.toEditionId ?? ''])
                .filter(Boolean),
            ),
          )
      : []
    ).map((edition) => [edition.id, edition.name]),
  );
  return owned.map(
    ({
      id,
      licenseKeySealed,
      createdAt,
      refundedAt,
      trialStartedAt,
      trialEndsAt,
      trialConvertedAt,
      updatesUntil,
      ...license
    }) => ({
      ...license,
      updatesUntil: iso(updatesUntil),
      upgrades: changes
        .filter((change) => change.licenseId === id && change.kind === 'upgrade')
        .map((change) => ({
          orderId: change.orderId,
          from: editionNames.get(change.terms?.fromEditionId ?? '') ?? null,
          to: editionNames.get(change.terms?.toEditionId ?? '') ?? null,
          paidAt: iso(change.paidAt),
          refunded: change.status === 'refunded',
        })),
      renewals: changes
        .filter((change) => change.licenseId === id && change.kind === 'renewal')
        .map((change) => ({
          orderId: change.orderId,
          updatesUntil: change.terms?.toUpdatesUntil ?? null,
          paidAt: iso(change.paidAt),
          refunded: change.status === 'refunded',
        })),
      licenseKey: revealLicenseKey(ctx.dataSecrets, { licenseKeySealed }),
      createdAt: iso(createdAt),
      refundedAt: iso(refundedAt),
      trial: trialStartedAt
        ? { startedAt: iso(trialStartedAt), endsAt: iso(trialEndsAt), boughtAt: iso(trialConvertedAt) }
        : null,
      devices: devices
        .filter((device) => device.licenseId === id)
        .map(({ licenseId: _, activatedAt, lastSeenAt, deactivatedAt, ...device }) => ({
          ...device,
          activatedAt: iso(activatedAt),
          lastSeenAt: iso(lastSeenAt),
          deactivatedAt: iso(deactivatedAt),
        })),
    }),
  );
}

const sameAddress = (column: typeof contactMessages.email | typeof outbox.to, email: string) =>
  sql`lower(${column}) = lower(${email})`;

function contactMessagesFrom(ctx: ExportContext, email: string) {
  return ctx.db
    .select({
      sentAt: contactMessages.createdAt,
      name: contactMessages.name,
      organisation: contactMessages.organisation,
      email: contactMessages.email,
      relatedTo: contactMessages.relatedTo,
      message: contactMessages.description,
      handledAt: contactMessages.handledAt,
    })
    .from(contactMessages)
    .where(sameAddress(contactMessages.email, email))
    .orderBy(asc(contactMessages.createdAt));
}

/** What was emailed to the address: subject, kind and dates. The bodies are sealed and carry keys and codes. */
function emailsTo(ctx: ExportContext, email: string) {
  return ctx.db
    .select({
      subject: outbox.subject,
      kind: outbox.kind,
      status: outbox.status,
      queuedAt: outbox.createdAt,
      sentAt: outbox.sentAt,
    })
    .from(outbox)
    .where(sameAddress(outbox.to, email))
    .orderBy(asc(outbox.id));
}

const dates = <T extends Record<string, unknown>>(row: T) =>
  Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, value instanceof Date ? iso(value) : value]),
  );

/** The checkouts the buyer opened and did not finish (checkout reminders), with the tool and coupon. */
function checkoutsOpenedBy(ctx: ExportContext, userId: string) {
  return ctx.db
    .select({
      tool: tools.name,
      couponCode: checkoutStarts.couponCode,
      openedAt: checkoutStarts.openedAt,
      remindersSent: checkoutStarts.remindersSent,
      lastReminderAt: checkoutStarts.lastReminderAt,
    })
    .from(checkoutStarts)
    .innerJoin(tools, eq(tools.id, checkoutStarts.toolId))
    .where(eq(checkoutStarts.userId, userId))
    .orderBy(asc(checkoutStarts.openedAt));
}

/** Everything the shop holds about the account, or undefined when there is no such account. */
async function exportBody(ctx: ExportContext, userId: string) {
  const user = await profileOf(ctx, userId);
  if (!user) return undefined;
  const [
    sessionRows,
    passkeyRows,
    orderRows,
    documents,
    licenseRows,
    messages,
    emails,
    consentRows,
    checkouts,
  ] = await Promise.all([
    signIns(ctx, userId),
    passkeysOf(ctx, userId),
    ordersOf(ctx, userId),
    taxDocumentsOf(ctx, userId),
    licensesOf(ctx, userId),
    contactMessagesFrom(ctx, user.email),
    emailsTo(ctx, user.email),
    consentHistory(ctx.db, userId),
    checkoutsOpenedBy(ctx, userId),
  ]);
  return {
    exportedAt: iso(ctx.clock.now()),
    profile: {
      name: user.name,
      email: user.email,
      phone: user.phone,
      createdAt: iso(user.createdAt),
      passwordChangedAt: iso(user.passwordChangedAt),
      erasedAt: iso(user.erasedAt),
      emailPreferences: {
        releases: user.releaseEmails,
        trials: user.trialEmails,
        checkoutReminders: user.checkoutReminderEmails,
        renewalReminders: user.renewalReminderEmails,
      },
    },
    signIns: sessionRows.map(dates),
    passkeys: passkeyRows.map(dates),
    orders: orderRows,
    invoices: documents.invoices,
    creditNotes: documents.creditNotes,
    licenses: licenseRows,
    contactMessages: messages.map(dates),
    emails: emails.map(dates),
    consents: consentRows.map(dates),
    checkoutsOpened: checkouts.map(dates),
    sharedWith: DATA_PROCESSORS,
  };
}

type ExportBody = NonNullable<Awaited<ReturnType<typeof exportBody>>>;
export type AccountExport = ExportBody & { summary: string };

/** The whole export of one account, its summary first, or undefined when there is no such account. */
export async function accountExport(ctx: ExportContext, userId: string): Promise<AccountExport | undefined> {
  const body = await exportBody(ctx, userId);
  return body && { summary: exportSummary(body), ...body };
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** The same export in a few sentences, for a person reading the file. */
function exportSummary(data: ExportBody): string {
  const { profile } = data;
  const lines = [
    `Personal data held by the shop for the account ${profile.email}, as of ${data.exportedAt}.`,
    `Profile: ${profile.name || '(erased)'}, ${profile.email}, ${profile.phone || 'no phone'}; account created ${profile.createdAt}.`,
    `Optional emails: new versions ${profile.emailPreferences.releases ? 'on' : 'off'}, trial reminders ${profile.emailPreferences.trials ? 'on' : 'off'}, checkout reminders ${profile.emailPreferences.checkoutReminders ? 'on' : 'off'}.`,
    `${plural(data.signIns.length, 'signed-in session')} kept (each ends after 14 days at the latest); ${plural(data.passkeys.length, 'passkey')}.`,
    `${plural(data.orders.length, 'order')}, ${plural(data.invoices.length, 'tax invoice')}, ${plural(data.creditNotes.length, 'credit note')}.`,
    `${plural(data.licenses.length, 'license')} (${plural(
      data.licenses.filter((license) => license.trial).length,
      'free trial',
    )}) with ${plural(
      data.licenses.reduce((sum, license) => sum + license.devices.length, 0),
      'device',
    )} recorded.`,
    `${plural(data.contactMessages.length, 'contact message')} sent from this address; ${plural(data.emails.length, 'email')} sent to it still on record (the text of an email is deleted 90 days after sending).`,
    `${plural(data.consents.length, 'consent')} recorded.`,
    `Shared with: ${data.sharedWith.map((processor) => `${processor.name} (${processor.purpose.toLowerCase()})`).join('; ')}.`,
  ];
  return lines.join('\n');
}

/** `pinkcity-data-2026-11-26.json`: the download's name. */
const exportFileName = (at: Date) => `pinkcity-data-${at.toISOString().slice(0, 10)}.json`;

/** Sends an export as the download the buyer and the operator get: indented JSON, named by the day, never cached. */
export function sendExport(reply: FastifyReply, data: unknown, now: Date) {
  return reply
    .header('cache-control', 'no-store')
    .header('content-disposition', contentDisposition(exportFileName(now)))
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(data, null, 2));
}

/**
 * The export as the operator takes it for a request that came by email or post (dashboard or command line): the
 * same document, and an Activity entry naming the account by id only.
 */
export async function exportAccountAsOperator(
  ctx: AppContext,
  userId: string,
  actor: Actor,
): Promise<AccountExport> {
  const data = await accountExport(ctx, userId);
  if (!data) throw new DomainError('not_found', 'No such customer.');
  await recordAudit(ctx.db, actor, { action: 'customer.export', target: `user:${userId}` });
  return data;
}
