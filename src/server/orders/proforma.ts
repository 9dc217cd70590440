import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { formatSubunits } from '../../shared/money';
import { orderPagePath } from '../../shared/order-detail';
import { PROFORMA_VALID_DAYS, type ProformaAnswer } from '../../shared/proforma';
import type { proformaRequestSchema } from '../../shared/shop-schemas';
import type { SessionUser } from '../auth/session-cache';
import type { Tx } from '../db';
import { orders, proformaTerms } from '../db/schema/orders';
import type { TaxDocument } from '../invoices/document';
import { issueProforma } from '../invoices/issue';
import { indiaDate } from '../invoices/numbering';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { toolLabel } from '../licenses/delivery-email';
import { type EmailBlock, renderEmail } from '../mail/layout';
import { enqueueMail } from '../mail/outbox';
import type { RazorpayPaymentLink } from '../payments/gateway';
import { recordOrderEvent } from './events';
import { kindOf } from './kinds';
import { failOpenedOrder, openOrder } from './place';

type ProformaBody = z.output<typeof proformaRequestSchema>;

/** An order paid against a proforma carries this in place of a Razorpay order id until a payment names one. */
export const PROFORMA_ORDER_PREFIX = 'proforma_';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A proforma issued at `at` can be paid until the end of the India day PROFORMA_VALID_DAYS later: issued on
 * 1 June, valid until 16 June 23:59:59 India time.
 */
export function proformaValidity(at: Date): { lastDay: string; validUntil: Date } {
  const lastDay = indiaDate(new Date(at.getTime() + PROFORMA_VALID_DAYS * DAY_MS));
  return { lastDay, validUntil: new Date(`${lastDay}T23:59:59.999+05:30`) };
}

/**
 * POST /api/checkout/proforma (issue 68): the order opened as the checkout opens it (the kind's plan, the coupon
 * reserved, the one pricing function, TDS when the buyer deducts it), its coupon use held until the proforma's
 * last day; a Razorpay payment link for exactly what is due; then, in one transaction, the proforma numbered in its
 * own series, the terms it is paid on and the email that carries it. When Razorpay cannot make the link, a firm
 * with a bank account still issues the proforma (bank transfer only); otherwise the order fails, as a checkout does.
 */
export async function placeProforma(
  ctx: AppContext,
  user: SessionUser,
  body: ProformaBody,
  from: { ip: string },
): Promise<ProformaAnswer> {
  const { lastDay, validUntil } = proformaValidity(ctx.clock.now());
  const opened = await openOrder(ctx, user, body, from, { couponHeldUntil: validUntil });
  const { orderId, amountDue } = opened;
  if (opened.total === 0) {
    await failOpenedOrder(ctx, orderId, 'Nothing to pay: a proforma is not needed', 'abandoned');
    throw new DomainError(
      'refused',
      'This order costs nothing, so there is nothing to pay against a proforma: use Proceed to Payment.',
    );
  }
  const label = toolLabel(opened.planned.tool.name, opened.planned.tool.device);

  let link: RazorpayPaymentLink | null = null;
  try {
    link = await ctx.gateway.createPaymentLink({
      amount: amountDue,
      currency: body.currency,
      referenceId: orderId,
      expireBy: validUntil,
      description: `${label}: order ${orderId.slice(0, 8)}`,
      customer: { name: user.name, email: user.email, ...(user.phone ? { contact: user.phone } : {}) },
      notes: { orderId, userId: user.id },
    });
    if (link.amount !== amountDue || link.currency !== body.currency)
      throw new Error(`payment link ${link.id} asks ${link.amount} ${link.currency}, expected ${amountDue}`);
  } catch (error) {
    // Without a bank account to transfer to, a proforma without its link could not be paid at all.
    if (!ctx.config.firm.bank) {
      await failOpenedOrder(ctx, orderId, error instanceof Error ? error.message : String(error));
      throw new DomainError(
        'payment_gateway_error',
        'The payment link could not be created. Please try again.',
      );
    }
    link = null;
  }

  const proforma = await ctx.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!order) throw new Error(`order ${orderId} vanished before its proforma`);
    const issued = await issueProforma(ctx, tx, {
      orderId,
      itemDescription: await kindOf(order).describe(tx, order),
      validUntil: lastDay,
      paymentLinkUrl: link?.short_url ?? null,
    });
    const now = ctx.clock.now();
    await tx.insert(proformaTerms).values({
      orderId,
      validUntil,
      paymentLinkId: link?.id ?? null,
      paymentLinkUrl: link?.short_url ?? null,
    });
    await tx
      .update(orders)
      .set({ razorpayOrderId: `${PROFORMA_ORDER_PREFIX}${orderId}`, updatedAt: now })
      .where(eq(orders.id, orderId));
    await recordOrderEvent(
      tx,
      orderId,
      'proforma-issued',
      {
        proforma: issued.number,
        amountDue,
        ...(order.tdsAmount > 0 ? { tds: order.tdsAmount } : {}),
        validUntil: lastDay,
        ...(link ? {} : { message: 'Razorpay could not make a payment link: bank transfer only' }),
      },
      now,
    );
    await queueProformaEmail(ctx, tx, { order, user, label, proforma: issued });
    return issued;
  });

  return {
    orderId,
    proformaNumber: proforma.number,
    amountDue,
    paymentLinkUrl: link?.short_url ?? null,
    validUntil: validUntil.toISOString(),
  };
}

/** What a proforma asks, said once for its email and its reminder: the amount, the date, the ways to pay. */
export function proformaFacts(document: TaxDocument): EmailBlock[] {
  const terms = document.proforma;
  if (!terms) return [];
  const money = (subunits: number) => formatSubunits(subunits, document.currency);
  const [year, month, day] = terms.validUntil.split('-');
  const rows: Array<[string, string]> = [
    ['Proforma invoice', document.number],
    ['Total (incl. GST)', money(document.total)],
    ...(terms.tds
      ? ([
          [`Less TDS u/s ${terms.tds.section} (${terms.tds.ratePercent}%)`, money(terms.tds.amount)],
        ] as Array<[string, string]>)
      : []),
    ['Amount due', money(terms.amountDue)],
    ['Valid until', `${day}/${month}/${year}`],
  ];
  const blocks: EmailBlock[] = [{ kind: 'details', rows }];
  if (terms.paymentLinkUrl)
    blocks.push({
      kind: 'button',
      href: terms.paymentLinkUrl,
      label: `Pay ${money(terms.amountDue)} online`,
    });
  if (terms.bank)
    blocks.push({
      kind: 'details',
      rows: [
        ['Bank transfer (NEFT/RTGS) to', document.supplier.legalName],
        ['Account number', terms.bank.accountNumber],
        ['IFSC', terms.bank.ifsc],
        ['Bank', terms.bank.bankName],
        ['Reference', document.number],
      ],
    });
  return blocks;
}

async function queueProformaEmail(
  ctx: AppContext,
  tx: Tx,
  parts: {
    order: typeof orders.$inferSelect;
    user: { name: string; email: string };
    label: string;
    proforma: { id: string; number: string; document: TaxDocument };
  },
): Promise<void> {
  const { order, user, label, proforma } = parts;
  const tds = proforma.document.proforma?.tds;
  const email = renderEmail({
    subject: `Proforma invoice ${proforma.number}: ${label}`,
    heading: 'Your proforma invoice',
    blocks: [
      {
        kind: 'paragraph',
        text: `Hello ${user.name}, here is the proforma invoice for ${label} (attached as a PDF). Pay it online with the link or by bank transfer quoting its number; the tax invoice and the license follow as soon as the payment is received.`,
      },
      ...proformaFacts(proforma.document),
      ...(tds
        ? [
            {
              kind: 'paragraph' as const,
              text: `You deduct TDS under section ${tds.section}: please send us Form 16A for it from the order's page when you have it.`,
            },
          ]
        : []),
      { kind: 'button', href: `${ctx.config.publicUrl}${orderPagePath(order.id)}`, label: 'See the order' },
    ],
  });
  await enqueueMail(
    ctx,
    tx,
    {
      to: user.email,
      ...email,
      kind: 'proforma-invoice',
      ref: `order:${order.id}`,
      attachments: [{ kind: 'proforma', id: proforma.id }],
    },
    ctx.clock.now(),
  );
}
