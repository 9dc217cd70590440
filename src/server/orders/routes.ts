import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  orderDetailSchema,
  ordersAnswerSchema,
  refundRequestViewSchema,
  statusAnswerSchema,
  tdsCertificateAnswerSchema,
} from '../../shared/api-schemas';
import {
  BILLING_CORRECTION_MESSAGES,
  type BillingCorrectionAnswer,
  billingCorrectionAnswerSchema,
  billingCorrectionSchema,
} from '../../shared/billing-correction';
import { LICENSE_MESSAGES } from '../../shared/licenses';
import type { OrderDetail } from '../../shared/order-detail';
import type { OrderHistoryOrder } from '../../shared/order-history';
import type { TdsCertificateAnswer } from '../../shared/proforma';
import { buyerRefundRequestSchema, type RefundRequestView } from '../../shared/refund-requests';
import { SHOP_ENDPOINT_MESSAGES, SHOP_MESSAGES, type StatusResponse } from '../../shared/shop';
import { sendCredentialsSchema } from '../../shared/shop-schemas';
import { requireUser } from '../auth/session';
import { answerIn, fileBytes, refusals } from '../http/answers';
import { contentDisposition } from '../http/content-disposition';
import { notFound } from '../http/errors';
import { CALLER_FIRST, pathStrings, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { licenseHold } from '../licenses/status';
import { documented, SESSION } from '../openapi/openapi';
import { correctBilling } from './billing-correction';
import { resendDelivery } from './delivery';
import { listOwnOrders } from './read/buyer-orders';
import { ownOrderDetail } from './read/buyer-page';
import { requestRefund } from './refund-requests';
import {
  readTdsCertificate,
  storeTdsCertificate,
  TDS_CERTIFICATE_MAX_BYTES,
  TDS_CERTIFICATE_MESSAGES,
} from './tds';

const CREDENTIALS_MESSAGES = SHOP_MESSAGES.credentials;
const RESEND_LIMIT = { limit: 5, windowMs: 60 * 60 * 1000 };

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The buyer's orders: the list, one order's page (its owner only: anyone else gets 404, as for an order that does
 * not exist), a refund request, a billing correction, and the delivery email sent again ("Get Credentials").
 */
export async function orderRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/orders/',
    documented({
      tags: ['Account'],
      summary: "The signed-in buyer's paid and refunded orders, newest first",
      security: SESSION,
      response: { 200: ordersAnswerSchema, ...refusals(401) },
    }),
    async (request, reply): Promise<OrderHistoryOrder[]> => {
      const user = await requireUser(ctx, request);
      reply.header('cache-control', 'no-store');
      return listOwnOrders(ctx, user.id);
    },
  );

  app.get(
    '/api/orders/:orderId',
    documented({
      tags: ['Account'],
      summary:
        'One of the buyer’s orders: lines, price as invoiced, payment, tax documents, license, history',
      security: SESSION,
      params: pathStrings('orderId'),
      response: { 200: orderDetailSchema, ...refusals(401, 404) },
    }),
    async (request, reply): Promise<OrderDetail> => {
      const user = await requireUser(ctx, request);
      const { orderId } = request.params;
      if (!UUID_PATTERN.test(orderId)) throw notFound();
      const detail = await ownOrderDetail(ctx, { userId: user.id, orderId });
      if (!detail) throw notFound();
      reply.header('cache-control', 'private, no-store');
      return detail;
    },
  );

  app.post(
    '/api/orders/:orderId/refund-request',
    documented(
      {
        tags: ['Account'],
        summary: 'Ask for a refund under one of the Refund Policy’s exceptions',
        security: SESSION,
        params: pathStrings('orderId'),
        body: buyerRefundRequestSchema,
        response: { 200: refundRequestViewSchema, ...refusals(400, 401, 403, 404, 409, 429) },
      },
      CALLER_FIRST,
    ),
    async (request): Promise<RefundRequestView> => {
      const user = await requireUser(ctx, request);
      await ctx.limiter.consume({ key: `refund-request:user:${user.id}`, limit: 5, windowMs: 60 * 60_000 });
      const { orderId } = request.params;
      if (!UUID_PATTERN.test(orderId)) throw notFound();
      refuseInvalidInput(request);
      const body = request.body;
      return requestRefund(ctx, { userId: user.id, orderId, body });
    },
  );

  app.post(
    '/api/orders/:orderId/billing',
    documented(
      {
        tags: ['Account'],
        summary: 'Add or correct the GSTIN and billing address of a paid order',
        description:
          'Until 30 November after the end of the financial year of the invoice (CGST Act s. 34): a credit note cancels the current invoice and a new invoice with the new details replaces it; both are emailed in one message. Owner only (404 for anyone else).',
        security: SESSION,
        params: pathStrings('orderId'),
        body: billingCorrectionSchema,
        response: { 200: billingCorrectionAnswerSchema, ...refusals(400, 401, 403, 404, 409, 429) },
      },
      CALLER_FIRST,
    ),
    async (request): Promise<BillingCorrectionAnswer> => {
      const user = await requireUser(ctx, request);
      await ctx.limiter.consume({
        key: `billing-correction:user:${user.id}`,
        limit: 10,
        windowMs: 60 * 60_000,
      });
      const { orderId } = request.params;
      if (!UUID_PATTERN.test(orderId)) throw notFound();
      refuseInvalidInput(request);
      const issued = await correctBilling(ctx, { userId: user.id, orderId, body: request.body });
      return {
        message: BILLING_CORRECTION_MESSAGES.done(issued.creditNote.number, issued.invoice.number),
        creditNote: { number: issued.creditNote.number },
        invoice: { number: issued.invoice.number },
      };
    },
  );

  // The buyer's TDS certificate (Form 16A, issue 68): a PDF, in a scope of its own that takes multipart files.
  await app.register(async (files) => {
    await files.register(multipart, {
      limits: { files: 1, fields: 0, parts: 1, fileSize: TDS_CERTIFICATE_MAX_BYTES + 1 },
      throwFileSizeLimit: false,
    });
    files.withTypeProvider<ZodTypeProvider>().post(
      '/api/orders/:orderId/tds-certificate',
      documented(
        {
          tags: ['Account'],
          summary: 'Upload the Form 16A for an order whose buyer deducted TDS',
          description:
            'multipart/form-data with one PDF file (at most 5 MB). A later upload replaces the earlier one until the firm has checked it.',
          security: SESSION,
          params: pathStrings('orderId'),
          response: { 200: tdsCertificateAnswerSchema, ...refusals(400, 401, 403, 404, 409, 413, 429) },
        },
        { uploadLimit: TDS_CERTIFICATE_MAX_BYTES + 64 * 1024 },
      ),
      async (request): Promise<TdsCertificateAnswer> => {
        const user = await requireUser(ctx, request);
        await ctx.limiter.consume({
          key: `tds-certificate:user:${user.id}`,
          limit: 10,
          windowMs: 60 * 60_000,
        });
        const { orderId } = request.params;
        if (!UUID_PATTERN.test(orderId)) throw notFound();
        const fileRequired = new DomainError('validation_error', 'Choose the Form 16A PDF to upload.', {
          fieldErrors: { file: 'Choose the Form 16A PDF to upload.' },
        });
        if (!request.isMultipart()) throw fileRequired;
        const part = await request.file();
        if (!part) throw fileRequired;
        const stored = await storeTdsCertificate(ctx, {
          userId: user.id,
          orderId,
          fileName: part.filename,
          stream: part.file,
        });
        return { message: TDS_CERTIFICATE_MESSAGES.uploaded, ...stored };
      },
    );
  });

  app.get(
    '/api/orders/:orderId/tds-certificate.pdf',
    documented({
      tags: ['Account'],
      summary: 'The Form 16A the buyer uploaded for an order',
      security: SESSION,
      params: pathStrings('orderId'),
      response: {
        200: answerIn('The PDF, to show in the browser', { 'application/pdf': fileBytes }),
        ...refusals(401, 404),
      },
    }),
    async (request, reply) => {
      const user = await requireUser(ctx, request);
      const { orderId } = request.params;
      if (!UUID_PATTERN.test(orderId)) throw notFound();
      const certificate = await readTdsCertificate(ctx, { orderId, userId: user.id });
      if (!certificate) throw notFound();
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-disposition', contentDisposition(certificate.fileName, 'inline'))
        .type('application/pdf')
        .send(certificate.bytes);
    },
  );

  app.post(
    '/api/send-tool-credentials/',
    documented(
      {
        tags: ['Account'],
        summary: 'Email the license key or sign-in details of a bought tool again',
        security: SESSION,
        body: sendCredentialsSchema,
        response: { 200: statusAnswerSchema, ...refusals(400, 401, 403, 404, 409, 429) },
      },
      CALLER_FIRST,
    ),
    async (request): Promise<StatusResponse> => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const { toolId } = request.body;

      await ctx.limiter.consume({
        key: `send-credentials:${user.id}:${toolId}`,
        ...RESEND_LIMIT,
        message: SHOP_ENDPOINT_MESSAGES.credentials.tooMany,
      });
      const hold = await licenseHold(ctx.db, { userId: user.id, toolId });
      if (hold) {
        throw new DomainError(
          'refused',
          hold.status === 'revoked'
            ? LICENSE_MESSAGES.licenseRevoked
            : hold.reason
              ? LICENSE_MESSAGES.suspendedByFirm(hold.reason)
              : LICENSE_MESSAGES.licenseSuspended,
        );
      }
      const outcome = await resendDelivery(ctx, { userId: user.id, toolId }, 'web');
      if (outcome.result !== 'sent') throw notFound(SHOP_ENDPOINT_MESSAGES.credentials.notPurchased);
      return { status: 'success', message: CREDENTIALS_MESSAGES.sent };
    },
  );
}
