import { bigserial, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { sessions, users } from './accounts';
import { createdAt, id, ref, ts } from './columns';

/**
 * Accounts with the operator role (granted only from the command line) and their second factor. The TOTP secret
 * is stored encrypted with a key derived from SESSION_SECRET; `totpLastStep` is the newest time step accepted, so
 * a code cannot be used twice.
 */
export const operators = pgTable('operators', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  grantedAt: createdAt(),
  totpSecret: text('totp_secret'),
  totpEnrolledAt: ts('totp_enrolled_at'),
  totpLastStep: integer('totp_last_step'),
});

/** Single-use recovery codes for the second factor, stored hashed. */
export const operatorRecoveryCodes = pgTable(
  'operator_recovery_codes',
  {
    id: id(),
    userId: ref('user_id', () => operators.userId, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('operator_recovery_codes_user_id_idx').on(t.userId)],
);

/**
 * A dashboard session: the second factor passed on top of one site session, ending with it, after 30 minutes
 * idle or 12 hours.
 */
export const adminSessions = pgTable('admin_sessions', {
  sessionIdHash: text('session_id_hash')
    .primaryKey()
    .references(() => sessions.idHash, { onDelete: 'cascade' }),
  userId: ref('user_id', () => operators.userId, { onDelete: 'cascade' }),
  verifiedAt: ts('verified_at').notNull(),
  lastSeenAt: ts('last_seen_at').notNull(),
});

/** Every operator action (dashboard or command line), written in the same transaction as the change. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The operator's user id; null for the command line, which runs with the server's own rights. */
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** Who, as shown: the operator's email at the time, or "command line". */
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    /** What was acted on, e.g. "tool:<uuid>", "order:<uuid>", "user:<email>". */
    target: text('target'),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_at_idx').on(t.createdAt),
    // Keyset pages of Activity.
    index('audit_log_created_at_id_idx').on(t.createdAt, t.id),
  ],
);
