import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { OrderKindName } from '../../shared/orders';
import { mayPayAsFirm, PROFORMA_MESSAGES } from '../../shared/proforma';
import { type CreatePaymentResponse, SHOP_ENDPOINT_MESSAGES, SHOP_MESSAGES } from '../../shared/shop';
import type { createPaymentSchema } from '../../shared/shop-schemas';
import type { SessionUser } from '../auth/session-cache';
import { judgeCoupon } from '../coupons/check';
import { type CouponPrice, recordReservation, releaseCouponOf, reserveCoupon } from '../coupons/redemptions';
import { orders } from '../db/schema/orders';
import { priceOrder } from '../invoices/pricing';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { GatewayError } from '../payments/gateway';
import { recordOrderEvent } from './events';
import { kindOfRequest } from './kinds';
import type { PlannedOrder } from './kinds/kind';
import { FREE_ORDER_PREFIX, fulfilFreeOrder } from './settle';

type CreatePaymentBody = z.output<typeof createPaymentSchema>;
/** What an order is opened from: the checkout's payment and the proforma take the same (shop-schemas.ts). */
export type OrderRequestBody = Omit<CreatePaymentBody, 'toolName' | 'price'>;

const PAYMENT_MESSAGES = SHOP_ENDPOINT_MESSAGES.payment;

/** Until Razorpay names the order, the row carries this placeholder (the column is unique and required). */
export const PENDING_ORDER_PREFIX = 'pending_';

/** Razorpay's smallest payment (₹1 or $1), in subunits. */
const SMALLEST_PAYMENT = 100;

export type OpenedOrder = {
  orderId: string;
  /** The order's total: what its invoice will show. */
  total: number;
  /** What the buyer pays: the total less TDS, when it deducts TDS. */
  amountDue: number;
  planned: PlannedOrder;
  kind: OrderKindName;
};

/**
 * Opens an order (docs/decisions/062): the kind's plan (who may place it, at what unit price), the coupon judged
 * and then reserved with the order in one transaction, the price from the one pricing function (with TDS when the
 * buyer deducts it), and the 'created' event. The checkout then asks Razorpay for an order of `amountDue`; a
 * proforma asks for a payment link. `couponHeldUntil`: a proforma holds its coupon use until its validity ends.
 */
export async function openOrder(
  ctx: AppContext,
  user: SessionUser,
  body: OrderRequestBody,
  from: { ip: string },
  options: { couponHeldUntil?: Date } = {},
): Promise<OpenedOrder> {
  const kind = kindOfRequest(body);
  const planned = await kind.plan(ctx, user, body);
  const { tool, seats } = planned;
  if (body.tds) assertMayDeductTds(body, { seats, addsSeats: kind.name === 'add-seats' });

  // The order's list price: the unit price times the seats (the coupon and the invoice work from it).
  const listPrice = planned.unitPrice * seats;
  // A code is judged (and counted against the guesser's one budget) before anything is held for it.
  if (body.couponCode)
    await judgeCoupon(
      ctx,
      { userId: user.id, ip: from.ip },
      { code: body.couponCode, toolId: tool.id, currency: body.currency, listPrice },
    );
  const orderId = randomUUID();
  const now = ctx.clock.now();
  // One transaction: the coupon's use is reserved together with the order it prices, or not at all.
  return ctx.db.transaction(async (tx) => {
    const coupon: CouponPrice | null = body.couponCode
      ? await reserveCoupon(tx, {
          code: body.couponCode,
          userId: user.id,
          toolId: tool.id,
          currency: body.currency,
          listPrice,
          now,
        })
      : null;
    // The one pricing function: the amounts the checkout's summary showed and the invoice will print.
    const price = priceOrder({
      unitPrice: planned.unitPrice,
      seats,
      discount: coupon?.discount ?? 0,
      currency: body.currency,
      billing: body.billingDetails,
      firm: ctx.config.firm,
      tds: body.tds,
    });
    if (price.tds > 0 && price.amountDue < SMALLEST_PAYMENT)
      throw new DomainError('validation_error', PROFORMA_MESSAGES.tooSmall, {
        fieldErrors: { tds: PROFORMA_MESSAGES.tooSmall },
      });
    await tx.insert(orders).values({
      id: orderId,
      userId: user.id,
      toolId: tool.id,
      kind: kind.name,
      licenseId: planned.licenseId,
      terms: planned.terms,
      razorpayOrderId: `${price.total === 0 ? FREE_ORDER_PREFIX : PENDING_ORDER_PREFIX}${orderId}`,
      amount: price.total,
      tdsAmount: price.tds,
      buyerPan: price.tds > 0 ? body.pan : null,
      currency: body.currency,
      billing: body.billingDetails,
      status: 'created',
      couponCode: coupon?.coupon.code ?? null,
      listPrice,
      discount: coupon?.discount ?? 0,
      seats,
      createdAt: now,
      updatedAt: now,
    });
    if (coupon)
      await recordReservation(tx, {
        priced: coupon,
        orderId,
        userId: user.id,
        currency: body.currency,
        now,
        heldUntil: options.couponHeldUntil,
      });
    await recordOrderEvent(
      tx,
      orderId,
      'created',
      createdDetail(kind.name, {
        amount: price.total,
        tds: price.tds,
        seats,
        coupon,
        planned,
        currency: body.currency,
      }),
      now,
    );
    return { orderId, total: price.total, amountDue: price.amountDue, planned, kind: kind.name };
  });
}

/**
 * TDS is for a business buyer or a team of seats, in rupees (the request's schema says so on its fields; the kind
 * decides the seats of an upgrade or added seats, so it is asked again once the kind has planned the order).
 */
function assertMayDeductTds(body: OrderRequestBody, order: { seats: number; addsSeats: boolean }): void {
  const business = mayPayAsFirm({
    currency: body.currency,
    gstin: body.billingDetails.gstin,
    seats: order.seats,
    addsSeats: order.addsSeats,
  });
  if (!business)
    throw new DomainError('validation_error', PROFORMA_MESSAGES.tdsNeedsBusiness, {
      fieldErrors: { tds: PROFORMA_MESSAGES.tdsNeedsBusiness },
    });
}

/**
 * Creates a local order priced from the catalogue (never from the browser), then the Razorpay order for what is
 * due. The local row exists first so that a crash between the two leaves a trace rather than a stray payment.
 */
export async function placeOrder(
  ctx: AppContext,
  user: SessionUser,
  body: CreatePaymentBody,
  from: { ip: string },
): Promise<CreatePaymentResponse> {
  const opened = await openOrder(ctx, user, body, from);
  const { orderId, amountDue: amount } = opened;
  if (opened.total === 0) return freeOrderAnswer(ctx, user, orderId, body.currency);

  let razorpayOrderId: string;
  try {
    const remote = await ctx.gateway.createOrder({
      amount,
      currency: body.currency,
      receipt: orderId,
      notes: { orderId, userId: user.id, toolId: opened.planned.tool.id },
    });
    if (remote.amount !== amount || remote.currency !== body.currency) {
      throw new GatewayError(
        `Razorpay order ${remote.id} has ${remote.amount} ${remote.currency}, expected ${amount} ${body.currency}`,
        502,
      );
    }
    razorpayOrderId = remote.id;
  } catch (error) {
    await failOpenedOrder(ctx, orderId, error instanceof Error ? error.message : String(error));
    throw new DomainError('payment_gateway_error', PAYMENT_MESSAGES.gatewayFailed);
  }

  await ctx.db
    .update(orders)
    .set({ razorpayOrderId, updatedAt: ctx.clock.now() })
    .where(eq(orders.id, orderId));

  return {
    status: 'success',
    order_id: razorpayOrderId,
    razorpay_key_id: ctx.config.razorpay.keyId,
    amount,
    currency: body.currency,
    name: user.name,
    email: user.email,
    phone: user.phone,
    message: PAYMENT_MESSAGES.orderCreated,
  };
}

/**
 * An opened order that will never be paid (Razorpay could not open its payment, or there is nothing to pay
 * against a proforma): it failed, and its coupon use goes back.
 */
export async function failOpenedOrder(
  ctx: AppContext,
  orderId: string,
  message: string,
  event: 'gateway-error' | 'abandoned' = 'gateway-error',
): Promise<void> {
  const failedAt = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(orders)
      .set({ status: 'failed', failureReason: message.slice(0, 500), updatedAt: failedAt })
      .where(eq(orders.id, orderId));
    await releaseCouponOf(tx, orderId);
    await recordOrderEvent(tx, orderId, event, { message }, failedAt);
  });
}

/** What the 'created' event records: the amount, and the coupon, the seats and the license only where they say something. */
function createdDetail(
  kind: OrderKindName,
  parts: {
    amount: number;
    tds: number;
    currency: string;
    seats: number;
    coupon: CouponPrice | null;
    planned: PlannedOrder;
  },
): Record<string, unknown> {
  const { amount, tds, currency, seats, coupon, planned } = parts;
  return {
    amount,
    currency,
    ...(tds > 0 ? { tds } : {}),
    ...(coupon ? { couponCode: coupon.coupon.code, discount: coupon.discount } : {}),
    ...(seats === 1 && kind === 'new-license' ? {} : { seats }),
    ...(kind === 'add-seats' ? { addsToLicenseId: planned.licenseId } : {}),
  };
}

/**
 * A 100 % coupon: nothing to pay, so no Razorpay order. The order is fulfilled at once through the same
 * exactly-once path as a paid one (purchase, license, invoice of zero value, delivery email).
 */
async function freeOrderAnswer(
  ctx: AppContext,
  user: SessionUser,
  orderId: string,
  currency: CreatePaymentBody['currency'],
): Promise<CreatePaymentResponse> {
  const razorpayOrderId = `${FREE_ORDER_PREFIX}${orderId}`;
  const outcome = await fulfilFreeOrder(ctx, razorpayOrderId);
  if (outcome.result === 'duplicate-payment')
    throw new DomainError('conflict', PAYMENT_MESSAGES.alreadyOwned);
  return {
    status: 'success',
    order_id: razorpayOrderId,
    razorpay_key_id: ctx.config.razorpay.keyId,
    amount: 0,
    currency,
    name: user.name,
    email: user.email,
    phone: user.phone,
    message: SHOP_MESSAGES.purchase.success,
    free: true,
  };
}
