import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageAnswerSchema } from '../../../shared/api-schemas';
import { emptyRequestSchema, ordersQuerySchema, refundRequestSchema } from '../../../shared/dashboard';
import { adminOrderDetailSchema, ordersPageSchema } from '../../../shared/dashboard-answers';
import { formatSubunits } from '../../../shared/money';
import { type TaxDocumentKind, taxDocumentFileName } from '../../../shared/order-history';
import { answerIn, fileBytes, refusals } from '../../http/answers';
import { contentDisposition } from '../../http/content-disposition';
import { AppError, notFound } from '../../http/errors';
import { findOrderTaxDocument } from '../../invoices/lookup';
import { renderTaxDocumentPdf } from '../../invoices/pdf';
import type { AppContext } from '../../kernel/context';
import { requireFreshCode } from '../../operator/second-factor';
import { resendDelivery } from '../../orders/delivery';
import { refundOrder } from '../../orders/refund';
import { orderDetail, ordersPage } from '../orders';
import { GUARD_REFUSALS, idPath, operatorOf } from './guard';

const RESEND_REFUSALS = {
  'no-purchase': 'This order has no purchase to deliver (it was never paid).',
  refunded: 'This order was refunded; there is nothing to deliver.',
  'no-license': 'This purchase has no license or credentials to send.',
} as const;

const TAX_DOCUMENT_KINDS: readonly TaxDocumentKind[] = ['invoice', 'credit-note'];

/** /api/admin/orders: the list, one order, its tax documents, and resending or refunding it. */
export function dashboardOrderRoutes(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const list = {
    schema: {
      querystring: ordersQuerySchema,
      response: { 200: ordersPageSchema, ...refusals(...GUARD_REFUSALS, 400) },
    },
  };
  app.get('/api/admin/orders', list, async (request) => ordersPage(ctx, request.query));

  const one = {
    schema: {
      params: idPath,
      response: { 200: adminOrderDetailSchema, ...refusals(...GUARD_REFUSALS, 400, 404) },
    },
  };
  app.get('/api/admin/orders/:id', one, async (request) => orderDetail(ctx, request.params.id));

  app.post(
    '/api/admin/orders/:id/resend',
    {
      schema: {
        params: idPath,
        body: emptyRequestSchema,
        response: { 200: messageAnswerSchema, ...refusals(...GUARD_REFUSALS, 400, 404, 409) },
      },
    },
    async (request) => {
      const id = request.params.id;
      await orderDetail(ctx, id);
      const outcome = await resendDelivery(ctx, { orderId: id }, 'dashboard', operatorOf(ctx, request).actor);
      if (outcome.result !== 'sent') throw new AppError(409, 'refused', RESEND_REFUSALS[outcome.result]);
      return {
        message: `The delivery email is on its way to ${outcome.to}, with a fresh 3-hour download link.`,
      };
    },
  );

  app.post(
    '/api/admin/orders/:id/refund',
    {
      schema: {
        params: idPath,
        body: refundRequestSchema,
        response: { 200: messageAnswerSchema, ...refusals(...GUARD_REFUSALS, 400, 404, 409) },
      },
    },
    async (request) => {
      const id = request.params.id;
      const input = request.body;
      const { actor } = operatorOf(ctx, request);
      await orderDetail(ctx, id);
      await requireFreshCode(ctx, actor, input.code);
      const result = await refundOrder(ctx, {
        orderId: id,
        source: 'dashboard',
        reason: input.reason,
        actor,
      });
      return {
        message: `Refunded ${formatSubunits(result.amount, result.currency)} for ${result.razorpayPaymentId}; the buyer is told by email.`,
      };
    },
  );

  app.get(
    '/api/admin/orders/:id/:file',
    {
      schema: {
        params: idPath.extend({ file: z.string() }),
        response: {
          200: answerIn('The tax invoice or credit note (invoice.pdf, credit-note.pdf)', {
            'application/pdf': fileBytes,
          }),
          ...refusals(...GUARD_REFUSALS, 400, 404),
        },
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      const kind = TAX_DOCUMENT_KINDS.find((candidate) => request.params.file === `${candidate}.pdf`);
      const found = kind && (await findOrderTaxDocument(ctx, { orderId: id, kind }));
      if (!kind || !found) throw notFound();
      return reply
        .header('content-disposition', contentDisposition(taxDocumentFileName(kind, found.number), 'inline'))
        .type('application/pdf')
        .send(await renderTaxDocumentPdf(ctx.pdfFonts, found.document));
    },
  );
}
