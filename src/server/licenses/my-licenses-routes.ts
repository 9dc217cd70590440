import type { FastifyInstance } from 'fastify';
import { deviceIdSchema } from '../../shared/license-schemas';
import { LICENSE_MESSAGES, type MyLicense } from '../../shared/licenses';
import { requireUser } from '../auth/session';
import type { AppContext } from '../context';
import { contentDisposition } from '../http/content-disposition';
import { parseInput } from '../http/errors';
import { deactivateOwnDevice, licenseFileForOwnDevice, myLicenses } from './devices';

/** The buyer's side of licenses, on My Tools: session cookie and CSRF token like the rest of the site. */
export async function myLicensesRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/api/my-licenses/', async (request, reply): Promise<MyLicense[]> => {
    const user = await requireUser(ctx, request);
    reply.header('cache-control', 'no-store');
    return myLicenses(ctx, user.id);
  });

  app.post('/api/my-licenses/devices/:activationId/deactivate', async (request) => {
    const user = await requireUser(ctx, request);
    const { activationId } = parseInput(deviceIdSchema, request.params);
    const { selfDeactivationsLeft } = await deactivateOwnDevice(ctx, user.id, activationId);
    return { status: 'success', message: LICENSE_MESSAGES.deviceDeactivated, selfDeactivationsLeft };
  });

  app.get('/api/my-licenses/devices/:activationId/license-file', async (request, reply) => {
    const user = await requireUser(ctx, request);
    const { activationId } = parseInput(deviceIdSchema, request.params);
    const file = await licenseFileForOwnDevice(ctx, user.id, activationId);
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', contentDisposition(file.fileName))
      .type('application/json; charset=utf-8')
      .send(file.text);
  });
}
