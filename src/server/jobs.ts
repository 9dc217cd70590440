import { pruneCodes } from './auth/codes';
import type { AppContext } from './context';
import { createMailTransport } from './mail/transport';
import { createOutboxWorker, type OutboxLog } from './mail/worker';
import { RECONCILE_INTERVAL_MS, reconcileOnce } from './payments/reconciler';

export type BackgroundJob = {
  name: string;
  intervalMs: number;
  run(): Promise<unknown>;
  /** Lets a job ask for an extra run before its next tick; returns the unsubscribe function. */
  subscribe?(runSoon: () => void): () => void;
};

export type JobLog = OutboxLog;

/** How long a "mail queued" hint waits, so the transaction that queued the mail has usually committed. */
const MAIL_QUEUED_SETTLE_MS = 100;

function outboxJob(ctx: AppContext, log: JobLog): BackgroundJob {
  const worker = createOutboxWorker({
    db: ctx.db,
    clock: ctx.clock,
    transport: createMailTransport(ctx.config),
    log,
  });
  return {
    name: 'outbox',
    intervalMs: 2000,
    run: () => worker.drain(),
    subscribe(runSoon) {
      let pending: NodeJS.Timeout | undefined;
      const unsubscribe = ctx.mailQueued.subscribe(() => {
        pending ??= setTimeout(() => {
          pending = undefined;
          runSoon();
        }, MAIL_QUEUED_SETTLE_MS);
      });
      return () => {
        unsubscribe();
        clearTimeout(pending);
      };
    },
  };
}

/**
 * The periodic work of one app instance. Each job's runs never overlap, and a failing run is logged and retried
 * on the next tick. Every job is safe to run on several instances at once.
 */
export function backgroundJobs(ctx: AppContext, log: JobLog): BackgroundJob[] {
  return [
    { name: 'rate-limit-prune', intervalMs: 60 * 60 * 1000, run: () => ctx.limiter.prune() },
    { name: 'verification-code-prune', intervalMs: 60 * 60 * 1000, run: () => pruneCodes(ctx) },
    outboxJob(ctx, log),
    {
      name: 'payments-reconcile',
      intervalMs: RECONCILE_INTERVAL_MS,
      async run() {
        const summary = await reconcileOnce(ctx);
        if (summary.errors.length > 0)
          log.warn({ summary }, 'payment reconciler could not settle some orders');
        return summary;
      },
    },
  ];
}

export function startJobs(
  jobs: BackgroundJob[],
  log: { error(obj: object, msg: string): void },
): { stop(): Promise<void> } {
  const running = new Set<Promise<unknown>>();
  let stopped = false;
  const handles = jobs.map((job) => {
    let busy = false;
    let runAgain = false;
    const tick = () => {
      if (stopped || busy) return;
      busy = true;
      const run = job
        .run()
        .catch((err: unknown) => log.error({ err, job: job.name }, 'background job failed'))
        .finally(() => {
          busy = false;
          running.delete(run);
          if (runAgain) {
            runAgain = false;
            setImmediate(tick);
          }
        });
      running.add(run);
    };
    // A run asked for while one is in progress happens right after it, so nothing queued meanwhile waits a tick.
    const runSoon = () => {
      if (busy) runAgain = true;
      else tick();
    };
    setImmediate(tick);
    return { timer: setInterval(tick, job.intervalMs), unsubscribe: job.subscribe?.(runSoon) };
  });
  return {
    async stop() {
      stopped = true;
      for (const { timer, unsubscribe } of handles) {
        clearInterval(timer);
        unsubscribe?.();
      }
      await Promise.allSettled([...running]);
    },
  };
}
