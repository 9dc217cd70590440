import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { tools } from './catalogue';
import { createdAt, ref, ts } from './columns';
import { purchases } from './orders';
import { releaseArtifacts } from './releases';
import { trials } from './trials';

export const downloadTokens = pgTable(
  'download_tokens',
  {
    /** SHA-256 of the 256-bit token in the emailed link. */
    tokenHash: text('token_hash').primaryKey(),
    /** The purchase the link downloads for, or (a free trial's link) the trial. */
    purchaseId: uuid('purchase_id').references(() => purchases.id, { onDelete: 'cascade' }),
    trialId: uuid('trial_id').references(() => trials.id, { onDelete: 'cascade' }),
    userId: ref('user_id', () => users.id),
    toolId: ref('tool_id', () => tools.id),
    /** A release's installer chosen on My Tools; null: the tool's own download (emailed links). */
    artifactId: uuid('artifact_id').references(() => releaseArtifacts.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('download_tokens_purchase_id_idx').on(t.purchaseId),
    check('download_tokens_purchase_or_trial', sql`${t.purchaseId} is not null or ${t.trialId} is not null`),
  ],
);
