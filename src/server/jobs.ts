import { CHECKOUT_REMINDERS_INTERVAL_MS, sendCheckoutReminders } from './checkout/recovery';
import { backupIsFresh, type Snapshot, writeBackup } from './db/backup';
import type { DatabaseHealth } from './db/health';
import { resolveAttachments } from './invoices/attachments';
import type { AppContext } from './kernel/context';
import { createMailTransport } from './mail/transport';
import { createOutboxWorker, type OutboxLog } from './mail/worker';
import type { Metrics } from './metrics';
import { RECONCILE_INTERVAL_MS, reconcileOnce } from './orders/reconciler';
import { RENEWAL_REMINDERS_INTERVAL_MS, sendRenewalReminders } from './orders/renewal-reminders';
import { announceReleases } from './releases/announcements';
import { pruneExpiredRows } from './retention';
import { sendTrialEmails, TRIAL_EMAILS_INTERVAL_MS } from './trials/reminders';
import { createWebhookWorker, WEBHOOK_SHUTDOWN_GRACE_MS } from './webhooks/delivery';

export type BackgroundJob = {
  name: string;
  intervalMs: number;
  /** One run; `stop` aborts when the server shuts down, for a run that can end early (between batches). */
  run(stop?: AbortSignal): Promise<unknown>;
  /** Lets a job ask for an extra run before its next tick; returns the unsubscribe function. */
  subscribe?(runSoon: () => void): () => void;
  /** Ends work a run started and left going (the webhook lanes), within the job's own bound. */
  stop?(): Promise<void>;
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
    dataSecrets: ctx.dataSecrets,
    resolveAttachments: (outboxId) => resolveAttachments(ctx, outboxId),
  });
  return {
    name: 'outbox',
    intervalMs: 2000,
    run: (stop) => worker.drain(stop),
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
    // Each table's rule takes an advisory lock per batch, so several instances never prune the same rows twice.
    { name: 'retention', intervalMs: 60 * 60 * 1000, run: () => pruneExpiredRows(ctx.db, ctx.clock) },
    outboxJob(ctx, log),
    // Emails owners about each newly published stable release, in batches, each owner once.
    { name: 'release-announcements', intervalMs: 60 * 1000, run: () => announceReleases(ctx) },
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
    // Claims its rows with SKIP LOCKED and marks them in the same transaction: one email per trial and occasion.
    { name: 'trial-emails', intervalMs: TRIAL_EMAILS_INTERVAL_MS, run: () => sendTrialEmails(ctx) },
    {
      name: 'renewal-reminders',
      intervalMs: RENEWAL_REMINDERS_INTERVAL_MS,
      run: () => sendRenewalReminders(ctx),
    },
    // Claimed with SKIP LOCKED, counted in the transaction that queues the email, two at most.
    {
      name: 'checkout-reminders',
      intervalMs: CHECKOUT_REMINDERS_INTERVAL_MS,
      run: () => sendCheckoutReminders(ctx),
    },
    webhookJob(ctx),
  ];
}

/**
 * Claims due deliveries with SKIP LOCKED and a lease, as the outbox does: one send per delivery at a time. Each
 * run starts a lane per endpoint and does not wait for it, so a hanging receiver holds up only its own endpoint.
 */
function webhookJob(ctx: AppContext): BackgroundJob {
  const worker = createWebhookWorker(ctx);
  return {
    name: 'webhooks',
    intervalMs: 5000,
    run: () => worker.dispatch(),
    stop: () => worker.stop(WEBHOOK_SHUTDOWN_GRACE_MS),
  };
}

/**
 * The embedded database's daily snapshot into DATA_DIR/backups (7 kept). It looks every hour and writes one when
 * the newest is a day old, so restarts neither skip a day nor pile up copies.
 */
export function pgliteBackupJob(
  snapshot: Snapshot,
  dataDir: string,
  log: { info(obj: object, msg: string): void },
): BackgroundJob {
  return {
    name: 'pglite-backup',
    intervalMs: 60 * 60 * 1000,
    async run() {
      if (await backupIsFresh(dataDir)) return;
      const written = await writeBackup(snapshot, dataDir);
      log.info({ file: written.file, bytes: written.size }, 'embedded database backed up');
    },
  };
}

/** The longest a job that keeps failing waits before its next try. */
export const MAX_JOB_BACKOFF_MS = 5 * 60 * 1000;

/**
 * Runs each job on its interval; `stop()` tells the runs in progress to end early and waits for them. A job whose
 * run fails waits twice as long after each further failure (up to five minutes), so a broken dependency is not
 * hammered; while `health` says the database is unreachable no job runs at all, and they resume on their next tick
 * once it is back.
 */
export function startJobs(
  jobs: BackgroundJob[],
  log: { error(obj: object, msg: string): void },
  health?: Pick<DatabaseHealth, 'available' | 'observe'>,
  metrics?: Pick<Metrics, 'jobRuns'>,
): { stop(): Promise<void> } {
  const running = new Set<Promise<unknown>>();
  const stopping = new AbortController();
  let stopped = false;
  const handles = jobs.map((job) => {
    let busy = false;
    let runAgain = false;
    let failures = 0;
    let notBefore = 0;
    const tick = () => {
      if (stopped || busy || Date.now() < notBefore || (health && !health.available)) return;
      busy = true;
      const run = job
        .run(stopping.signal)
        .then(() => {
          metrics?.jobRuns.inc({ job: job.name, outcome: 'ok' });
          failures = 0;
          notBefore = 0;
        })
        .catch((err: unknown) => {
          metrics?.jobRuns.inc({ job: job.name, outcome: 'failed' });
          // An unreachable database is reported once by the health tracker, which also holds every job back.
          if (health?.observe(err)) return;
          failures += 1;
          notBefore = Date.now() + Math.min(job.intervalMs * 2 ** (failures - 1), MAX_JOB_BACKOFF_MS);
          log.error({ err, job: job.name, failures }, 'background job failed');
        })
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
      stopping.abort();
      for (const { timer, unsubscribe } of handles) {
        clearInterval(timer);
        unsubscribe?.();
      }
      await Promise.allSettled([...running, ...jobs.map((job) => job.stop?.())]);
    },
  };
}
