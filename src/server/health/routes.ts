import type { FastifyInstance } from 'fastify';
import { healthAnswerSchema, notReadyAnswerSchema, readyAnswerSchema } from '../../shared/api-schemas';
import { DATABASE_RETRY_AFTER_SECONDS, type DatabaseHealth } from '../db/health';
import { refusals } from '../http/answers';
import { AppError } from '../http/errors';
import type { AppContext } from '../kernel/context';
import { documented } from '../openapi/openapi';

const HEALTH_PATHS = new Set(['/api/health', '/api/ready']);

export const databaseUnavailable = () =>
  new AppError(
    503,
    'database_unavailable',
    'The service is briefly unavailable. Please try again in a few seconds.',
    undefined,
    { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
  );

/**
 * While this instance cannot reach its database, every API call answers 503 with Retry-After at once (the static
 * site is still served), instead of waiting on a pool that cannot connect. The health endpoints always answer.
 */
export function registerDatabaseGuard(app: FastifyInstance, health: DatabaseHealth): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (health.available || !request.url.startsWith('/api/')) return done();
    if (HEALTH_PATHS.has(request.url.split('?')[0]?.replace(/\/$/, '') ?? '')) return done();
    done(databaseUnavailable());
  });
  app.addHook('onClose', async () => health.stop());
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * A graceful shutdown's first step (main.ts): from now on `/api/ready` answers 503, so a load balancer stops
     * sending this instance new requests after its next failed checks (HAProxy: `inter` × `fall`), while every
     * other route keeps answering what it is sent meanwhile.
     */
    startDraining(): void;
  }
}

/**
 * For load balancers and orchestrators (docs/product.md §12): `/api/health` says the process is alive and serving;
 * `/api/ready` says it can reach its database right now and is not shutting down, so traffic should be sent to it
 * (503 when not).
 */
export async function healthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  let draining = false;
  app.decorate('startDraining', () => {
    draining = true;
  });
  // From then on every answer says `Connection: close`, so neither the balancer nor a client keeps a connection to
  // an instance that is leaving. Without it an answer to a request still in flight when the app closes leaves its
  // connection kept alive, and the close waits for that connection (HAProxy holds idle ones for seconds).
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });

  const alive = documented({
    tags: ['Service'],
    summary: 'Liveness: the process serves requests',
    response: { 200: healthAnswerSchema, ...refusals() },
  });
  app.get('/api/health', alive, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });

  const ready = documented({
    tags: ['Service'],
    summary: 'Readiness: the database answers a query right now',
    response: { 200: readyAnswerSchema, 503: notReadyAnswerSchema, ...refusals() },
  });
  app.get('/api/ready', ready, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    // At once, without asking the database: the balancer is to take this instance out now.
    if (draining) return reply.status(503).send({ status: 'draining' });
    if (await ctx.dbHealth.ping()) return { status: 'ready', database: 'reachable' };
    reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    return reply.status(503).send({ status: 'unavailable', database: 'unreachable' });
  });
}
