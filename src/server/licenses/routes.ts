import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { licensePublicKeysSchema } from '../../shared/api-schemas';
import { activateLicenseSchema, licenseMachineSchema } from '../../shared/license-schemas';
import type { PublicKeysResponse } from '../../shared/licenses';
import { refusals } from '../http/answers';
import { type AppError, httpErrorOf } from '../http/errors';
import type { ZodFastify } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { documented } from '../openapi/openapi';
import { activateLicense } from './activate';
import { licenseAnswerResponse, licenseErrorResponses } from './answer-schema';
import { deactivateLicense } from './deactivate';
import { heartbeatLicense } from './leases';
import { consumeLicenseLimits, LICENSE_API_BODY_LIMIT, licenseErrorBody, limitKeyOf } from './limits';
import type { LicenseRequest } from './lookup';
import { validateLicense } from './validate';

export type ParsedCredentials = { licenseKey?: string; username?: string; password?: string };

/** What every license API body carries: one credential (its shared schema refines that), the tool and the machine. */
type LicenseBody = ParsedCredentials & { toolId: string; fingerprint: string };

export function asRequest(body: LicenseBody): LicenseRequest {
  const { toolId, fingerprint } = body;
  if (body.licenseKey !== undefined) return { licenseKey: body.licenseKey, toolId, fingerprint };
  return { username: body.username ?? '', password: body.password ?? '', toolId, fingerprint };
}

/**
 * Adds a call to the license API: `POST /api/licenses/<operation>`, its body parsed by `doc.body` (the shared schema),
 * never cached, counted against the caller's address and credential before anything is looked up, and its answer
 * counted for the metrics by operation and code.
 */
type LicenseApiCall = <B extends z.ZodType<LicenseBody>>(
  operation: string,
  response: object,
  doc: { summary: string; description: string; body: B },
  answer: (body: z.output<B>) => Promise<{ code: string }>,
) => void;

/**
 * Route options every license API call shares: its `200` answer's schema, which Fastify compiles into the
 * serialiser, and its body's shared schema, which Fastify validates before the handler (refusals answered by the
 * scope's error handler with `valid: false`) and the document describes.
 */
const licenseApiOptions = <S extends object, B>(
  response: S,
  doc: { summary: string; description: string; body: B },
) => ({
  bodyLimit: LICENSE_API_BODY_LIMIT,
  ...documented({ tags: ['License API'], ...doc, response: { ...response, ...licenseErrorResponses } }),
});

/**
 * A scope of the license API for desktop tools (docs/license-api.md): JSON in and out, no cookies, no CSRF token (a
 * program has none to send; buildApp registers the API outside the site's cookie and CSRF scope), no CORS headers
 * (a web page on another site cannot read an answer, and the JSON-only body forces a preflight that fails). Every
 * answer, errors included, carries `valid`. Other features (the update check) add their routes to the API through it.
 */
export async function registerLicenseApi(
  app: FastifyInstance,
  ctx: AppContext,
  routes: (call: LicenseApiCall) => void,
): Promise<void> {
  const counted = <A extends { code: string }>(operation: string, answer: A): A => {
    ctx.metrics.licenseAnswers.inc({ operation, code: answer.code });
    return answer;
  };
  const limit = (request: FastifyRequest, body: ParsedCredentials): void =>
    consumeLicenseLimits(ctx.licenseLimiter, request.ip, limitKeyOf(body));

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    const parseJson = scope.getDefaultJsonParser('error', 'error');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: LICENSE_API_BODY_LIMIT },
      parseJson,
    );
    scope.setErrorHandler((error: FastifyError | AppError | DomainError, request, reply) => {
      const operation = request.routeOptions.url?.split('/').at(-1) ?? 'unknown';
      const told = httpErrorOf(error);
      if (told) {
        if (told.headers) reply.headers(told.headers);
        return reply.status(told.statusCode).send(counted(operation, licenseErrorBody(told)));
      }
      if (error instanceof DomainError) throw error;
      const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
      if (status >= 500) throw error;
      const [code, message] =
        status === 413
          ? ['payload_too_large', 'Request body is too large.']
          : status === 415
            ? ['unsupported_media_type', 'Send the request as application/json.']
            : ['bad_request', 'The request body is not valid JSON.'];
      return reply.status(status).send(counted(operation, { valid: false, code, message }));
    });
    const zod: ZodFastify = scope.withTypeProvider<ZodTypeProvider>();
    routes((operation, response, doc, answer) => {
      zod.post(`/api/licenses/${operation}`, licenseApiOptions(response, doc), async (request, reply) => {
        reply.header('cache-control', 'no-store');
        // The type provider cannot resolve a generic schema's output; Fastify has parsed the body with `doc.body`.
        const body = request.body as z.output<typeof doc.body>;
        limit(request, body);
        return counted(operation, await answer(body));
      });
    });
  });
}

const ACTIVATE = {
  summary: 'Activate a license on this machine',
  description:
    'Binds the machine (its fingerprint) to the license, within its activation limit, and answers the signed license file and the update feeds.',
  body: activateLicenseSchema,
};
const VALIDATE = {
  summary: 'Check a license on an activated machine',
  description:
    'A VALID or TRIAL answer carries a fresh license file; every other code says what the tool should show.',
  body: licenseMachineSchema,
};
const HEARTBEAT = {
  summary: "Renew this machine's floating lease",
  description:
    'Takes what validate takes. On a floating license it extends the lease (`leaseExpiresAt`); a machine whose lease lapsed answers NOT_ACTIVATED and must activate again. On a per-device license it answers as validate does.',
  body: licenseMachineSchema,
};
const DEACTIVATE = {
  summary: "Free this machine's activation",
  description:
    'Counts against the deactivation allowance shared with My Tools (3 machines in 30 days); a floating lease given back this way never does.',
  body: licenseMachineSchema,
};

/** The license API's calls and its public keys; a buyer's own licenses are in my-licenses-routes.ts. */
export async function licenseApiRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await registerLicenseApi(app, ctx, (call) => {
    call('activate', licenseAnswerResponse, ACTIVATE, (body) =>
      activateLicense(ctx, { ...asRequest(body), name: body.name }),
    );
    call('validate', licenseAnswerResponse, VALIDATE, (body) => validateLicense(ctx, asRequest(body)));
    call('heartbeat', licenseAnswerResponse, HEARTBEAT, (body) =>
      heartbeatLicense(ctx, asRequest(body), validateLicense),
    );
    call('deactivate', licenseAnswerResponse, DEACTIVATE, (body) => deactivateLicense(ctx, asRequest(body)));
  });

  const publicKeys = documented({
    tags: ['License API'],
    summary: 'The keys that verify offline license files',
    description: 'Earlier keys stay listed after a rotation, so a file signed before it still verifies.',
    response: { 200: licensePublicKeysSchema, ...refusals() },
  });
  app.get('/api/licenses/public-keys', publicKeys, async (_request, reply): Promise<PublicKeysResponse> => {
    reply.header('cache-control', 'public, max-age=300');
    return { keys: ctx.licenseSigning.published };
  });
}
