import { type AnyPgColumn, timestamp, type UpdateDeleteAction, uuid } from 'drizzle-orm/pg-core';

/** Column helpers every owner's tables share. */
export const createdAt = () =>
  timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const updatedAt = () => ts('updated_at').notNull().defaultNow();
/** A row's own key: a random uuid. */
export const id = () => uuid('id').primaryKey().defaultRandom();
/** A required reference to another table's row, with what deleting that row does (none: refused). */
export const ref = (name: string, target: () => AnyPgColumn, actions?: { onDelete: UpdateDeleteAction }) =>
  uuid(name).notNull().references(target, actions);
