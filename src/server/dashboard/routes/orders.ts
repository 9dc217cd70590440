import type { FastifyInstance } from 'fastify';
import { emptyRequestSchema, ordersQuerySchema, refundRequestSchema } from '../../../shared/dashboard';
import { formatSubunits } from '../../../shared/money';
import { type TaxDocumentKind, taxDocumentFileName } from '../../../shared/order-history';
import { contentDisposition } from '../../http/content-disposition';
import { AppError, notFound, parseInput } from '../../http/errors';
import { findOrderTaxDocument } from '../../invoices/orders';
import { renderTaxDocumentPdf } from '../../invoices/pdf';
import type { AppContext } from '../../kernel/context';
import { refundOrder } from '../../payments/refund';
import { resendDelivery } from '../../shop/delivery';
import { idParams, operatorOf } from '../guard';
import { listOrders, orderDetail } from '../orders';
import { requireFreshCode } from '../second-factor';

const RESEND_REFUSALS = {
  'no-purchase': 'This order has no purchase to deliver (it was never paid).',
  refunded: 'This order was refunded; there is nothing to deliver.',
  'no-license': 'This purchase has no license or credentials to send.',
} as const;

const TAX_DOCUMENT_KINDS: readonly TaxDocumentKind[] = ['invoice', 'credit-note'];

/** /api/admin/orders: the list, one order, its tax documents, and resending or refunding it. */
export function orderRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/admin/orders', async (request) =>
    listOrders(ctx, parseInput(ordersQuerySchema, request.query)),
  );

  app.get('/api/admin/orders/:id', async (request) => orderDetail(ctx, idParams(request)));

  app.post('/api/admin/orders/:id/resend', async (request) => {
    const id = idParams(request);
    parseInput(emptyRequestSchema, request.body);
    await orderDetail(ctx, id);
    const outcome = await resendDelivery(ctx, { orderId: id }, 'dashboard', operatorOf(request).actor);
    if (outcome.result !== 'sent') throw new AppError(409, 'refused', RESEND_REFUSALS[outcome.result]);
    return {
      message: `The delivery email is on its way to ${outcome.to}, with a fresh 3-hour download link.`,
    };
  });

  app.post('/api/admin/orders/:id/refund', async (request) => {
    const id = idParams(request);
    const input = parseInput(refundRequestSchema, request.body);
    const { actor } = operatorOf(request);
    await orderDetail(ctx, id);
    await requireFreshCode(ctx, actor, input.code);
    const result = await refundOrder(ctx, { orderId: id, source: 'dashboard', reason: input.reason, actor });
    return {
      message: `Refunded ${formatSubunits(result.amount, result.currency)} for ${result.razorpayPaymentId}; the buyer is told by email.`,
    };
  });

  app.get<{ Params: { file: string } }>('/api/admin/orders/:id/:file', async (request, reply) => {
    const id = idParams(request);
    const kind = TAX_DOCUMENT_KINDS.find((candidate) => request.params.file === `${candidate}.pdf`);
    const found = kind && (await findOrderTaxDocument(ctx, { orderId: id, kind }));
    if (!kind || !found) throw notFound();
    return reply
      .header('content-disposition', contentDisposition(taxDocumentFileName(kind, found.number), 'inline'))
      .type('application/pdf')
      .send(await renderTaxDocumentPdf(found.document));
  });
}
