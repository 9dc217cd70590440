import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { tools } from './catalogue';
import { createdAt, id, ref, ts } from './columns';
import { licenses } from './licenses';

/**
 * Free trials (docs/decisions/035-trials.md): one per account and tool, ever. The trial's license carries its end
 * (`licenses.expires_at`); this row says whose trial of which tool it is and what became of it.
 */
export const trials = pgTable(
  'trials',
  {
    id: id(),
    userId: ref('user_id', () => users.id),
    toolId: ref('tool_id', () => tools.id),
    licenseId: ref('license_id', () => licenses.id),
    startedAt: ts('started_at').notNull(),
    /** When the tool was bought: the same license became the paid one. */
    convertedAt: ts('converted_at'),
    /** When the operator ended it early. */
    endedAt: ts('ended_at'),
    endedBy: text('ended_by'),
    /** The reminder three days before the end, and the notice at the end: each sent once. */
    reminderSentAt: ts('reminder_sent_at'),
    endNoticeSentAt: ts('end_notice_sent_at'),
  },
  (t) => [
    uniqueIndex('trials_user_tool_key').on(t.userId, t.toolId),
    uniqueIndex('trials_license_id_key').on(t.licenseId),
    index('trials_tool_id_idx').on(t.toolId),
    // The trials the reminder job still has an email for: it reads these, not every trial ever started.
    index('trials_open_idx')
      .on(t.licenseId)
      .where(sql`${t.convertedAt} is null and ${t.endNoticeSentAt} is null`),
  ],
);

export const trialMachines = pgTable(
  'trial_machines',
  {
    toolId: ref('tool_id', () => tools.id),
    fingerprintHash: text('fingerprint_hash').notNull(),
    trialId: ref('trial_id', () => trials.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.toolId, t.fingerprintHash] })],
);
