import { timingSafeEqual } from 'node:crypto';
import { count } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { z } from 'zod';
import type { Database } from '../db';
import { outbox } from '../db/schema/mail';
import { answerIn, refusals } from '../http/answers';
import { documented } from '../openapi/openapi';

/** What the scrape reads from elsewhere at the moment it is taken. */
export type MetricsSources = {
  /** Outbox rows by state (pending, sent, failed). */
  outboxDepth(): Promise<Array<{ status: string; count: number }>>;
  /** The PostgreSQL pool's connections; absent on the embedded database, which has no pool. */
  pool?(): { total: number; idle: number; waiting: number };
};

declare module '../kernel/context' {
  interface AppContext {
    /** This instance's Prometheus figures, counted by the features and served on `/metrics`. */
    metrics: Metrics;
  }
}

/** This instance's Prometheus figures. Each app instance has its own registry, so two apps in a test never mix. */
export type Metrics = {
  registry: Registry;
  /** Seconds from request to response, per route pattern (never the raw URL) and status. */
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** The license API's answers: activate, validate, deactivate, by code (VALID, REVOKED, …). */
  licenseAnswers: Counter<'operation' | 'code'>;
  /** Orders fulfilled and refunded, by currency. */
  orders: Counter<'event' | 'currency'>;
  /** Background job runs, by job and outcome (ok, failed). */
  jobRuns: Counter<'job' | 'outcome'>;
};

const GAUGES_NAMED_AS_COUNTERS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/**
 * The registry and the figures the app counts. Process figures (memory, CPU, event-loop delay, garbage
 * collection) are collected only when `withProcessMetrics`, since collecting them keeps a monitor running.
 */
export function createMetrics(options: { withProcessMetrics: boolean }): Metrics {
  const registry = new Registry();
  if (options.withProcessMetrics) {
    collectDefaultMetrics({ register: registry });
    // prom-client's totals of the active handles, requests and resources are gauges named `_total`, which
    // Prometheus reserves for counters (`promtool check metrics` fails on them); the per-type gauges stay.
    for (const name of GAUGES_NAMED_AS_COUNTERS) registry.removeSingleMetric(name);
  }
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to response, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    licenseAnswers: new Counter({
      name: 'license_api_answers_total',
      help: 'License API answers by operation and code',
      labelNames: ['operation', 'code'],
      registers: [registry],
    }),
    orders: new Counter({
      name: 'shop_orders_total',
      help: 'Orders fulfilled (paid) and refunded, by currency',
      labelNames: ['event', 'currency'],
      registers: [registry],
    }),
    jobRuns: new Counter({
      name: 'background_job_runs_total',
      help: 'Background job runs by job and outcome',
      labelNames: ['job', 'outcome'],
      registers: [registry],
    }),
  };
}

/** Every state an outbox message can be in: each is reported, at 0 when empty, so a graph has no gaps. */
const OUTBOX_STATES = ['pending', 'sent', 'failed'] as const;

/** The outbox's messages by state, one grouped count (the outbox is indexed on its state). */
export async function outboxDepth(db: Database): Promise<Array<{ status: string; count: number }>> {
  return db.select({ status: outbox.status, count: count() }).from(outbox).groupBy(outbox.status);
}

/** Figures read when Prometheus scrapes: the outbox's depth and the database pool's use. */
function registerScrapeGauges(metrics: Metrics, sources: MetricsSources): void {
  // One set per registry, also when a test builds a second app on the same context.
  if (metrics.registry.getSingleMetric('mail_outbox_messages')) return;
  new Gauge({
    name: 'mail_outbox_messages',
    help: 'Outbox messages by state',
    labelNames: ['status'],
    registers: [metrics.registry],
    async collect() {
      // While the database is unreachable the scrape still answers, without this gauge's figures.
      const depth = await sources.outboxDepth().catch(() => undefined);
      this.reset();
      if (!depth) return;
      for (const status of OUTBOX_STATES) this.set({ status }, 0);
      for (const { status, count } of depth) this.set({ status }, count);
    },
  });
  const pool = sources.pool;
  if (!pool) return;
  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by state',
    labelNames: ['state'],
    registers: [metrics.registry],
    collect() {
      const { total, idle, waiting } = pool();
      this.set({ state: 'total' }, total);
      this.set({ state: 'idle' }, idle);
      this.set({ state: 'waiting' }, waiting);
    },
  });
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Times every request, and serves `GET /metrics` in Prometheus' text format to a scraper that sends
 * `Authorization: Bearer <METRICS_TOKEN>`; without a token configured the route does not exist. Register it
 * before the routes, so its hook times all of them.
 */
export async function metricsRoutes(
  app: FastifyInstance,
  metrics: Metrics,
  options: { token: string | undefined; sources: MetricsSources },
): Promise<void> {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpDuration.observe(
      {
        method: request.method,
        // The pattern (`/api/orders/:id/invoice.pdf`), so ids and tokens never become labels.
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
  const { token } = options;
  if (!token) return;
  registerScrapeGauges(metrics, options.sources);
  const scrape = documented({
    tags: ['Service'],
    summary: "Prometheus' scrape: request durations, the outbox, the database pool, the process",
    security: [{ metricsToken: [] }],
    response: {
      ...refusals(),
      200: answerIn("Prometheus' text format", { 'text/plain': z.string() }),
      401: z
        .object({ code: z.literal('unauthorized'), message: z.string() })
        .describe('No Authorization: Bearer <METRICS_TOKEN>, or another token'),
    },
  });
  app.get('/metrics', scrape, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ code: 'unauthorized', message: 'A valid metrics token is required.' });
    }
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).header('cache-control', 'no-store').send(body);
  });
}
