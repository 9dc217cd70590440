import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns';

/** Fixed-window counters shared by every app instance (rate limits, send quotas). */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').notNull(),
    windowStart: ts('window_start').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);
