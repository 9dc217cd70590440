import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { LICENSE_STATUSES } from '../../../shared/licenses';
import { users } from './accounts';
import { toolEditions } from './catalogue';
import { createdAt, id, ref, ts } from './columns';
import { purchases } from './orders';

export const licenses = pgTable(
  'licenses',
  {
    id: id(),
    /**
     * The account that holds the license (the buyer, the trial's account, later a team member): what erasure and
     * the export find licenses by, whatever made them.
     */
    holderId: ref('holder_id', () => users.id),
    /** Null while the license is a trial (its `trials` row names the tool); set when the trial is bought. */
    purchaseId: uuid('purchase_id').references(() => purchases.id, { onDelete: 'cascade' }),
    /** The license key's keyed hash, what it is looked up by (data-secrets.ts). */
    licenseKeyHash: text('license_key_hash'),
    /** The license key sealed, for My Tools, the delivery email and the operator. */
    licenseKeySealed: text('license_key_sealed'),
    /** A credentials tool's username: an account name, stored as it is. */
    username: text('username'),
    /** The credentials' password: its keyed hash to check it, and sealed for "Get Credentials". */
    passwordHash: text('password_hash'),
    passwordSealed: text('password_sealed'),
    /**
     * Rows written before secrets were kept hashed and sealed held them here in clear; the server converts them at
     * start and nulls these (licenses/secrets-at-rest.ts). Nothing writes them any more.
     */
    plainLicenseKey: text('license_key'),
    plainPassword: text('password'),
    /**
     * active; trial until `expiresAt`; suspended while a payment dispute is open; revoked after a refund or a lost
     * dispute.
     */
    status: text('status', { enum: LICENSE_STATUSES }).notNull().default('active'),
    statusChangedAt: ts('status_changed_at'),
    /** A trial's end, by the server's clock; null for a bought license, which does not end. */
    expiresAt: ts('expires_at'),
    /** Self-service deactivations before this moment no longer count against the monthly allowance. */
    selfDeactivationsResetAt: ts('self_deactivations_reset_at'),
    /**
     * A team license (decision 051): how many people may hold a seat of it, its owner's own seat included; 1 for a
     * personal purchase. Only the owner's license carries the number; a member's is 1.
     */
    seats: integer('seats').notNull().default(1),
    /**
     * A member's license: the team license (the owner's) it is a seat of. It shares the team's purchase, so a
     * refund or a dispute of that purchase reaches every member's key too.
     */
    teamLicenseId: uuid('team_license_id').references((): AnyPgColumn => licenses.id),
    /**
     * The edition of a tool with editions (null for one without): what its answers, files and seat limit follow. A
     * team's members carry their team's edition, changed together with it.
     */
    editionId: uuid('edition_id').references(() => toolEditions.id),
    /**
     * The end of the license's updates (decision 059): it may install the releases published on or before it, and
     * keeps working for ever. Null: every release (lifetime updates, and every license bought before periods
     * existed). A team's seats carry their team's, renewed together.
     */
    updatesUntil: ts('updates_until'),
    /** Why the operator suspended it by hand (null for a dispute's suspension, or when not suspended). */
    suspendedReason: text('suspended_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    // One license per purchase, its buyer's; members' licenses of a team share it.
    uniqueIndex('licenses_purchase_id_key').on(t.purchaseId).where(sql`${t.teamLicenseId} is null`),
    index('licenses_team_license_id_idx').on(t.teamLicenseId),
    uniqueIndex('licenses_license_key_key').on(t.plainLicenseKey),
    uniqueIndex('licenses_license_key_hash_key').on(t.licenseKeyHash),
    uniqueIndex('licenses_username_key').on(t.username),
    // Trials by their end: the running ones (the Overview's figure) and those the reminder job is due to email.
    index('licenses_holder_id_idx').on(t.holderId),
    index('licenses_trial_expires_idx').on(t.expiresAt).where(sql`${t.status} = 'trial'`),
    // A license comes from a purchase, or is a trial (which has an end and no purchase) until it is bought.
    // (or a trial revoked with its erased account).
    check(
      'licenses_purchase_or_trial',
      sql`${t.purchaseId} is not null or ${t.status} = 'trial' or ${t.status} = 'revoked'`,
    ),
    check(
      'licenses_trial_ends',
      sql`${t.status} <> 'trial' or (${t.expiresAt} is not null and ${t.purchaseId} is null)`,
    ),
  ],
);

/**
 * The machines a license runs on. A deactivated row stays as history for the operator; at most one live row per
 * license and fingerprint, and the number of live rows never exceeds the tool's activation limit.
 */
export const licenseActivations = pgTable(
  'license_activations',
  {
    id: id(),
    licenseId: ref('license_id', () => licenses.id, { onDelete: 'cascade' }),
    fingerprint: text('fingerprint').notNull(),
    name: text('name'),
    activatedAt: ts('activated_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    deactivatedAt: ts('deactivated_at'),
    /**
     * tool: the machine freed itself over the API; owner: from My Tools (counted); operator: from the CLI; lapsed: a
     * floating lease ran out without a heartbeat; released: a floating lease given back by deactivate; offline-code:
     * a computer activated without internet freed with the deactivation code it showed (none of the last three counts
     * against the buyer's allowance).
     */
    deactivatedBy: text('deactivated_by', {
      enum: ['tool', 'owner', 'operator', 'lapsed', 'released', 'offline-code'],
    }),
    /** A floating license's lease: the seat is this machine's until then (licenses/leases.ts); null per device. */
    leaseExpiresAt: ts('lease_expires_at'),
    /**
     * Keyed hash of this activation's update-feed token (licenses/update-tokens.ts): a feed request finds its
     * activation by it. The token itself is derived from the activation id, so it is never stored.
     */
    updateTokenHash: text('update_token_hash').unique(),
    /**
     * A computer activated without internet (licenses/offline.ts, decision 061): when its signed response file ends.
     * Null for an activation made online.
     */
    offlineUntil: ts('offline_until'),
    /**
     * Keyed hash of the deactivation code that computer's response lets it show (never the code or its secret): the
     * code is looked up by it, and it stays after the seat is freed, so a second use is told so.
     */
    offlineCodeHash: text('offline_code_hash').unique(),
  },
  (t) => [
    uniqueIndex('license_activations_live_key')
      .on(t.licenseId, t.fingerprint)
      .where(sql`${t.deactivatedAt} is null`),
    index('license_activations_license_id_idx').on(t.licenseId, t.deactivatedAt),
  ],
);

/**
 * The license signing keys this database's shop has signed with (by key id), newest use last: a restore checks that
 * the key it is given is the one in use when the snapshot was taken, as it checks the release key against the
 * artifacts' signatures (issue 63). Written at every start.
 */
export const licenseSigningKeys = pgTable('license_signing_keys', {
  kid: text('kid').primaryKey(),
  firstUsedAt: ts('first_used_at').notNull(),
  lastUsedAt: ts('last_used_at').notNull(),
});

/**
 * The renewal reminders sent (decision 059): one row per license, end of updates and stage (30 days before, 7 days
 * before, the day it ends), inserted in the transaction that queues the email, so each goes once however many
 * instances run the job. A renewal moves the end, and the next end is reminded afresh.
 */
export const renewalReminders = pgTable(
  'renewal_reminders',
  {
    licenseId: ref('license_id', () => licenses.id, { onDelete: 'cascade' }),
    updatesUntil: ts('updates_until').notNull(),
    stage: text('stage', { enum: ['30-days', '7-days', 'ended'] }).notNull(),
    sentAt: ts('sent_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.licenseId, t.updatesUntil, t.stage] })],
);
