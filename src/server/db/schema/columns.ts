import { timestamp } from 'drizzle-orm/pg-core';

/** Column helpers every owner's tables share. */
export const createdAt = () =>
  timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const updatedAt = () => ts('updated_at').notNull().defaultNow();
