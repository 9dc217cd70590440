import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { customersQuerySchema, emptyRequestSchema } from '../../../shared/dashboard';
import { SELF_DEACTIVATION_LIMIT } from '../../../shared/licenses';
import { exportAccountAsOperator, exportFileName } from '../../data-rights/data-export';
import { contentDisposition } from '../../http/content-disposition';
import type { AppContext } from '../../kernel/context';
import { deactivateDeviceAsOperator, resetSelfDeactivations } from '../../licenses/operator';
import { customerDetail, listCustomers } from '../customers';
import { idPath, licenseDevicePath, operatorOf } from './guard';

/** /api/admin/customers and the licenses shown on them: freeing a device, resetting the buyer's allowance. */
export function customerRoutes(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get('/api/admin/customers', { schema: { querystring: customersQuerySchema } }, async (request) =>
    listCustomers(ctx, request.query),
  );

  app.get('/api/admin/customers/:id', { schema: { params: idPath } }, async (request) =>
    customerDetail(ctx, request.params.id),
  );

  /** The customer's data export, for a request that came by email or post; audited. */
  app.get('/api/admin/customers/:id/export', { schema: { params: idPath } }, async (request, reply) => {
    const data = await exportAccountAsOperator(ctx, request.params.id, operatorOf(request).actor);
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', contentDisposition(exportFileName(ctx.clock.now())))
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(data, null, 2));
  });

  app.post(
    '/api/admin/licenses/:id/devices/:deviceId/deactivate',
    { schema: { params: licenseDevicePath, body: emptyRequestSchema } },
    async (request) => {
      const { id, deviceId } = request.params;
      const { name } = await deactivateDeviceAsOperator(
        ctx,
        { license: { licenseId: id }, device: deviceId },
        operatorOf(request).actor,
      );
      return { message: `${name ?? 'The device'} is deactivated; the license can be activated elsewhere.` };
    },
  );

  app.post(
    '/api/admin/licenses/:id/reset-deactivations',
    { schema: { params: idPath, body: emptyRequestSchema } },
    async (request) => {
      const licenseId = request.params.id;
      await resetSelfDeactivations(ctx, { licenseId }, operatorOf(request).actor);
      return { message: `The buyer may free ${SELF_DEACTIVATION_LIMIT} devices from My Tools again.` };
    },
  );
}
