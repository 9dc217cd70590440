import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { utf8Length } from '../../shared/input-policy';
import { AppError } from './errors';

/** The largest form body the site takes, urlencoded or multipart alike. */
export const FORM_BODY_LIMIT = 16 * 1024;

export const payloadTooLarge = () => new AppError(413, 'payload_too_large', 'Request body is too large.');

/**
 * A body whose declared length is over the route's limit (forms: FORM_BODY_LIMIT) is a 413 before anything else
 * is looked at, whatever its content type: the answer to "too big" does not depend on whether the route would
 * have understood the body. A route that takes a file names its own limit (`config: { uploadLimit }`) and
 * streams the file under it.
 */
export function registerDeclaredSizeLimit(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const declared = Number(request.headers['content-length']);
    if (!Number.isFinite(declared)) return done();
    const type = request.headers['content-type'] ?? '';
    // Read once: Fastify builds routeOptions anew on every read.
    const { bodyLimit: routeLimit = Number.POSITIVE_INFINITY, config } = request.routeOptions;
    const isForm = /^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(type);
    const { uploadLimit } = config;
    const limit = uploadLimit ?? (isForm ? Math.min(routeLimit, FORM_BODY_LIMIT) : routeLimit);
    done(declared > limit ? payloadTooLarge() : undefined);
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A file upload route's limit: the most its whole request may declare. */
    uploadLimit?: number;
  }
}

/**
 * Multipart form data (the spec's browser sends its forms as FormData) under the same size limit as urlencoded
 * forms. Busboy does not fail on size: it cuts an oversize field to `fieldSize` and reads on. A declared length
 * over the limit is refused before reading (registerDeclaredSizeLimit), and a body that arrives without one
 * (chunked) is measured as it is parsed: a field cut short, or fields adding up past the limit, make it a 413 just
 * like the urlencoded form.
 */
export async function registerMultipartForms(scope: FastifyInstance): Promise<void> {
  await scope.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: {
      fields: 10,
      fieldSize: FORM_BODY_LIMIT + 1,
      fieldNameSize: 100,
      files: 0,
      parts: 10,
      headerPairs: 100,
    },
  });
  scope.addHook('preHandler', async (request: FastifyRequest) => {
    if (!request.isMultipart() || !request.body || typeof request.body !== 'object') return;
    let total = 0;
    for (const value of Object.values(request.body)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        total += typeof item === 'string' ? utf8Length(item) : Buffer.isBuffer(item) ? item.length : 0;
      }
    }
    if (total > FORM_BODY_LIMIT) throw payloadTooLarge();
  });
}
