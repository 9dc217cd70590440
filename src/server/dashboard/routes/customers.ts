import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountExportSchema, messageAnswerSchema } from '../../../shared/api-schemas';
import { customersQuerySchema, emptyRequestSchema, suspendLicenseSchema } from '../../../shared/dashboard';
import { customerDetailSchema, customersPageSchema } from '../../../shared/dashboard-answers';
import { SELF_DEACTIVATION_LIMIT } from '../../../shared/licenses';
import { exportAccountAsOperator, sendExport } from '../../data-rights/data-export';
import { answerIn, refusals } from '../../http/answers';
import type { AppContext } from '../../kernel/context';
import {
  deactivateDeviceAsOperator,
  reinstateLicense,
  resetSelfDeactivations,
  suspendLicense,
} from '../../licenses/operator';
import { customerDetail, listCustomers } from '../customers';
import { GUARD_REFUSALS, idPath, licenseDevicePath, operatorOf } from './guard';

/**
 * /api/admin/customers and the licenses shown on them: freeing a device, resetting the buyer's allowance, suspending
 * a license by hand and reinstating it.
 */
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
    return sendExport(reply, data, ctx.clock.now());
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

  /** Suspends a license with a reason (decision 059): audited, the buyer emailed; a team's seats follow it. */
  app.post(
    '/api/admin/licenses/:id/suspend',
    {
      schema: {
        params: idPath,
        body: suspendLicenseSchema,
        response: { 200: messageAnswerSchema, ...refusals(...GUARD_REFUSALS, 400, 404, 409) },
      },
    },
    async (request) => {
      const { suspended } = await suspendLicense(
        ctx,
        { license: { licenseId: request.params.id }, reason: request.body.reason },
        operatorOf(ctx, request).actor,
      );
      const seats = suspended > 1 ? `, with ${suspended - 1} member seat${suspended > 2 ? 's' : ''}` : '';
      return { message: `The license is suspended${seats}; the buyer is emailed the reason.` };
    },
  );

  app.post(
    '/api/admin/licenses/:id/reinstate',
    {
      schema: {
        params: idPath,
        body: emptyRequestSchema,
        response: { 200: messageAnswerSchema, ...refusals(...GUARD_REFUSALS, 400, 404, 409) },
      },
    },
    async (request) => {
      const { reinstated } = await reinstateLicense(
        ctx,
        { license: { licenseId: request.params.id } },
        operatorOf(ctx, request).actor,
      );
      const seats = reinstated > 1 ? `, with ${reinstated - 1} member seat${reinstated > 2 ? 's' : ''}` : '';
      return { message: `The license is reinstated${seats}: it answers VALID again.` };
    },
  );
}
