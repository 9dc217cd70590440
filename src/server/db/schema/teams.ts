import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, ref, ts } from './columns';
import { licenses } from './licenses';

/**
 * An invitation to take a seat of a team license (decision 051): emailed as a link whose random token is stored
 * only as its hash; pending until accepted, cancelled or 14 days old. A pending one holds a seat.
 */
export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: id(),
    teamLicenseId: ref('team_license_id', () => licenses.id, { onDelete: 'cascade' }),
    /** Normalised (trimmed, lower case). */
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedAt: ts('invited_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    /** The member license the acceptance made. */
    memberLicenseId: uuid('member_license_id').references(() => licenses.id, { onDelete: 'set null' }),
    cancelledAt: ts('cancelled_at'),
  },
  (t) => [
    uniqueIndex('team_invitations_token_hash_key').on(t.tokenHash),
    index('team_invitations_team_license_id_idx').on(t.teamLicenseId),
  ],
);
