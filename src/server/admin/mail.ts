import { and, count, desc, eq, gt, isNotNull, type SQL } from 'drizzle-orm';
import { outbox } from '../db/schema';
import { MAX_ATTEMPTS } from '../mail/worker';
import { details, formatTime, sections, table } from './format';
import { argument, CommandError, defineCommand } from './framework';

type OutboxRow = typeof outbox.$inferSelect;

const SHOWN = 20;

/** An outbox row without its bodies: what the operator needs to judge a delivery. */
const mailJson = (row: Omit<OutboxRow, 'html' | 'text'>) => ({
  id: row.id,
  to: row.to,
  subject: row.subject,
  kind: row.kind,
  ref: row.ref,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.nextAttemptAt,
  lastError: row.lastError,
  createdAt: row.createdAt,
  sentAt: row.sentAt,
});

const summaryColumns = {
  id: outbox.id,
  to: outbox.to,
  subject: outbox.subject,
  kind: outbox.kind,
  ref: outbox.ref,
  status: outbox.status,
  attempts: outbox.attempts,
  nextAttemptAt: outbox.nextAttemptAt,
  lastError: outbox.lastError,
  createdAt: outbox.createdAt,
  sentAt: outbox.sentAt,
};

function parseMailId(typed: string): number {
  const text = typed.trim().replace(/^#/, '');
  if (!/^\d{1,15}$/.test(text)) throw new CommandError(`"${typed}" is not a mail id; see "mail status".`);
  return Number(text);
}

const status = defineCommand({
  path: ['mail', 'status'],
  summary: 'Outbox counts by state, and the messages that failed or are being retried, with the reason',
  example: 'mail status',
  async run(env) {
    const ctx = await env.open();
    const now = ctx.clock.now();
    const byStatus = await ctx.db
      .select({ status: outbox.status, n: count() })
      .from(outbox)
      .groupBy(outbox.status);
    const counts = { pending: 0, sent: 0, failed: 0 };
    for (const row of byStatus) counts[row.status] = row.n;

    const recent = (where: SQL | undefined) =>
      ctx.db.select(summaryColumns).from(outbox).where(where).orderBy(desc(outbox.id)).limit(SHOWN);
    const failed = await recent(eq(outbox.status, 'failed'));
    // Pending after a failed attempt: the worker tries again at next_attempt_at.
    const retrying = await recent(
      and(eq(outbox.status, 'pending'), isNotNull(outbox.lastError), gt(outbox.attempts, 0)),
    );
    const [waiting] = await ctx.db
      .select({ n: count() })
      .from(outbox)
      .where(and(eq(outbox.status, 'pending'), gt(outbox.nextAttemptAt, now), gt(outbox.attempts, 0)));

    const rows = (list: typeof failed) =>
      list.map((row) => [
        row.id,
        formatTime(row.createdAt),
        row.to,
        row.kind,
        `${row.attempts}/${MAX_ATTEMPTS}`,
        row.status === 'pending' ? formatTime(row.nextAttemptAt) : '—',
        row.lastError,
      ]);
    const headers = ['ID', 'QUEUED', 'TO', 'KIND', 'TRIES', 'NEXT TRY', 'LAST ERROR'];
    const more = (shown: number, total: number) =>
      total > shown ? `\n(${total - shown} older not shown)` : '';
    return {
      data: {
        counts,
        waitingForRetry: waiting?.n ?? 0,
        failed: failed.map(mailJson),
        retrying: retrying.map(mailJson),
      },
      text: sections([
        [
          null,
          details([
            ['Pending', `${counts.pending}${waiting?.n ? ` (${waiting.n} waiting to be retried)` : ''}`],
            ['Sent', counts.sent],
            ['Failed', counts.failed],
          ]),
        ],
        [
          'Failed (given up after every retry; "mail retry <id>" queues one again):',
          table(headers, rows(failed), 'None.') + more(failed.length, counts.failed),
        ],
        ['Being retried:', table(headers, rows(retrying), 'None.')],
      ]),
    };
  },
});

const retry = defineCommand({
  path: ['mail', 'retry'],
  summary: 'Queue a failed message again, with a fresh set of retries',
  args: [{ name: 'id', description: 'the message number, as "mail status" shows it' }],
  example: 'mail retry 42',
  details: 'The running server’s mail worker sends it within seconds (or when the server next starts).',
  async run(env, input) {
    const id = parseMailId(argument(input, 0));
    const ctx = await env.open();
    const [row] = await ctx.db.select(summaryColumns).from(outbox).where(eq(outbox.id, id));
    if (!row) throw new CommandError(`No mail with id ${id}.`);
    if (row.status === 'sent') {
      throw new CommandError(
        `Mail ${id} to ${row.to} was sent on ${formatTime(row.sentAt)}; nothing to retry.`,
      );
    }
    if (row.status === 'pending') {
      throw new CommandError(
        row.attempts === 0
          ? `Mail ${id} to ${row.to} is still queued, waiting for its first try; the server's mail worker sends it.`
          : `Mail ${id} to ${row.to} is still queued and being retried (${row.attempts} of ${MAX_ATTEMPTS} tries, next ${formatTime(row.nextAttemptAt)}); "mail retry" is for failed mail.`,
      );
    }
    const [updated] = await ctx.db
      .update(outbox)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: ctx.clock.now() })
      .where(and(eq(outbox.id, id), eq(outbox.status, 'failed')))
      .returning(summaryColumns);
    if (!updated)
      throw new CommandError(`Mail ${id} changed while retrying; run "mail status" and try again.`);
    return {
      data: mailJson(updated),
      text: `Mail ${id} (${row.kind}) to ${row.to} is queued again. Last error was: ${row.lastError ?? '—'}`,
    };
  },
});

const retryFailed = defineCommand({
  path: ['mail', 'retry-failed'],
  summary: 'Queue every failed message again',
  example: 'mail retry-failed',
  details: 'Fix the cause first (SMTP_URL, the mail server); "mail status" shows each message’s last error.',
  async run(env) {
    const ctx = await env.open();
    const requeued = await ctx.db
      .update(outbox)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: ctx.clock.now() })
      .where(eq(outbox.status, 'failed'))
      .returning({ id: outbox.id });
    const ids = requeued.map((row) => row.id).sort((a, b) => a - b);
    return {
      data: { requeued: ids },
      text:
        ids.length === 0
          ? 'No failed mail to retry.'
          : `Queued ${ids.length} failed message${ids.length === 1 ? '' : 's'} again: ${ids.join(', ')}.`,
    };
  },
});

export const mailCommands = [status, retry, retryFailed];
