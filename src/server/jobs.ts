import type { AppContext } from './context';

export type BackgroundJob = { name: string; intervalMs: number; run(): Promise<unknown> };

/**
 * The periodic work of one app instance. Each job's runs never overlap, and a failing run is logged and retried
 * on the next tick. Every job is safe to run on several instances at once.
 */
export function backgroundJobs(ctx: AppContext): BackgroundJob[] {
  return [{ name: 'rate-limit-prune', intervalMs: 60 * 60 * 1000, run: () => ctx.limiter.prune() }];
}

export function startJobs(
  jobs: BackgroundJob[],
  log: { error(obj: object, msg: string): void },
): { stop(): Promise<void> } {
  const running = new Set<Promise<unknown>>();
  const timers = jobs.map((job) => {
    let busy = false;
    const tick = () => {
      if (busy) return;
      busy = true;
      const run = job
        .run()
        .catch((err: unknown) => log.error({ err, job: job.name }, 'background job failed'))
        .finally(() => {
          busy = false;
          running.delete(run);
        });
      running.add(run);
    };
    setImmediate(tick);
    return setInterval(tick, job.intervalMs);
  });
  return {
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running]);
    },
  };
}
