import { and, asc, count, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { MailStatus, MessageRow, messagesQuerySchema, Page } from '../../shared/dashboard';
import type { AppContext } from '../context';
import { contactMessages, outbox } from '../db/schema';

/** The read side of the contact inbox and the mail outbox for the dashboard. */

/** Unhandled messages first, oldest first (a queue to work through); then handled ones, newest first. */
export async function listMessages(
  ctx: AppContext,
  query: z.output<typeof messagesQuerySchema>,
): Promise<Page<MessageRow>> {
  const where = query.show === 'unhandled' ? isNull(contactMessages.handledAt) : undefined;
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(contactMessages)
      .where(where)
      .orderBy(
        sql`${contactMessages.handledAt} is not null`,
        sql`case when ${contactMessages.handledAt} is null then ${contactMessages.createdAt} end asc`,
        desc(contactMessages.handledAt),
        asc(contactMessages.id),
      )
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db.select({ n: count() }).from(contactMessages).where(where),
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
    total: Number(total?.n ?? 0),
    page: query.page,
    pageSize: query.pageSize,
  };
}

const PROBLEMS_SHOWN = 100;

/** Outbox counts, and the failed and retrying mail with the reason of the last failure. */
export async function mailStatus(ctx: AppContext): Promise<MailStatus> {
  const retrying = and(eq(outbox.status, 'pending'), gt(outbox.attempts, 0));
  const [byStatus, [retryingCount], problems] = await Promise.all([
    ctx.db.select({ status: outbox.status, n: count() }).from(outbox).groupBy(outbox.status),
    ctx.db.select({ n: count() }).from(outbox).where(retrying),
    ctx.db
      .select()
      .from(outbox)
      .where(or(eq(outbox.status, 'failed'), retrying))
      .orderBy(desc(outbox.id))
      .limit(PROBLEMS_SHOWN),
  ]);
  const countOf = (status: string) => Number(byStatus.find((row) => row.status === status)?.n ?? 0);
  const retryingN = Number(retryingCount?.n ?? 0);
  return {
    counts: {
      pending: countOf('pending') - retryingN,
      retrying: retryingN,
      sent: countOf('sent'),
      failed: countOf('failed'),
    },
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
