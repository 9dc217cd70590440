import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenAnswerSchema } from '../../shared/api-schemas';
import type { Config } from '../kernel/config';
import { refusals } from './answers';
import { AppError } from './errors';

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set to false on routes called by other servers (webhooks), which cannot carry the token. */
    csrf?: boolean;
  }
}

/** Issues a fresh token cookie, readable by the page's JavaScript (Django style), and returns it. */
export function issueCsrfToken(reply: FastifyReply, config: Config): string {
  const token = randomBytes(32).toString('base64url');
  reply.setCookie(CSRF_COOKIE, token, {
    path: '/',
    sameSite: 'lax',
    secure: config.isProduction,
    httpOnly: false,
    maxAge: 365 * 24 * 60 * 60,
  });
  return token;
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function isAllowedOrigin(request: FastifyRequest, config: Config): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'cross-site') return false;
  const origin = request.headers.origin;
  if (!origin) return true;
  const allowed = new Set([new URL(config.publicUrl).origin, `${request.protocol}://${request.host}`]);
  return allowed.has(origin);
}

/**
 * Double-submit CSRF protection for every unsafe /api/ request: the X-CSRFToken header must echo the csrftoken
 * cookie, and a cross-site Origin or Sec-Fetch-Site is refused outright.
 */
export function registerCsrf(app: FastifyInstance, config: Config): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (!UNSAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return done();
    if (request.routeOptions.config?.csrf === false) return done();
    if (!isAllowedOrigin(request, config)) {
      return done(new AppError(403, 'csrf_failed', 'Cross-site request refused.'));
    }
    const cookie = request.cookies[CSRF_COOKIE];
    const header = request.headers[CSRF_HEADER];
    if (!cookie || typeof header !== 'string' || !sameToken(cookie, header)) {
      return done(
        new AppError(
          403,
          'csrf_failed',
          'CSRF token missing or incorrect. Please refresh the page and try again.',
        ),
      );
    }
    done();
  });

  // In the OpenAPI document like the calls it guards (tagged as src/server/openapi/openapi.ts tags them).
  const tokenRoute = {
    schema: {
      tags: ['Site'],
      summary:
        'The CSRF token (also set as the csrftoken cookie) that every unsafe call echoes in X-CSRFToken',
      response: { 200: csrfTokenAnswerSchema, ...refusals() },
    },
  };
  app.get('/api/csrf-token/', tokenRoute, async (request, reply) => {
    const existing = request.cookies[CSRF_COOKIE];
    const csrfToken = existing && /^[\w-]{43}$/.test(existing) ? existing : issueCsrfToken(reply, config);
    reply.header('cache-control', 'no-store');
    return { csrfToken };
  });
}
