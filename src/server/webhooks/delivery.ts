import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { and, eq, inArray, isNull, lte, notInArray, or, sql } from 'drizzle-orm';
import { SITE } from '../../shared/site';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../db/schema/webhooks';
import type { AppContext } from '../kernel/context';
import { renderEmail } from '../mail/layout';
import { enqueueMail } from '../mail/outbox';
import { checkedAddress, type Resolve, type ResolvedAddress } from './addresses';
import { openEndpointSecret } from './secrets';
import { signatureHeaders } from './signing';

/**
 * The webhook worker (decision 046): claims due deliveries with FOR UPDATE SKIP LOCKED and leases them by moving
 * next_attempt_at ahead in the claiming transaction, as the mail outbox does, so several instances never send one
 * delivery at once. Each attempt resolves the host again, refuses internal addresses, connects to the address it
 * checked, follows no redirect and gives up 10 seconds after it began (name, connection and answer together); a 2xx
 * answer delivers. Each endpoint is sent to in its own lane, so a receiver that hangs holds up only its own
 * deliveries (issue 63); shutdown waits a bounded time for the lanes, then stops them and leaves what they held
 * queued, its interrupted attempt not counted.
 */

/** Wait after the n-th failed attempt; about 70 hours in all, then the delivery has failed. */
export const WEBHOOK_RETRY_DELAYS_MS = [1, 5, 15, 60, 180, 360, 720, 1440, 1440].map(
  (minutes) => minutes * 60_000,
);
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;
/** An endpoint whose attempts have all failed for this long is disabled and the operator told. */
export const ENDPOINT_FAILING_LIMIT_MS = 3 * 24 * 60 * 60 * 1000;
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How long shutdown waits for sends under way before it stops them (docs/webhooks.md states the bound). */
export const WEBHOOK_SHUTDOWN_GRACE_MS = 5_000;
const CLAIM_LEASE_MS = 5 * 60 * 1000;
/** The most deliveries one claim takes for one endpoint; a lane claims its endpoint's next ones when done. */
const BATCH_SIZE = 10;
/** The most deliveries one claim takes in all. */
const CLAIM_LIMIT = 100;
const EXCERPT_LENGTH = 500;
const USER_AGENT = 'PinkcityWebhooks/1';

type Answer = { status: number; excerpt: string };

/** One POST to the checked address; the Host header and TLS name stay the URL's. */
function post(
  url: URL,
  address: ResolvedAddress,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<Answer> {
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': USER_AGENT },
        lookup,
        signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let length = 0;
        response.on('data', (chunk: Buffer) => {
          if (length < EXCERPT_LENGTH * 4) {
            chunks.push(chunk);
            length += chunk.length;
          } else response.destroy();
        });
        const finish = () =>
          resolve({
            status: response.statusCode ?? 0,
            excerpt: Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_LENGTH),
          });
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** `promise`, or the signal's reason once it aborts first (a name lookup cannot be cancelled, only left). */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const describeFailure = (error: unknown, timeoutMs: number): string => {
  if (
    error instanceof Error &&
    (error.name === 'TimeoutError' || (error.cause as Error | undefined)?.name === 'TimeoutError')
  )
    return `no answer within ${timeoutMs / 1000} s`;
  if (!(error instanceof Error)) return String(error).slice(0, EXCERPT_LENGTH);
  const code = (error as { code?: unknown }).code;
  return (typeof code === 'string' ? `${code}: ${error.message}` : error.message).slice(0, EXCERPT_LENGTH);
};

export type WebhookRunResult = { claimed: number; delivered: number; retried: number; failed: number };

export type WebhookWorker = {
  /** Claims what is due, sends it (each endpoint in its own lane) and resolves when every lane is done. */
  runOnce(): Promise<WebhookRunResult>;
  /** Runs batches until nothing due is left. */
  drain(): Promise<WebhookRunResult>;
  /**
   * The background job's run: starts a lane for each endpoint with deliveries due that has none running, and
   * resolves without waiting for them; a lane goes on claiming its endpoint's next deliveries until none are due.
   */
  dispatch(): Promise<void>;
  /** Shutdown: no new lanes; waits up to `graceMs` for those running, then stops them, leaving their deliveries due. */
  stop(graceMs: number): Promise<void>;
};

type Delivery = typeof webhookDeliveries.$inferSelect;
type Outcome = {
  ok: boolean;
  status: number | null;
  error: string | null;
  excerpt: string | null;
  durationMs: number;
};

export function createWebhookWorker(
  ctx: AppContext,
  /** `timeoutMs` shorter than 10 s only in tests. */
  options: { batchSize?: number; resolve?: Resolve; timeoutMs?: number } = {},
): WebhookWorker {
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  /** The endpoints this worker is sending to now, and each lane's end. */
  const lanes = new Map<string, Promise<void>>();
  const shutdown = new AbortController();
  let stopping = false;
  let claiming: Promise<Delivery[]> | undefined;

  /** Due deliveries, at most `batchSize` per endpoint: of one endpoint, or of every endpoint without a lane here. */
  const claim = async (scope: { endpointId: string } | { busy: string[] }) => {
    const now = ctx.clock.now();
    return ctx.db.transaction(async (tx) => {
      const ranked = tx
        .select({
          id: webhookDeliveries.id,
          rank: sql<number>`row_number() over (partition by ${webhookDeliveries.endpointId} order by ${webhookDeliveries.id})`.as(
            'rank',
          ),
        })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(
          and(
            eq(webhookDeliveries.status, 'pending'),
            eq(webhookEndpoints.enabled, true),
            or(eq(webhookDeliveries.attempts, 0), lte(webhookDeliveries.nextAttemptAt, now)),
            'endpointId' in scope
              ? eq(webhookDeliveries.endpointId, scope.endpointId)
              : scope.busy.length > 0
                ? notInArray(webhookDeliveries.endpointId, scope.busy)
                : undefined,
          ),
        )
        .as('ranked');
      const due = await tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(
          inArray(
            webhookDeliveries.id,
            tx.select({ id: ranked.id }).from(ranked).where(lte(ranked.rank, batchSize)),
          ),
        )
        .orderBy(webhookDeliveries.id)
        .limit(CLAIM_LIMIT)
        .for('update', { of: webhookDeliveries, skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(webhookDeliveries)
        .set({
          attempts: sql`${webhookDeliveries.attempts} + 1`,
          nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS),
        })
        .where(
          inArray(
            webhookDeliveries.id,
            due.map((row) => row.id),
          ),
        )
        .returning();
    });
  };

  /** Sends one claimed delivery once, within one deadline for the name, the connection and the answer. */
  const attempt = async (delivery: Delivery): Promise<Outcome> => {
    const [endpoint] = await ctx.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, delivery.endpointId));
    if (!endpoint)
      return { ok: false, status: null, error: 'endpoint removed', excerpt: null, durationMs: 0 };
    const started = Date.now();
    const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), shutdown.signal]);
    try {
      const address = await unlessAborted(
        checkedAddress(endpoint.url, ctx.config.webhooks, options.resolve),
        signal,
      );
      const body = JSON.stringify(delivery.payload);
      const headers = signatureHeaders(openEndpointSecret(ctx, endpoint.secret), {
        id: delivery.messageId,
        // The receiver checks this against its own clock (replay protection): the real time of the send.
        timestamp: new Date(),
        body,
      });
      const answer = await post(new URL(endpoint.url), address, headers, body, signal);
      const ok = answer.status >= 200 && answer.status < 300;
      return {
        ok,
        status: answer.status,
        error: ok ? null : answer.status >= 300 && answer.status < 400 ? 'redirect not followed' : null,
        excerpt: answer.excerpt,
        durationMs: Date.now() - started,
      };
    } catch (error) {
      return {
        ok: false,
        status: null,
        error: describeFailure(error, timeoutMs),
        excerpt: null,
        durationMs: Date.now() - started,
      };
    }
  };

  const recordFailure = async (delivery: Delivery, now: Date) => {
    const final = delivery.attempts >= WEBHOOK_MAX_ATTEMPTS;
    const delay = WEBHOOK_RETRY_DELAYS_MS[delivery.attempts - 1] ?? 60_000;
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(webhookDeliveries)
        .set(final ? { status: 'failed' } : { nextAttemptAt: new Date(now.getTime() + delay) })
        .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'pending')));
      const [endpoint] = await tx
        .update(webhookEndpoints)
        .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now})` })
        .where(eq(webhookEndpoints.id, delivery.endpointId))
        .returning();
      if (
        endpoint?.enabled &&
        endpoint.failingSince &&
        now.getTime() - endpoint.failingSince.getTime() >= ENDPOINT_FAILING_LIMIT_MS
      ) {
        await disableFailingEndpoint(ctx, tx, endpoint, now);
      }
    });
    return final;
  };

  const record = async (delivery: Delivery, outcome: Outcome, result: WebhookRunResult) => {
    const now = ctx.clock.now();
    await ctx.db.insert(webhookAttempts).values({
      deliveryId: delivery.id,
      attempt: delivery.attempts,
      status: outcome.status,
      error: outcome.error,
      excerpt: outcome.excerpt,
      durationMs: outcome.durationMs,
      at: now,
    });
    if (outcome.ok) {
      await ctx.db
        .update(webhookDeliveries)
        .set({ status: 'delivered', deliveredAt: now })
        .where(eq(webhookDeliveries.id, delivery.id));
      await ctx.db
        .update(webhookEndpoints)
        .set({ failingSince: null })
        .where(
          and(
            eq(webhookEndpoints.id, delivery.endpointId),
            sql`${webhookEndpoints.failingSince} is not null`,
          ),
        );
      result.delivered += 1;
    } else if (await recordFailure(delivery, now)) result.failed += 1;
    else result.retried += 1;
  };

  /** Gives claimed deliveries back untried: due at once, their claim not counted as an attempt. */
  const release = async (deliveries: Delivery[]) => {
    if (deliveries.length === 0) return;
    await ctx.db
      .update(webhookDeliveries)
      .set({ attempts: sql`${webhookDeliveries.attempts} - 1`, nextAttemptAt: ctx.clock.now() })
      .where(
        and(
          inArray(
            webhookDeliveries.id,
            deliveries.map((delivery) => delivery.id),
          ),
          eq(webhookDeliveries.status, 'pending'),
        ),
      );
  };

  /** One endpoint's deliveries, one after the other; `more` claims its next ones when these are done. */
  const sendInTurn = async (
    claimed: Delivery[],
    result: WebhookRunResult,
    more?: () => Promise<Delivery[]>,
  ) => {
    for (let batch = claimed; batch.length > 0; batch = (!stopping && (await more?.())) || []) {
      for (const [index, delivery] of batch.entries()) {
        if (stopping) return release(batch.slice(index));
        const outcome = await attempt(delivery);
        // Stopped by shutdown, not by the receiver: the delivery waits for the next start.
        if (shutdown.signal.aborted && !outcome.ok) return release(batch.slice(index));
        await record(delivery, outcome, result);
      }
    }
  };

  /** Starts a lane for each endpoint of `claimed`; returns their ends. */
  const startLanes = (claimed: Delivery[], result: WebhookRunResult, goOn: boolean): Promise<void>[] => {
    const byEndpoint = new Map<string, Delivery[]>();
    for (const delivery of claimed)
      byEndpoint.set(delivery.endpointId, [...(byEndpoint.get(delivery.endpointId) ?? []), delivery]);
    return [...byEndpoint].map(([endpointId, deliveries]) => {
      const more = goOn ? async () => (await claim({ endpointId })) as Delivery[] : undefined;
      const lane = sendInTurn(deliveries, result, more).finally(() => lanes.delete(endpointId));
      lanes.set(endpointId, lane);
      return lane;
    });
  };

  const emptyResult = (): WebhookRunResult => ({ claimed: 0, delivered: 0, retried: 0, failed: 0 });

  const runOnce = async (): Promise<WebhookRunResult> => {
    const claimed = await claim({ busy: [...lanes.keys()] });
    const result = { ...emptyResult(), claimed: claimed.length };
    await Promise.all(startLanes(claimed, result, false));
    return result;
  };

  return {
    runOnce,
    async drain() {
      const total = emptyResult();
      for (;;) {
        const run = await runOnce();
        total.claimed += run.claimed;
        total.delivered += run.delivered;
        total.retried += run.retried;
        total.failed += run.failed;
        if (run.claimed === 0) return total;
      }
    },
    async dispatch() {
      if (stopping) return;
      claiming = claim({ busy: [...lanes.keys()] });
      const claimed = await claiming.finally(() => {
        claiming = undefined;
      });
      if (stopping) return release(claimed);
      // A lane's failure (the database gone) leaves its deliveries leased; they are claimed again after the lease.
      for (const lane of startLanes(claimed, emptyResult(), true)) lane.catch(() => {});
    },
    async stop(graceMs) {
      stopping = true;
      // A claim under way gives its deliveries back when it returns.
      await claiming?.catch(() => {});
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([Promise.allSettled([...lanes.values()]), grace]);
      clearTimeout(timer);
      shutdown.abort();
      await Promise.allSettled([...lanes.values()]);
    },
  };
}

/** Three days of failures: the endpoint stops receiving (its deliveries wait) and the firm is emailed once. */
async function disableFailingEndpoint(
  ctx: AppContext,
  tx: Parameters<Parameters<AppContext['db']['transaction']>[0]>[0],
  endpoint: typeof webhookEndpoints.$inferSelect,
  now: Date,
): Promise<void> {
  const reason = 'Every attempt failed for 3 days';
  const [disabled] = await tx
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, updatedAt: now })
    .where(
      and(
        eq(webhookEndpoints.id, endpoint.id),
        eq(webhookEndpoints.enabled, true),
        isNull(webhookEndpoints.disabledReason),
      ),
    )
    .returning({ id: webhookEndpoints.id });
  if (!disabled) return;
  const email = renderEmail({
    subject: `Webhook endpoint disabled: ${endpoint.url}`,
    heading: 'A webhook endpoint was disabled',
    blocks: [
      {
        kind: 'paragraph',
        text: `Every delivery to ${endpoint.url} has failed since ${endpoint.failingSince?.toISOString() ?? 'three days ago'}, so the shop stopped sending to it. Its deliveries are kept; once the receiver works again, enable the endpoint in the dashboard (Webhooks) or with "npm run admin -- webhooks enable ${endpoint.id}" and they are sent.`,
      },
    ],
  });
  await enqueueMail(
    ctx,
    tx,
    {
      to: ctx.config.mailToFirm ?? SITE.email,
      ...email,
      kind: 'webhook-endpoint-disabled',
      ref: `webhook:${endpoint.id}`,
    },
    now,
  );
}
