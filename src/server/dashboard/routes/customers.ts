import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountExportSchema, messageAnswerSchema } from '../../../shared/api-schemas';
import { customersQuerySchema, emptyRequestSchema } from '../../../shared/dashboard';
import { customerDetailSchema, customersPageSchema } from '../../../shared/dashboard-answers';
import { SELF_DEACTIVATION_LIMIT } from '../../../shared/licenses';
import { exportAccountAsOperator, exportFileName } from '../../data-rights/data-export';
import { answerIn, refusals } from '../../http/answers';
import { contentDisposition } from '../../http/content-disposition';
import type { AppContext } from '../../kernel/context';
import { deactivateDeviceAsOperator, resetSelfDeactivations } from '../../licenses/operator';
import { customerDetail, listCustomers } from '../customers';
import { GUARD_REFUSALS, idPath, licenseDevicePath, operatorOf } from './guard';

/** /api/admin/customers and the licenses shown on them: freeing a device, resetting the buyer's allowance. */
export function customerRoutes(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const list = {
    schema: {
      querystring: customersQuerySchema,
      response: { 200: customersPageSchema, ...refusals(...GUARD_REFUSALS, 400) },
    },
  };
  app.get('/api/admin/customers', list, async (request) => listCustomers(ctx, request.query));

  const one = {
    schema: {
      params: idPath,
      response: { 200: customerDetailSchema, ...refusals(...GUARD_REFUSALS, 400, 404) },
    },
  };
  app.get('/api/admin/customers/:id', one, async (request) => customerDetail(ctx, request.params.id));

  /** The customer's data export, for a request that came by email or post; audited. */
  const exported = {
    schema: {
      params: idPath,
      response: {
        200: answerIn('The customer’s data export, as a JSON file', {
          'application/json': accountExportSchema,
        }),
        ...refusals(...GUARD_REFUSALS, 400, 404),
      },
    },
  };
  app.get('/api/admin/customers/:id/export', exported, async (request, reply) => {
    const data = await exportAccountAsOperator(ctx, request.params.id, operatorOf(ctx, request).actor);
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', contentDisposition(exportFileName(ctx.clock.now())))
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(data, null, 2));
  });

  app.post(
    '/api/admin/licenses/:id/devices/:deviceId/deactivate',
    {
      schema: {
        params: licenseDevicePath,
        body: emptyRequestSchema,
        response: { 200: messageAnswerSchema, ...refusals(...GUARD_REFUSALS, 400, 404, 409) },
      },
    },
    async (request) => {
      const { id, deviceId } = request.params;
      const { name } = await deactivateDeviceAsOperator(
        ctx,
        { license: { licenseId: id }, device: deviceId },
        operatorOf(ctx, request).actor,
      );
      return { message: `${name ?? 'The device'} is deactivated; the license can be activated elsewhere.` };
    },
  );

  app.post(
    '/api/admin/licenses/:id/reset-deactivations',
    {
      schema: {
        params: idPath,
        body: emptyRequestSchema,
        response: { 200: messageAnswerSchema, ...refusals(...GUARD_REFUSALS, 400, 404) },
      },
    },
    async (request) => {
      const licenseId = request.params.id;
      await resetSelfDeactivations(ctx, { licenseId }, operatorOf(ctx, request).actor);
      return { message: `The buyer may free ${SELF_DEACTIVATION_LIMIT} devices from My Tools again.` };
    },
  );
}
