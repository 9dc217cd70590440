import type { FastifyInstance } from 'fastify';
import { customersQuerySchema, emptyRequestSchema } from '../../../shared/dashboard';
import { SELF_DEACTIVATION_LIMIT } from '../../../shared/licenses';
import { exportAccountAsOperator, exportFileName } from '../../account/data-export';
import { contentDisposition } from '../../http/content-disposition';
import { parseInput } from '../../http/errors';
import type { AppContext } from '../../kernel/context';
import { deactivateDeviceAsOperator, resetSelfDeactivations } from '../../licenses/operator';
import { customerDetail, listCustomers } from '../customers';
import { idParams, licenseDeviceParams, operatorOf } from '../guard';

/** /api/admin/customers and the licenses shown on them: freeing a device, resetting the buyer's allowance. */
export function customerRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/admin/customers', async (request) =>
    listCustomers(ctx, parseInput(customersQuerySchema, request.query)),
  );

  app.get('/api/admin/customers/:id', async (request) => customerDetail(ctx, idParams(request)));

  /** The customer's data export, for a request that came by email or post; audited. */
  app.get('/api/admin/customers/:id/export', async (request, reply) => {
    const data = await exportAccountAsOperator(ctx, idParams(request), operatorOf(request).actor);
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', contentDisposition(exportFileName(ctx.clock.now())))
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(data, null, 2));
  });

  app.post('/api/admin/licenses/:id/devices/:deviceId/deactivate', async (request) => {
    const { id, deviceId } = licenseDeviceParams(request);
    parseInput(emptyRequestSchema, request.body);
    const { name } = await deactivateDeviceAsOperator(
      ctx,
      { license: { licenseId: id }, device: deviceId },
      operatorOf(request).actor,
    );
    return { message: `${name ?? 'The device'} is deactivated; the license can be activated elsewhere.` };
  });

  app.post('/api/admin/licenses/:id/reset-deactivations', async (request) => {
    const licenseId = idParams(request);
    parseInput(emptyRequestSchema, request.body);
    await resetSelfDeactivations(ctx, { licenseId }, operatorOf(request).actor);
    return { message: `The buyer may free ${SELF_DEACTIVATION_LIMIT} devices from My Tools again.` };
  });
}
