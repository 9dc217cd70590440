import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deviceFreedAnswerSchema, licenseFileSchema, myLicensesAnswerSchema } from '../../shared/api-schemas';
import {
  deviceIdSchema,
  myLicenseIdSchema,
  offlineActivationBodySchema,
  offlineDeactivationBodySchema,
} from '../../shared/license-schemas';
import { LICENSE_MESSAGES, type MyLicense } from '../../shared/licenses';
import { OFFLINE_MESSAGES } from '../../shared/offline-activation';
import { requireUser } from '../auth/session';
import { answerIn, fileBytes, refusals } from '../http/answers';
import { contentDisposition } from '../http/content-disposition';
import { CALLER_FIRST, refuseInvalidInput } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import { deactivateOwnDevice, licenseFileForOwnDevice, myLicenses } from './devices';
import { activateWithoutInternet, deactivateWithCode } from './offline';

/** The media type an Accept header names first (a browser's fetch or curl names one). */
const firstAccepted = (accept: string | undefined) => accept?.split(',')[0]?.split(';')[0]?.trim();

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

  app.post(
    '/api/my-licenses/:licenseId/offline-activations',
    documented(
      {
        tags: ['Account'],
        summary: 'Activate a computer without internet: answer its activation request with its response file',
        description:
          'The request is the line the tool showed (or the file it saved); the answer is the signed license file ' +
          "bound to that computer and request, valid for the tool's offline period (docs/license-api.md, " +
          '"Computers without internet"). It takes a seat as an online activation does. With ' +
          '`Accept: application/octet-stream` the same file comes as a download.',
        security: SESSION,
        params: myLicenseIdSchema,
        body: offlineActivationBodySchema,
        response: {
          200: answerIn('The response file: the signed license file bound to the request', {
            'application/json': licenseFileSchema,
            'application/octet-stream': fileBytes,
          }),
          ...refusals(400, 401, 403, 404, 409),
        },
      },
      CALLER_FIRST,
    ),
    async (request, reply) => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const issued = await activateWithoutInternet(
        ctx,
        { licenseId: request.params.licenseId, holderId: user.id },
        request.body.request,
      );
      reply.header('cache-control', 'no-store');
      // The signed file's own bytes, as JSON or, asked for so, as a file to save.
      if (firstAccepted(request.headers.accept) === 'application/octet-stream') {
        reply
          .header('content-disposition', contentDisposition(issued.fileName))
          .type('application/octet-stream');
      } else {
        reply.type('application/json; charset=utf-8');
      }
      return reply.send(issued.text as never);
    },
  );

  app.post(
    '/api/my-licenses/:licenseId/offline-deactivations',
    documented(
      {
        tags: ['Account'],
        summary: 'Free the seat of a computer activated without internet with its deactivation code',
        description:
          'The code the tool showed when its offline license was removed. It does not count against the monthly ' +
          'allowance of freed devices; each code frees its seat once.',
        security: SESSION,
        params: myLicenseIdSchema,
        body: offlineDeactivationBodySchema,
        response: { 200: deviceFreedAnswerSchema, ...refusals(400, 401, 403, 404) },
      },
      CALLER_FIRST,
    ),
    async (request) => {
      const user = await requireUser(ctx, request);
      refuseInvalidInput(request);
      const freed = await deactivateWithCode(
        ctx,
        { licenseId: request.params.licenseId, holderId: user.id },
        request.body.code,
      );
      return {
        status: 'success' as const,
        message: OFFLINE_MESSAGES.codeAccepted(freed.name ?? 'The computer'),
        selfDeactivationsLeft: freed.selfDeactivationsLeft,
      };
    },
  );
}
