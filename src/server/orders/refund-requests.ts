import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { orderPagePath } from '../../shared/order-detail';
import {
  type buyerRefundRequestSchema,
  REFUND_REASON_LABELS,
  REFUND_REQUEST_MESSAGES,
  type RefundRequestListRow,
  type RefundRequestStatus,
  type RefundRequestView,
} from '../../shared/refund-requests';
import { SITE } from '../../shared/site';
import { isUniqueViolation } from '../db/driver-errors';
import { users } from '../db/schema/accounts';
import { tools } from '../db/schema/catalogue';
import { orders, refundRequests } from '../db/schema/orders';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { toolLabel } from '../licenses/delivery-email';
import { renderEmail } from '../mail/layout';
import { enqueueMail } from '../mail/outbox';
import { type Actor, actorName, recordAudit } from '../operator/audit';
import { recordOrderEvent } from './events';
import { lockOwnPaidOrder } from './owned-order';
import { refundOrder } from './refund';

type RequestRow = typeof refundRequests.$inferSelect;

const view = (row: RequestRow): RefundRequestView => ({
  id: row.id,
  orderId: row.orderId,
  reason: row.reason,
  description: row.description,
  status: row.status,
  declineReason: row.declineReason,
  createdAt: row.createdAt.toISOString(),
  decidedAt: row.decidedAt?.toISOString() ?? null,
});

/** The refund requests of one order, oldest first, for its page. */
export async function refundRequestsOfOrder(ctx: Pick<AppContext, 'db'>, orderId: string) {
  const rows = await ctx.db
    .select()
    .from(refundRequests)
    .where(eq(refundRequests.orderId, orderId))
    .orderBy(asc(refundRequests.createdAt));
  return rows.map(view);
}

/**
 * POST /api/orders/:orderId/refund-request: the buyer asks for a refund of their own paid order. One open request
 * per order (a unique index holds it under a race). Audited, on the order's history, and acknowledged by email.
 */
export async function requestRefund(
  ctx: AppContext,
  input: { userId: string; orderId: string; body: z.output<typeof buyerRefundRequestSchema> },
): Promise<RefundRequestView> {
  const now = ctx.clock.now();
  try {
    return await ctx.db.transaction(async (tx) => {
      const found = await lockOwnPaidOrder(tx, input, { notPaid: REFUND_REQUEST_MESSAGES.notPaid });
      const [row] = await tx
        .insert(refundRequests)
        .values({
          orderId: input.orderId,
          userId: input.userId,
          reason: input.body.reason,
          description: input.body.description,
          createdAt: now,
        })
        .returning();
      if (!row) throw new Error('refund request insert returned no row');
      await recordOrderEvent(
        tx,
        input.orderId,
        'refund-requested',
        { reason: row.reason, requestId: row.id },
        now,
      );
      await recordAudit(
        tx,
        { kind: 'buyer', userId: input.userId },
        {
          action: 'refund-request.create',
          target: `order:${input.orderId}`,
          after: { requestId: row.id, reason: row.reason },
        },
      );
      const label = toolLabel(found.tool.name, found.tool.device);
      await enqueueMail(
        ctx,
        tx,
        {
          to: found.user.email,
          ...renderEmail({
            subject: `We received your refund request for ${label}`,
            heading: 'Your refund request',
            blocks: [
              {
                kind: 'paragraph',
                text: `Hello ${found.user.name}, we received your request for a refund of your ${label}. We reply within 2 working days.`,
              },
              { kind: 'details', rows: [['Reason', REFUND_REASON_LABELS[row.reason]]] },
              { kind: 'quote', text: row.description },
              {
                kind: 'button',
                href: `${ctx.config.publicUrl}${orderPagePath(input.orderId)}`,
                label: 'See your order',
              },
            ],
          }),
          kind: 'refund-request',
          ref: `order:${input.orderId}`,
        },
        now,
      );
      return view(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError('refused', REFUND_REQUEST_MESSAGES.alreadyOpen);
    throw error;
  }
}

/** The queue, newest first: the dashboard and `refunds requests list`. */
export async function listRefundRequests(
  ctx: Pick<AppContext, 'db'>,
  filter: { status?: RefundRequestStatus } = {},
): Promise<RefundRequestListRow[]> {
  const rows = await ctx.db
    .select({
      request: refundRequests,
      email: users.email,
      toolName: tools.name,
      device: tools.device,
      amount: orders.amount,
      currency: orders.currency,
    })
    .from(refundRequests)
    .innerJoin(orders, eq(orders.id, refundRequests.orderId))
    .innerJoin(users, eq(users.id, refundRequests.userId))
    .innerJoin(tools, eq(tools.id, orders.toolId))
    .where(filter.status ? eq(refundRequests.status, filter.status) : undefined)
    .orderBy(desc(refundRequests.createdAt))
    .limit(500);
  return rows.map((row) => ({
    ...view(row.request),
    email: row.email,
    tool: toolLabel(row.toolName, row.device),
    amount: row.amount,
    currency: row.currency,
  }));
}

/** A request by its id or the start of it (as the command line takes ids). */
async function findRequest(ctx: Pick<AppContext, 'db'>, id: string): Promise<RequestRow> {
  const wanted = id.trim().toLowerCase();
  if (!/^[0-9a-f-]{4,36}$/.test(wanted))
    throw new DomainError('invalid', `"${id}" is not a refund request id.`);
  const rows = await ctx.db
    .select()
    .from(refundRequests)
    .where(sql`${refundRequests.id}::text like ${`${wanted}%`}`)
    .limit(2);
  if (rows.length === 0) throw new DomainError('not_found', `No refund request ${id}.`);
  if (rows.length > 1)
    throw new DomainError('invalid', `"${id}" matches several refund requests; give more of it.`);
  return rows[0] as RequestRow;
}

function mustBeOpen(request: RequestRow): void {
  if (request.status !== 'open')
    throw new DomainError('refused', `Refund request ${request.id} is already ${request.status}.`);
}

/** Approving runs today's refund operation (credit note, license revoked, email), then closes the request. */
export async function approveRefundRequest(ctx: AppContext, actor: Actor, id: string) {
  const request = await findRequest(ctx, id);
  mustBeOpen(request);
  const [order] = await ctx.db
    .select({ status: orders.status })
    .from(orders)
    .where(eq(orders.id, request.orderId));
  // Run again after a refund that was recorded but whose request was not closed: the refund is not repeated.
  const refund =
    order?.status === 'refunded'
      ? null
      : await refundOrder(ctx, {
          orderId: request.orderId,
          source: 'admin',
          reason: REFUND_REASON_LABELS[request.reason],
          actor,
        });
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(refundRequests)
      .set({ status: 'approved', decidedAt: now, decidedBy: actorName(actor) })
      .where(and(eq(refundRequests.id, request.id), eq(refundRequests.status, 'open')));
    await recordAudit(tx, actor, {
      action: 'refund-request.approve',
      target: `order:${request.orderId}`,
      before: { requestId: request.id, status: 'open' },
      after: { status: 'approved', refundId: refund?.refundId ?? null },
    });
  });
  return { ...view({ ...request, status: 'approved', decidedAt: now }), refund };
}

/** Declining closes the request and emails the buyer the reason; it shows on the order's page and history. */
export async function declineRefundRequest(ctx: AppContext, actor: Actor, id: string, reason: string) {
  const text = reason.trim();
  if (text.length < 3 || text.length > 1000)
    throw new DomainError('invalid', 'Give the reason the buyer will read (3 to 1000 characters).');
  const request = await findRequest(ctx, id);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(refundRequests)
      .where(eq(refundRequests.id, request.id))
      .for('update');
    if (!locked) throw new DomainError('not_found', `No refund request ${id}.`);
    mustBeOpen(locked);
    await tx
      .update(refundRequests)
      .set({ status: 'declined', declineReason: text, decidedAt: now, decidedBy: actorName(actor) })
      .where(eq(refundRequests.id, request.id));
    await recordOrderEvent(
      tx,
      request.orderId,
      'refund-declined',
      { requestId: request.id, reason: text },
      now,
    );
    await recordAudit(tx, actor, {
      action: 'refund-request.decline',
      target: `order:${request.orderId}`,
      before: { requestId: request.id, status: 'open' },
      after: { status: 'declined', reason: text },
    });
    const [found] = await tx
      .select({ name: users.name, email: users.email, toolName: tools.name, device: tools.device })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .innerJoin(tools, eq(tools.id, orders.toolId))
      .where(eq(orders.id, request.orderId));
    if (!found) throw new Error(`order ${request.orderId} refers to a missing user or tool`);
    const label = toolLabel(found.toolName, found.device);
    await enqueueMail(
      ctx,
      tx,
      {
        to: found.email,
        ...renderEmail({
          subject: `About your refund request for ${label}`,
          heading: 'We could not approve your refund request',
          blocks: [
            {
              kind: 'paragraph',
              text: `Hello ${found.name}, we looked at your request for a refund of your ${label} and could not approve it.`,
            },
            { kind: 'details', rows: [['Reason', text]] },
            {
              kind: 'button',
              href: `${ctx.config.publicUrl}${orderPagePath(request.orderId)}`,
              label: 'See your order',
            },
            { kind: 'paragraph', text: `Questions? Reply to ${SITE.supportEmail} or call ${SITE.phone}.` },
          ],
        }),
        kind: 'refund-request-declined',
        ref: `order:${request.orderId}`,
      },
      now,
    );
  });
  return view({ ...request, status: 'declined', declineReason: text, decidedAt: now });
}
