import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { activateLicenseSchema, licenseMachineSchema } from '../../shared/license-schemas';
import type { LicenseAnswer, PublicKeysResponse } from '../../shared/licenses';
import type { AppContext } from '../context';
import { AppError, parseInput } from '../http/errors';
import { myLicensesRoutes } from './my-licenses-routes';
import { activateLicense, deactivateLicense, type LicenseRequest, validateLicense } from './service';

const MINUTE = 60 * 1000;
const PER_KEY = { limit: 60, windowMs: MINUTE };
const PER_ADDRESS = { limit: 120, windowMs: MINUTE };
const BODY_LIMIT = 4 * 1024;

type ParsedCredentials = { licenseKey?: string; username?: string; password?: string };

function asRequest(body: ParsedCredentials & { toolId: string; fingerprint: string }): LicenseRequest {
  const { toolId, fingerprint } = body;
  if (body.licenseKey !== undefined) return { licenseKey: body.licenseKey, toolId, fingerprint };
  return { username: body.username ?? '', password: body.password ?? '', toolId, fingerprint };
}

/**
 * The license API for desktop tools (docs/license-api.md): JSON in and out, no cookies, no CSRF token (a program
 * has none to send), no CORS headers (a web page on another site cannot read an answer, and the JSON-only body
 * forces a preflight that fails). Every answer, errors included, carries `valid`.
 */
export async function licenseRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Counted in this instance's memory, not the database: validate must stay cheap (decision 016).
  const limit = (request: FastifyRequest, body: ParsedCredentials) => {
    ctx.licenseLimiter.consume({ key: `address:${request.ip}`, ...PER_ADDRESS });
    const credential = body.licenseKey ? `key:${body.licenseKey}` : `user:${body.username?.toLowerCase()}`;
    ctx.licenseLimiter.consume({ key: credential, ...PER_KEY });
  };

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: BODY_LIMIT },
      scope.getDefaultJsonParser('error', 'error'),
    );
    scope.setErrorHandler((error: FastifyError | AppError, _request, reply) => {
      if (error instanceof AppError) {
        if (error.headers) reply.headers(error.headers);
        return reply.status(error.statusCode).send({
          valid: false,
          code: error.code,
          message: error.message,
          ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
        });
      }
      const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
      if (status >= 500) throw error;
      const [code, message] =
        status === 413
          ? ['payload_too_large', 'Request body is too large.']
          : status === 415
            ? ['unsupported_media_type', 'Send the request as application/json.']
            : ['bad_request', 'The request body is not valid JSON.'];
      return reply.status(status).send({ valid: false, code, message });
    });

    const options = { config: { csrf: false }, bodyLimit: BODY_LIMIT };
    scope.post('/api/licenses/activate', options, async (request, reply): Promise<LicenseAnswer> => {
      const body = parseInput(activateLicenseSchema, request.body);
      limit(request, body);
      reply.header('cache-control', 'no-store');
      return activateLicense(ctx, { ...asRequest(body), name: body.name });
    });
    scope.post('/api/licenses/validate', options, async (request, reply): Promise<LicenseAnswer> => {
      const body = parseInput(licenseMachineSchema, request.body);
      limit(request, body);
      reply.header('cache-control', 'no-store');
      return validateLicense(ctx, asRequest(body));
    });
    scope.post('/api/licenses/deactivate', options, async (request, reply): Promise<LicenseAnswer> => {
      const body = parseInput(licenseMachineSchema, request.body);
      limit(request, body);
      reply.header('cache-control', 'no-store');
      return deactivateLicense(ctx, asRequest(body));
    });
  });

  await myLicensesRoutes(app, ctx);

  app.get('/api/licenses/public-keys', async (_request, reply): Promise<PublicKeysResponse> => {
    reply.header('cache-control', 'public, max-age=300');
    return { keys: ctx.licenseSigning.published };
  });
}
