import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  activityQuerySchema,
  confirmEnrolmentRequestSchema,
  customersQuerySchema,
  type DashboardStatus,
  type EnrolmentDone,
  type EnrolmentStart,
  emptyRequestSchema,
  freshCodeSchema,
  invoicePeriodSchema,
  messagesQuerySchema,
  ordersQuerySchema,
  refundRequestSchema,
  toolInputSchema,
  toolsQuerySchema,
  verifySecondFactorRequestSchema,
} from '../../shared/dashboard';
import { SELF_DEACTIVATION_LIMIT } from '../../shared/licenses';
import { formatSubunits } from '../../shared/money';
import { type TaxDocumentKind, taxDocumentFileName } from '../../shared/order-history';
import { asSentence, FILE_TOO_LARGE, TOOL_FILE_MAX_BYTES } from '../../shared/tool-rules';
import { currentUser } from '../auth/session';
import { markMessageHandled } from '../contact/messages';
import type { AppContext } from '../context';
import { AppError, badRequest, notFound, parseInput } from '../http/errors';
import { gstr1Csv, gstr1Report } from '../invoices/gstr1';
import { findOrderTaxDocument } from '../invoices/orders';
import { renderTaxDocumentPdf } from '../invoices/pdf';
import { deactivateDeviceAsOperator, resetSelfDeactivations } from '../licenses/operator';
import { retryMail } from '../mail/outbox-admin';
import { refundOrder } from '../payments/refund';
import { resendDelivery } from '../shop/delivery';
import { FileTooLargeError } from '../storage';
import { listActivity } from './activity';
import { recordAudit } from './audit';
import { customerDetail, listCustomers } from './customers';
import { listMessages, mailStatus } from './inbox';
import { invoiceReport } from './invoices';
import { listOrders, orderDetail } from './orders';
import { overview } from './overview';
import { confirmEnrolment, requireFreshCode, startEnrolment, verifySecondFactor } from './second-factor';
import { endDashboardSession, operatorState, requireDashboard } from './session';
import { adminTool, attachToolFile, changesPrices, createTool, listAdminTools, updateTool } from './tools';

/** Dashboard requests per operator per minute: generous for a person, a wall for a script gone wrong. */
const DASHBOARD_REQUESTS_PER_MINUTE = 300;
/** Second-factor attempts per network address per minute, on top of the per-account wrong-code lock. */
const SECOND_FACTOR_ATTEMPTS_PER_MINUTE = 20;

const RESEND_REFUSALS = {
  'no-purchase': 'This order has no purchase to deliver (it was never paid).',
  refunded: 'This order was refunded; there is nothing to deliver.',
  'no-license': 'This purchase has no license or credentials to send.',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TAX_DOCUMENT_KINDS: readonly TaxDocumentKind[] = ['invoice', 'credit-note'];

const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

/**
 * /api/admin/…: the operator's dashboard (docs/product.md §12). Everything under /api/admin/auth/ is how an
 * operator passes the second factor; every other route needs it passed in this session (requireDashboard).
 */
export async function dashboardRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guarded = async (request: FastifyRequest, reply: FastifyReply) => {
    const operator = await requireDashboard(ctx, request);
    await ctx.limiter.consume({
      key: `admin-requests:${operator.user.id}`,
      limit: DASHBOARD_REQUESTS_PER_MINUTE,
      windowMs: 60 * 1000,
    });
    noStore(reply);
    return operator;
  };
  const limitAttempts = (request: FastifyRequest) =>
    ctx.limiter.consume({
      key: `admin-2fa-ip:${request.ip}`,
      limit: SECOND_FACTOR_ATTEMPTS_PER_MINUTE,
      windowMs: 60 * 1000,
    });

  app.get('/api/admin/auth/status', async (request, reply): Promise<DashboardStatus> => {
    noStore(reply);
    const user = await currentUser(ctx, request);
    if (!user) return { state: 'signed_out' };
    try {
      const state = await operatorState(ctx, request);
      const who = { email: state.user.email, name: state.user.name };
      if (!state.enrolled) return { state: 'enrol', ...who };
      return { state: state.verified ? 'ready' : 'verify', ...who };
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_operator')
        return { state: 'not_operator', email: user.email };
      throw error;
    }
  });

  app.post('/api/admin/auth/enrol', async (request, reply): Promise<EnrolmentStart> => {
    parseInput(emptyRequestSchema, request.body);
    noStore(reply);
    await limitAttempts(request);
    const state = await operatorState(ctx, request);
    return startEnrolment(ctx, state.user);
  });

  app.post('/api/admin/auth/enrol/confirm', async (request, reply): Promise<EnrolmentDone> => {
    const input = parseInput(confirmEnrolmentRequestSchema, request.body);
    noStore(reply);
    await limitAttempts(request);
    const state = await operatorState(ctx, request);
    const recoveryCodes = await confirmEnrolment(
      ctx,
      { userId: state.user.id, email: state.user.email },
      state.sessionIdHash,
      input.code,
    );
    return { recoveryCodes };
  });

  app.post('/api/admin/auth/verify', async (request, reply): Promise<DashboardStatus> => {
    const input = parseInput(verifySecondFactorRequestSchema, request.body);
    noStore(reply);
    await limitAttempts(request);
    const state = await operatorState(ctx, request);
    await verifySecondFactor(
      ctx,
      { userId: state.user.id, email: state.user.email },
      state.sessionIdHash,
      input.code,
    );
    return { state: 'ready', email: state.user.email, name: state.user.name };
  });

  app.post('/api/admin/auth/sign-out', async (request, reply) => {
    parseInput(emptyRequestSchema, request.body);
    noStore(reply);
    const state = await operatorState(ctx, request);
    await endDashboardSession(ctx, state.sessionIdHash);
    return { message: 'Signed out of the dashboard.' };
  });

  app.get('/api/admin/overview', async (request, reply) => {
    await guarded(request, reply);
    return overview(ctx);
  });

  app.get('/api/admin/orders', async (request, reply) => {
    await guarded(request, reply);
    return listOrders(ctx, parseInput(ordersQuerySchema, request.query));
  });

  app.get<{ Params: { id: string } }>('/api/admin/orders/:id', async (request, reply) => {
    await guarded(request, reply);
    return orderDetail(ctx, request.params.id);
  });

  app.get('/api/admin/customers', async (request, reply) => {
    await guarded(request, reply);
    return listCustomers(ctx, parseInput(customersQuerySchema, request.query));
  });

  app.get<{ Params: { id: string } }>('/api/admin/customers/:id', async (request, reply) => {
    await guarded(request, reply);
    return customerDetail(ctx, request.params.id);
  });

  app.get('/api/admin/tools', async (request, reply) => {
    await guarded(request, reply);
    return listAdminTools(ctx, parseInput(toolsQuerySchema, request.query));
  });

  app.get<{ Params: { id: string } }>('/api/admin/tools/:id', async (request, reply) => {
    await guarded(request, reply);
    return adminTool(ctx, request.params.id);
  });

  app.get('/api/admin/messages', async (request, reply) => {
    await guarded(request, reply);
    return listMessages(ctx, parseInput(messagesQuerySchema, request.query));
  });

  app.get('/api/admin/mail', async (request, reply) => {
    await guarded(request, reply);
    return mailStatus(ctx);
  });

  app.post<{ Params: { id: string } }>('/api/admin/orders/:id/resend', async (request, reply) => {
    parseInput(emptyRequestSchema, request.body);
    const { actor } = await guarded(request, reply);
    await orderDetail(ctx, request.params.id);
    const outcome = await resendDelivery(ctx, { orderId: request.params.id }, 'dashboard', (tx, orderId) =>
      recordAudit(tx, actor, { action: 'order.resend', target: `order:${orderId}` }),
    );
    if (outcome.result !== 'sent') throw new AppError(409, 'refused', RESEND_REFUSALS[outcome.result]);
    return {
      message: `The delivery email is on its way to ${outcome.to}, with a fresh 3-hour download link.`,
    };
  });

  app.post<{ Params: { id: string } }>('/api/admin/orders/:id/refund', async (request, reply) => {
    const input = parseInput(refundRequestSchema, request.body);
    const { actor } = await guarded(request, reply);
    await orderDetail(ctx, request.params.id);
    await requireFreshCode(ctx, actor.userId, input.code);
    const result = await refundOrder(ctx, {
      orderId: request.params.id,
      source: 'dashboard',
      reason: input.reason,
      alsoInTransaction: (tx, refund) =>
        recordAudit(tx, actor, {
          action: 'order.refund',
          target: `order:${refund.orderId}`,
          before: { status: 'paid' },
          after: {
            status: 'refunded',
            amount: refund.amount,
            currency: refund.currency,
            reason: input.reason,
          },
        }),
    });
    return {
      message: `Refunded ${formatSubunits(result.amount, result.currency)} for ${result.razorpayPaymentId}; the buyer is told by email.`,
    };
  });

  app.post('/api/admin/tools', async (request, reply) => {
    const input = parseInput(toolInputSchema, request.body);
    const { actor } = await guarded(request, reply);
    await requireFreshCode(ctx, actor.userId, parseInput(freshCodeSchema, { code: input.code }).code);
    return createTool(ctx, input, actor);
  });

  app.post<{ Params: { id: string } }>('/api/admin/tools/:id', async (request, reply) => {
    const input = parseInput(toolInputSchema, request.body);
    const { actor } = await guarded(request, reply);
    if (await changesPrices(ctx, request.params.id, input)) {
      await requireFreshCode(ctx, actor.userId, parseInput(freshCodeSchema, { code: input.code }).code);
    }
    return updateTool(ctx, request.params.id, input, actor);
  });

  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        fields: 1,
        fieldSize: 64,
        files: 1,
        parts: 2,
        fileSize: TOOL_FILE_MAX_BYTES + 1,
        headerPairs: 100,
      },
    });
    // The file plus the form's few small parts; the file itself is held to its limit as it streams.
    const config = { uploadLimit: TOOL_FILE_MAX_BYTES + 64 * 1024 };
    scope.post<{ Params: { id: string } }>(
      '/api/admin/tools/:id/file',
      { config },
      async (request, reply) => {
        const { actor } = await guarded(request, reply);
        if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data.');
        // The form sends the code before the file, so it is checked before a byte of the file is stored.
        const part = await request.file();
        if (!part) throw badRequest('Choose the file to upload.', { file: 'Choose the file to upload.' });
        const codeField = part.fields.code;
        const typed = codeField && 'value' in codeField ? codeField.value : undefined;
        const { code } = parseInput(freshCodeSchema, { code: typed });
        await requireFreshCode(ctx, actor.userId, code);
        try {
          return await attachToolFile(
            ctx,
            request.params.id,
            { fileName: part.filename, stream: part.file },
            actor,
          );
        } catch (error) {
          if (error instanceof FileTooLargeError) {
            throw new AppError(413, 'payload_too_large', asSentence(FILE_TOO_LARGE));
          }
          throw error;
        }
      },
    );
  });

  app.post<{ Params: { id: string } }>('/api/admin/messages/:id/handled', async (request, reply) => {
    parseInput(emptyRequestSchema, request.body);
    const { actor } = await guarded(request, reply);
    if (!/^[0-9a-f-]{36}$/i.test(request.params.id)) throw notFound('No such message.');
    const { message, alreadyHandled } = await markMessageHandled(ctx, request.params.id, (tx, row) =>
      recordAudit(tx, actor, {
        action: 'message.handled',
        target: `message:${row.id}`,
        before: { handled: false },
        after: { handled: true },
      }),
    );
    return {
      message: alreadyHandled
        ? 'It was already marked handled.'
        : `The message from ${message.name} is marked handled.`,
    };
  });

  app.post<{ Params: { id: string } }>('/api/admin/mail/:id/retry', async (request, reply) => {
    parseInput(emptyRequestSchema, request.body);
    const { actor } = await guarded(request, reply);
    const id = Number(request.params.id);
    if (!Number.isSafeInteger(id) || id <= 0) throw notFound('No such email.');
    await retryMail(ctx, id, (tx, change) =>
      recordAudit(tx, actor, {
        action: 'mail.retry',
        target: `mail:${id}`,
        before: { status: change.before.status, attempts: change.before.attempts },
        after: { status: change.after.status, attempts: change.after.attempts },
      }),
    );
    return { message: 'It will be sent again within seconds.' };
  });

  app.get<{ Params: { id: string; file: string } }>('/api/admin/orders/:id/:file', async (request, reply) => {
    await guarded(request, reply);
    const { id, file } = request.params;
    const kind = TAX_DOCUMENT_KINDS.find((candidate) => file === `${candidate}.pdf`);
    if (!kind || !UUID.test(id)) throw notFound();
    const found = await findOrderTaxDocument(ctx, { orderId: id, kind });
    if (!found) throw notFound();
    return reply
      .header('content-disposition', `inline; filename="${taxDocumentFileName(kind, found.number)}"`)
      .type('application/pdf')
      .send(await renderTaxDocumentPdf(found.document));
  });

  app.post<{ Params: { id: string; deviceId: string } }>(
    '/api/admin/licenses/:id/devices/:deviceId/deactivate',
    async (request, reply) => {
      parseInput(emptyRequestSchema, request.body);
      const { actor } = await guarded(request, reply);
      const { id, deviceId } = request.params;
      if (!UUID.test(id) || !UUID.test(deviceId))
        throw notFound('This device is not active on this license.');
      const { name } = await deactivateDeviceAsOperator(
        ctx,
        { licenseId: id, activationId: deviceId },
        (tx, device) =>
          recordAudit(tx, actor, {
            action: 'license.deactivate_device',
            target: `license:${id}`,
            before: { device: device.id, name: device.name, active: true },
            after: { device: device.id, name: device.name, active: false },
          }),
      );
      return { message: `${name ?? 'The device'} is deactivated; the license can be activated elsewhere.` };
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/admin/licenses/:id/reset-deactivations',
    async (request, reply) => {
      parseInput(emptyRequestSchema, request.body);
      const { actor } = await guarded(request, reply);
      if (!UUID.test(request.params.id)) throw notFound('No license with that key.');
      await resetSelfDeactivations(ctx, { licenseId: request.params.id }, (tx, change) =>
        recordAudit(tx, actor, {
          action: 'license.reset_deactivations',
          target: `license:${change.licenseId}`,
          before: { resetAt: change.before },
          after: { resetAt: change.after },
        }),
      );
      return { message: `The buyer may free ${SELF_DEACTIVATION_LIMIT} devices from My Tools again.` };
    },
  );

  app.get('/api/admin/invoices', async (request, reply) => {
    await guarded(request, reply);
    return invoiceReport(ctx, parseInput(invoicePeriodSchema, request.query));
  });

  app.get('/api/admin/invoices/export', async (request, reply) => {
    await guarded(request, reply);
    const period = parseInput(invoicePeriodSchema, request.query);
    const report = await gstr1Report(ctx, period);
    return reply
      .header('content-disposition', `attachment; filename="gstr1-${period.from}-to-${period.to}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(gstr1Csv(report));
  });

  app.get('/api/admin/activity', async (request, reply) => {
    await guarded(request, reply);
    return listActivity(ctx, parseInput(activityQuerySchema, request.query));
  });
}
