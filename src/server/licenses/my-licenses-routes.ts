import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deviceFreedAnswerSchema, licenseFileSchema, myLicensesAnswerSchema } from '../../shared/api-schemas';
import { deviceIdSchema } from '../../shared/license-schemas';
import { LICENSE_MESSAGES, type MyLicense } from '../../shared/licenses';
import { requireUser } from '../auth/session';
import { refusals } from '../http/answers';
import { contentDisposition } from '../http/content-disposition';
import { CALLER_FIRST, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import { deactivateOwnDevice, licenseFileForOwnDevice, myLicenses } from './devices';

/** The buyer's side of licenses, on My Tools: session cookie and CSRF token like the rest of the site. */
export async function myLicensesRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/my-licenses/',
    documented({
      tags: ['Account'],
      summary: "The signed-in buyer's licenses, with their devices",
      security: SESSION,
      response: { 200: myLicensesAnswerSchema, ...refusals(401) },
    }),
    async (request, reply): Promise<MyLicense[]> => {
      const user = await requireUser(ctx, request);
      reply.header('cache-control', 'no-store');
      return myLicenses(ctx, user.id);
    },
  );

  app.post(
    '/api/my-licenses/devices/:activationId/deactivate',
    documented(
      {
        tags: ['Account'],
        summary: "Free one of the buyer's devices",
        description: "Counts against the same allowance as the license API's deactivate.",
        security: SESSION,
        params: deviceIdSchema,
        response: { 200: deviceFreedAnswerSchema, ...refusals(400, 401, 403, 404, 409) },
      },
      CALLER_FIRST,
    ),
    async (request) => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const { activationId } = request.params;
      const { selfDeactivationsLeft } = await deactivateOwnDevice(ctx, user.id, activationId);
      return {
        status: 'success' as const,
        message: LICENSE_MESSAGES.deviceDeactivated,
        selfDeactivationsLeft,
      };
    },
  );

  app.get(
    '/api/my-licenses/devices/:activationId/license-file',
    documented(
      {
        tags: ['Account'],
        summary: "Download the offline license file of one of the buyer's devices",
        description:
          'The signed file a tool keeps for offline starts (docs/license-api.md, "Offline license file").',
        security: SESSION,
        params: deviceIdSchema,
        response: { 200: licenseFileSchema, ...refusals(400, 401, 404) },
      },
      CALLER_FIRST,
    ),
    async (request, reply) => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const { activationId } = request.params;
      const file = await licenseFileForOwnDevice(ctx, user.id, activationId);
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', contentDisposition(file.fileName))
        .type('application/json; charset=utf-8')
        .send(file.text as never); // The signed file's own bytes: Fastify writes a string as it is.
    },
  );
}
