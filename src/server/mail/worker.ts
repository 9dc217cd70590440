import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../db';
import { outbox } from '../db/schema/mail';
import type { Clock } from '../kernel/clock';
import type { DataSecrets } from '../kernel/data-secrets';
import { openMailBody } from './outbox';
import type { MailAttachment, MailTransport } from './transport';

/**
 * Wait after the n-th failed attempt (n = 1..7); the 8th failure is final. Together about 22 hours, so an SMTP
 * outage of up to a day loses nothing, while a message that can never be delivered stops being retried.
 */
export const RETRY_DELAYS_MS = [1, 5, 15, 60, 180, 360, 720].map((minutes) => minutes * 60 * 1000);
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/**
 * How long a claimed message is left alone. A worker that dies mid-send leaves its claim behind; once the lease
 * runs out another run picks the message up again. It must outlast a whole batch of sends at the SMTP timeouts.
 */
export const CLAIM_LEASE_MS = 15 * 60 * 1000;
const BATCH_SIZE = 10;
const MAX_ERROR_LENGTH = 2000;

export type OutboxLog = {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

/**
 * The files of one outbox email, rendered when it is sent. Given by the caller (the invoices' resolver in a
 * running server), so mail knows nothing of the documents it carries. Throws to have the email retried.
 */
export type AttachmentResolver = (outboxId: number) => Promise<MailAttachment[]>;

export type OutboxRunResult = {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
  /** Claimed, then handed back unsent because the worker was told to stop. */
  released: number;
};

export type OutboxWorker = {
  /**
   * Claims one batch of due messages and tries each once. Once `stop` aborts (the server is shutting down), the
   * send in progress ends and the rest of the batch is handed back, due at once for any worker: a shutdown waits
   * for one email, never for a batch of them (each purchase email renders its invoice), and leaves none leased.
   */
  runOnce(stop?: AbortSignal): Promise<OutboxRunResult>;
  /** Runs batches until nothing due is left (failed sends are rescheduled, so this ends) or `stop` aborts. */
  drain(stop?: AbortSignal): Promise<OutboxRunResult>;
};

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, MAX_ERROR_LENGTH);
  const code = (error as { code?: unknown }).code;
  const text = typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  return text.slice(0, MAX_ERROR_LENGTH);
}

/**
 * Delivers the outbox. Safe to run in several processes at once: due rows are claimed with
 * FOR UPDATE SKIP LOCKED and leased by moving next_attempt_at forward in the same transaction, so no two
 * workers hold the same message and a crash mid-send only delays it until the lease ends.
 */
export function createOutboxWorker(options: {
  db: Database;
  clock: Clock;
  transport: MailTransport;
  log: OutboxLog;
  dataSecrets: DataSecrets;
  resolveAttachments: AttachmentResolver;
  batchSize?: number;
}): OutboxWorker {
  const { db, clock, transport, log, dataSecrets, resolveAttachments } = options;
  const batchSize = options.batchSize ?? BATCH_SIZE;

  const claim = async () => {
    const now = clock.now();
    return db.transaction(async (tx) => {
      // Never-attempted messages are due whatever the clock says: they were due the moment they committed.
      const due = await tx
        .select({ id: outbox.id })
        .from(outbox)
        .where(and(eq(outbox.status, 'pending'), or(eq(outbox.attempts, 0), lte(outbox.nextAttemptAt, now))))
        .orderBy(outbox.id)
        .limit(batchSize)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(outbox)
        .set({
          attempts: sql`${outbox.attempts} + 1`,
          nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS),
        })
        .where(
          inArray(
            outbox.id,
            due.map((row) => row.id),
          ),
        )
        .returning();
    });
  };

  /** Undoes the claim of messages not sent: the attempt is not counted, and they are due now. */
  const release = async (ids: number[]) => {
    await db
      .update(outbox)
      .set({ attempts: sql`${outbox.attempts} - 1`, nextAttemptAt: clock.now() })
      .where(and(inArray(outbox.id, ids), eq(outbox.status, 'pending')));
  };

  const runOnce = async (stop?: AbortSignal): Promise<OutboxRunResult> => {
    const claimed = await claim();
    const result: OutboxRunResult = { claimed: claimed.length, sent: 0, retried: 0, failed: 0, released: 0 };
    for (const [index, message] of claimed.entries()) {
      if (stop?.aborted) {
        const unsent = claimed.slice(index).map((row) => row.id);
        await release(unsent);
        result.released = unsent.length;
        break;
      }
      try {
        // Bodies are opened only here, for the send; attachments are rendered now from the stored document, so the
        // email carries what a download gives.
        await transport.send({
          ...message,
          ...openMailBody(dataSecrets, message),
          attachments: await resolveAttachments(message.id),
        });
      } catch (error) {
        const lastError = describeError(error);
        const context = { outboxId: message.id, kind: message.kind, attempts: message.attempts, lastError };
        if (message.attempts >= MAX_ATTEMPTS) {
          await db
            .update(outbox)
            .set({ status: 'failed', lastError })
            .where(and(eq(outbox.id, message.id), eq(outbox.status, 'pending')));
          log.error(context, 'email could not be delivered; giving up');
          result.failed += 1;
        } else {
          const delay = RETRY_DELAYS_MS[message.attempts - 1] ?? RETRY_DELAYS_MS[0] ?? 60_000;
          const nextAttemptAt = new Date(clock.now().getTime() + delay);
          await db
            .update(outbox)
            .set({ nextAttemptAt, lastError })
            .where(and(eq(outbox.id, message.id), eq(outbox.status, 'pending')));
          log.warn({ ...context, nextAttemptAt }, 'email delivery failed; will retry');
          result.retried += 1;
        }
        continue;
      }
      if (message.deleteWhenSent) await db.delete(outbox).where(eq(outbox.id, message.id));
      else
        await db
          .update(outbox)
          .set({ status: 'sent', sentAt: clock.now(), lastError: null })
          .where(and(eq(outbox.id, message.id), eq(outbox.status, 'pending')));
      result.sent += 1;
    }
    return result;
  };

  return {
    runOnce,
    async drain(stop) {
      const total: OutboxRunResult = { claimed: 0, sent: 0, retried: 0, failed: 0, released: 0 };
      for (;;) {
        const run = await runOnce(stop);
        total.claimed += run.claimed;
        total.sent += run.sent;
        total.retried += run.retried;
        total.failed += run.failed;
        total.released += run.released;
        if (run.claimed < batchSize || stop?.aborted) return total;
      }
    },
  };
}
