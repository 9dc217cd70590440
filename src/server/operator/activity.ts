import { and, gte, ilike, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { ActivityEntry, activityQuerySchema, CursorPage } from '../../shared/dashboard';
import { countedKeysetPage, MATCHING_ROW } from '../db/keyset';
import { auditLog } from '../db/schema/operator';
import type { AppContext } from '../kernel/context';

const SORT_COLUMNS = { createdAt: auditLog.createdAt, actor: auditLog.actor, action: auditLog.action };

/**
 * The audit log as the dashboard's Activity and the command line's `activity` show it: newest first by default,
 * filtered by a word in who, what or the target, and by a start time, paged by keyset on (sort, id). Read-only.
 */
export async function listActivity(
  ctx: AppContext,
  query: z.output<typeof activityQuerySchema> & { since?: Date },
): Promise<CursorPage<ActivityEntry>> {
  const pattern = query.q ? `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const where = and(
    pattern
      ? or(ilike(auditLog.actor, pattern), ilike(auditLog.action, pattern), ilike(auditLog.target, pattern))
      : undefined,
    query.since ? gte(auditLog.createdAt, query.since) : undefined,
  );
  const page = await countedKeysetPage(
    ctx.db,
    { ...query, table: auditLog, sort: SORT_COLUMNS[query.sort], id: auditLog.id, idType: 'bigint' },
    where,
    ctx.db.select().from(auditLog).$dynamic(),
    ctx.db.select(MATCHING_ROW).from(auditLog).$dynamic(),
  );
  return {
    items: page.rows.map((row) => ({
      id: row.id,
      actor: row.actor,
      action: row.action,
      target: row.target,
      before: row.before,
      after: row.after,
      createdAt: row.createdAt.toISOString(),
    })),
    total: page.total,
    totalCapped: page.totalCapped,
    pageSize: query.pageSize,
    next: page.next,
    previous: page.previous,
  };
}
