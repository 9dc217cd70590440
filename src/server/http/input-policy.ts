import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findHostileText } from '../../shared/input-policy';
import { badRequest } from './errors';

/**
 * The floor of the input policy (src/shared/input-policy.ts) for every route, before any handler runs: a body,
 * query or path parameter holding NUL, another control character or a lone surrogate, in any field, is a 400 with
 * that field's error. Each route's schema then adds its own rules (single-line fields, byte limits); this catches
 * what a schema forgot, so hostile bytes never reach the database, whose text type refuses NUL with a 500.
 * Raw bodies (the Razorpay webhook's signed string) are checked by their route after parsing.
 */
export function registerInputPolicy(app: FastifyInstance): void {
  // Callback style, as the other hooks every request passes: nothing here awaits, so no promise per request.
  app.addHook('preHandler', (request: FastifyRequest, _reply, done) => {
    const found =
      findHostileText(request.params) ??
      findHostileText(request.query) ??
      (typeof request.body === 'object' ? findHostileText(request.body) : null);
    if (!found) return done();
    request.log.info(
      { field: found.path, url: request.routeOptions.url },
      'input refused by the text policy',
    );
    done(badRequest(found.message, { [found.path]: found.message }));
  });
}
