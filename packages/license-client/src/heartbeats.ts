import type { Credentials, LicenseAnswer, LicenseClient } from './client';
import { LicenseApiError } from './client';

export type HeartbeatOptions = {
  credentials: Credentials;
  fingerprint: string;
  /** The machine's name, should it have to activate again. */
  name?: string;
  /** Time between heartbeats; default the server's `heartbeatSeconds` (10 minutes on a per-device license). */
  everyMs?: number;
  /** First wait after a failed heartbeat (default 5 s), doubled on each failure in a row up to `maxRetryMs`. */
  retryMs?: number;
  /** The longest wait between attempts while the server is down (default: the heartbeat interval). */
  maxRetryMs?: number;
  /** Each answer that holds the seat: store its `licenseFile`, which ends with the lease. */
  onLease?: (answer: LicenseAnswer) => void;
  /**
   * The seat is gone and could not be taken again: LIMIT_REACHED (every seat is held: tell the user no seat is free
   * and offer to try again), REVOKED, SUSPENDED, EXPIRED... Heartbeats have stopped.
   */
  onLost?: (answer: LicenseAnswer) => void;
  /** A heartbeat failed (server down, rate limited); the next try is in `retryInMs`. */
  onError?: (error: Error, retryInMs: number) => void;
};

export type Heartbeats = {
  /**
   * Stops the heartbeats and, unless told not to, frees the seat at once (deactivate: on a floating license this
   * does not use the deactivation allowance). Answers deactivate's answer, or undefined when it did not call it.
   */
  stop(options?: { deactivate?: boolean }): Promise<LicenseAnswer | undefined>;
  /** Whether the last heartbeat held the seat. */
  readonly holding: boolean;
};

const DEFAULT_EVERY_MS = 10 * 60 * 1000;
const DEFAULT_RETRY_MS = 5000;

/**
 * Keeps a floating license's lease while the tool runs: a heartbeat at once and then every interval; a lost lease
 * (the machine slept past it) is taken again by activating when a seat is free; a server that does not answer is
 * retried with a doubling wait, never more often; and `stop()` on shutdown frees the seat for the next machine.
 */
export function startHeartbeats(client: LicenseClient, options: HeartbeatOptions): Heartbeats {
  const { credentials, fingerprint } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let holding = false;
  let failures = 0;
  let intervalMs = options.everyMs ?? DEFAULT_EVERY_MS;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = beat().finally(() => {
        running = undefined;
      });
    }, delayMs);
    // Heartbeats alone do not keep the tool's process alive.
    timer.unref?.();
  };

  const held = (answer: LicenseAnswer) => {
    holding = true;
    failures = 0;
    if (!options.everyMs && answer.heartbeatSeconds) intervalMs = answer.heartbeatSeconds * 1000;
    options.onLease?.(answer);
    schedule(intervalMs);
  };

  const lost = (answer: LicenseAnswer) => {
    holding = false;
    stopped = true;
    options.onLost?.(answer);
  };

  async function beat(): Promise<void> {
    try {
      let answer = await client.heartbeat(credentials, fingerprint);
      if (stopped) return;
      if (answer.code === 'NOT_ACTIVATED') {
        answer = await client.activate(credentials, fingerprint, options.name);
        if (stopped) return;
      }
      if (answer.valid) held(answer);
      else lost(answer);
    } catch (error) {
      if (stopped) return;
      failures += 1;
      const doubled = (options.retryMs ?? DEFAULT_RETRY_MS) * 2 ** (failures - 1);
      const retryAfter = error instanceof LicenseApiError ? (error.retryAfterSeconds ?? 0) * 1000 : 0;
      const retryInMs = Math.max(retryAfter, Math.min(doubled, options.maxRetryMs ?? intervalMs));
      options.onError?.(error as Error, retryInMs);
      schedule(retryInMs);
    }
  }

  schedule(0);
  return {
    get holding() {
      return holding;
    },
    async stop({ deactivate = true } = {}) {
      const wasStopped = stopped;
      stopped = true;
      clearTimeout(timer);
      await running;
      if (!deactivate || (wasStopped && !holding)) return undefined;
      holding = false;
      return client.deactivate(credentials, fingerprint);
    },
  };
}
