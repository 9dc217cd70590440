import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
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
 * checked, follows no redirect and gives up after 10 seconds; a 2xx answer delivers.
 */

/** Wait after the n-th failed attempt; about 70 hours in all, then the delivery has failed. */
export const WEBHOOK_RETRY_DELAYS_MS = [1, 5, 15, 60, 180, 360, 720, 1440, 1440].map(
  (minutes) => minutes * 60_000,
);
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;
/** An endpoint whose attempts have all failed for this long is disabled and the operator told. */
export const ENDPOINT_FAILING_LIMIT_MS = 3 * 24 * 60 * 60 * 1000;
export const WEBHOOK_TIMEOUT_MS = 10_000;
const CLAIM_LEASE_MS = 5 * 60 * 1000;
const BATCH_SIZE = 10;
const EXCERPT_LENGTH = 500;
const USER_AGENT = 'PinkcityWebhooks/1';

type Answer = { status: number; excerpt: string };

/** One POST to the checked address; the Host header and TLS name stay the URL's. */
function post(
  url: URL,
  address: ResolvedAddress,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
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
        signal: AbortSignal.timeout(timeoutMs),
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
  runOnce(): Promise<WebhookRunResult>;
  /** Runs batches until nothing due is left. */
  drain(): Promise<WebhookRunResult>;
};

export function createWebhookWorker(
  ctx: AppContext,
  /** `timeoutMs` shorter than 10 s only in tests. */
  options: { batchSize?: number; resolve?: Resolve; timeoutMs?: number } = {},
): WebhookWorker {
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;

  const claim = async () => {
    const now = ctx.clock.now();
    return ctx.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(
          and(
            eq(webhookDeliveries.status, 'pending'),
            eq(webhookEndpoints.enabled, true),
            or(eq(webhookDeliveries.attempts, 0), lte(webhookDeliveries.nextAttemptAt, now)),
          ),
        )
        .orderBy(webhookDeliveries.id)
        .limit(batchSize)
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

  /** Sends one claimed delivery once; what happened, for the attempt log. */
  const attempt = async (delivery: typeof webhookDeliveries.$inferSelect) => {
    const [endpoint] = await ctx.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, delivery.endpointId));
    if (!endpoint)
      return { ok: false, status: null, error: 'endpoint removed', excerpt: null, durationMs: 0 };
    const started = Date.now();
    try {
      const address = await checkedAddress(endpoint.url, ctx.config.webhooks, options.resolve);
      const body = JSON.stringify(delivery.payload);
      const headers = signatureHeaders(openEndpointSecret(ctx, endpoint.secret), {
        id: delivery.messageId,
        // The receiver checks this against its own clock (replay protection): the real time of the send.
        timestamp: new Date(),
        body,
      });
      const answer = await post(new URL(endpoint.url), address, headers, body, timeoutMs);
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

  const recordFailure = async (delivery: typeof webhookDeliveries.$inferSelect, now: Date) => {
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

  const runOnce = async (): Promise<WebhookRunResult> => {
    const claimed = await claim();
    const result: WebhookRunResult = { claimed: claimed.length, delivered: 0, retried: 0, failed: 0 };
    for (const delivery of claimed) {
      const outcome = await attempt(delivery);
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
    }
    return result;
  };

  return {
    runOnce,
    async drain() {
      const total: WebhookRunResult = { claimed: 0, delivered: 0, retried: 0, failed: 0 };
      for (;;) {
        const run = await runOnce();
        total.claimed += run.claimed;
        total.delivered += run.delivered;
        total.retried += run.retried;
        total.failed += run.failed;
        if (run.claimed < batchSize) return total;
      }
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
