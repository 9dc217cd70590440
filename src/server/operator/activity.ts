import { and, asc, count, desc, gte, ilike, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { ActivityEntry, activityQuerySchema, Page } from '../../shared/dashboard';
import type { AppContext } from '../context';
import { auditLog } from '../db/schema';

const SORT_COLUMNS = { createdAt: auditLog.createdAt, actor: auditLog.actor, action: auditLog.action };

/**
 * The audit log as the dashboard's Activity and the command line's `activity` show it: newest first by default,
 * filtered by a word in who, what or the target, and by a start time. Read-only.
 */
export async function listActivity(
  ctx: AppContext,
  query: z.output<typeof activityQuerySchema> & { since?: Date },
): Promise<Page<ActivityEntry>> {
  const pattern = query.q ? `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const where = and(
    pattern
      ? or(ilike(auditLog.actor, pattern), ilike(auditLog.action, pattern), ilike(auditLog.target, pattern))
      : undefined,
    query.since ? gte(auditLog.createdAt, query.since) : undefined,
  );
  const order = query.dir === 'asc' ? asc : desc;
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(order(SORT_COLUMNS[query.sort]), order(auditLog.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    ctx.db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return {
    items: rows.map((row) => ({
      id: row.id,
      actor: row.actor,
      action: row.action,
      target: row.target,
      before: row.before,
      after: row.after,
      createdAt: row.createdAt.toISOString(),
    })),
    total: Number(total?.n ?? 0),
    page: query.page,
    pageSize: query.pageSize,
  };
}
