import type { z } from 'zod';
import type { MailStatus, MessageRow, messagesQuerySchema, Page } from '../../shared/dashboard';
import { countMessages, listMessages } from '../contact/messages';
import type { AppContext } from '../kernel/context';
import { outboxStatus } from '../mail/operator';

/** Contact messages and the mail outbox in the dashboard's shapes: the read models are contact's and mail's. */

/** A page of contact messages: unhandled messages first, oldest first (a queue to work through), then handled ones. */
export async function messagesPage(
  ctx: AppContext,
  query: z.output<typeof messagesQuerySchema>,
): Promise<Page<MessageRow>> {
  const filter = { unhandled: query.show === 'unhandled' };
  const [rows, total] = await Promise.all([
    listMessages(ctx, {
      ...filter,
      order: 'queue',
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    }),
    countMessages(ctx, filter),
  ]);
  return {
    items: rows.map((row) => ({
      id: row.id,
      name: row.name,
      organisation: row.organisation,
      email: row.email,
      relatedTo: row.relatedTo,
      description: row.description,
      createdAt: row.createdAt.toISOString(),
      handledAt: row.handledAt?.toISOString() ?? null,
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

const PROBLEMS_SHOWN = 100;

/** Outbox counts, and the failed and retrying mail, newest first, with the reason of the last failure. */
export async function mailStatus(ctx: AppContext): Promise<MailStatus> {
  const { counts, failed, retrying } = await outboxStatus(ctx, PROBLEMS_SHOWN);
  const problems = [...failed, ...retrying].sort((a, b) => b.id - a.id).slice(0, PROBLEMS_SHOWN);
  return {
    counts: { ...counts, pending: counts.pending - counts.retrying },
    problems: problems.map((mail) => ({
      id: mail.id,
      to: mail.to,
      subject: mail.subject,
      kind: mail.kind,
      status: mail.status === 'failed' ? 'failed' : 'pending',
      attempts: mail.attempts,
      lastError: mail.lastError,
      nextAttemptAt: mail.nextAttemptAt.toISOString(),
      createdAt: mail.createdAt.toISOString(),
    })),
  };
}
