import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';
import { messageAnswerSchema } from '../../../shared/api-schemas';
import {
  emptyRequestSchema,
  ordersQuerySchema,
  recordTransferSchema,
  refundRequestSchema,
  returnPaymentSchema,
} from '../../../shared/dashboard';
import { adminOrderDetailSchema, ordersPageSchema } from '../../../shared/dashboard-answers';
import { formatSubunits, toSubunits } from '../../../shared/money';
import { type TaxDocumentKind, taxDocumentFileName } from '../../../shared/order-history';
import { answerIn, fileBytes, refusals } from '../../http/answers';
import { contentDisposition } from '../../http/content-disposition';
import { AppError, notFound } from '../../http/errors';
import { findOrderTaxDocument, findProforma } from '../../invoices/lookup';
import { renderTaxDocumentPdf } from '../../invoices/pdf';
import type { AppContext } from '../../kernel/context';
import { requireFreshCode } from '../../operator/second-factor';
import { resendDelivery } from '../../orders/delivery';
import { recordTransfer, returnLatePayment, settleLatePayment } from '../../orders/receipts';
import { refundOrder } from '../../orders/refund';
import { markTdsCertificateChecked, readTdsCertificate } from '../../orders/tds';
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

  /** What the operator does to one order: its id in the path, the body given, a message or a refusal back. */
  const orderAction = <Body extends ZodType>(body: Body) => ({
    schema: {
      params: idPath,
      body,
      response: { 200: messageAnswerSchema, ...refusals(...GUARD_REFUSALS, 400, 404, 409) },
    },
  });

  app.post('/api/admin/orders/:id/resend', orderAction(emptyRequestSchema), async (request) => {
    const id = request.params.id;
    await orderDetail(ctx, id);
    const outcome = await resendDelivery(ctx, { orderId: id }, 'dashboard', operatorOf(ctx, request).actor);
    if (outcome.result !== 'sent') throw new AppError(409, 'refused', RESEND_REFUSALS[outcome.result]);
    return {
      message: `The delivery email is on its way to ${outcome.to}, with a fresh 3-hour download link.`,
    };
  });

  app.post('/api/admin/orders/:id/refund', orderAction(refundRequestSchema), async (request) => {
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
  });

  // Orders paid against a proforma invoice (issue 68): transfers recorded, late money decided, Form 16A checked.
  app.post('/api/admin/orders/:id/transfers', orderAction(recordTransferSchema), async (request) => {
    const id = request.params.id;
    const { amount, utr, date } = request.body;
    const outcome = await recordTransfer(ctx, {
      orderId: (await orderDetail(ctx, id)).id,
      amount: toSubunits(Number(amount)),
      utr,
      date,
      actor: operatorOf(ctx, request).actor,
      source: 'dashboard',
    });
    const received = `${formatSubunits(outcome.received, 'INR')} of ${formatSubunits(outcome.due, 'INR')} received`;
    return {
      message:
        outcome.result === 'settled'
          ? `Transfer recorded: ${received}. The order is paid; its invoice and license are on their way.`
          : outcome.result === 'late'
            ? 'Transfer recorded as a late payment: settle the order with it, or return it.'
            : `Transfer recorded: ${received}.`,
    };
  });

  app.post('/api/admin/orders/:id/late-payment/settle', orderAction(emptyRequestSchema), async (request) => {
    const id = request.params.id;
    await orderDetail(ctx, id);
    await settleLatePayment(ctx, {
      orderId: id,
      actor: operatorOf(ctx, request).actor,
      source: 'dashboard',
    });
    return {
      message: 'The order is settled with the late payment; its invoice and license are on their way.',
    };
  });

  app.post('/api/admin/orders/:id/late-payment/return', orderAction(returnPaymentSchema), async (request) => {
    const id = request.params.id;
    const { actor } = operatorOf(ctx, request);
    await orderDetail(ctx, id);
    await requireFreshCode(ctx, actor, request.body.code);
    const result = await returnLatePayment(ctx, { orderId: id, returnReference: request.body.utr, actor });
    return { message: `Returned ${formatSubunits(result.returned, 'INR')}; the order stays cancelled.` };
  });

  app.post(
    '/api/admin/orders/:id/tds-certificate/checked',
    orderAction(emptyRequestSchema),
    async (request) => {
      const id = request.params.id;
      await orderDetail(ctx, id);
      await markTdsCertificateChecked(ctx, { orderId: id, actor: operatorOf(ctx, request).actor });
      return { message: 'Form 16A marked checked.' };
    },
  );

  app.get(
    '/api/admin/orders/:id/tds-certificate.pdf',
    {
      schema: {
        params: idPath,
        response: {
          200: answerIn('The Form 16A the buyer uploaded', { 'application/pdf': fileBytes }),
          ...refusals(...GUARD_REFUSALS, 400, 404),
        },
      },
    },
    async (request, reply) => {
      const certificate = await readTdsCertificate(ctx, { orderId: request.params.id });
      if (!certificate) throw notFound();
      return reply
        .header('content-disposition', contentDisposition(certificate.fileName, 'inline'))
        .type('application/pdf')
        .send(certificate.bytes);
    },
  );

  app.get(
    '/api/admin/orders/:id/:file',
    {
      schema: {
        params: idPath.extend({ file: z.string() }),
        response: {
          200: answerIn(
            'The proforma invoice, tax invoice or credit note (proforma.pdf, invoice.pdf, credit-note.pdf)',
            {
              'application/pdf': fileBytes,
            },
          ),
          ...refusals(...GUARD_REFUSALS, 400, 404),
        },
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      if (request.params.file === 'proforma.pdf') {
        const proforma = await findProforma(ctx, { orderId: id });
        if (!proforma) throw notFound();
        return reply
          .header(
            'content-disposition',
            contentDisposition(taxDocumentFileName('proforma', proforma.number), 'inline'),
          )
          .type('application/pdf')
          .send(await renderTaxDocumentPdf(ctx.pdfFonts, proforma.document));
      }
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
