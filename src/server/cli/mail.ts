import { z } from 'zod';
import { type MailSummary, outboxStatus, retryFailedMail, retryMail } from '../mail/operator';
import { MAX_ATTEMPTS } from '../mail/worker';
import { details, formatTime, sections, table } from './format';
import { argument, defineCommand, parseCommandInput } from './framework';

/** An outbox row without its bodies: what the operator needs to judge a delivery. */
const mailJson = (row: MailSummary) => ({
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

/** A message number as "mail status" shows it (a leading # allowed). */
const retryInput = z.object({
  id: z
    .string()
    .transform((typed) => typed.trim().replace(/^#/, ''))
    .pipe(z.string().regex(/^\d{1,15}$/, 'not a mail id; see "mail status".'))
    .transform(Number),
});

const status = defineCommand({
  path: ['mail', 'status'],
  summary: 'Outbox counts by state, and the messages that failed or are being retried, with the reason',
  example: 'mail status',
  async run(env) {
    const ctx = await env.open();
    const { counts, waitingForRetry, failed, retrying } = await outboxStatus(ctx);

    const rows = (list: MailSummary[]) =>
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
        waitingForRetry,
        failed: failed.map(mailJson),
        retrying: retrying.map(mailJson),
      },
      text: sections([
        [
          null,
          details([
            [
              'Pending',
              `${counts.pending}${waitingForRetry ? ` (${waitingForRetry} waiting to be retried)` : ''}`,
            ],
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
    const { id } = parseCommandInput(retryInput, { args: { id: argument(input, 0) } });
    const ctx = await env.open();
    const { before: row, after: updated } = await retryMail(ctx, id, env.actor);
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
    const ids = await retryFailedMail(ctx, env.actor);
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
