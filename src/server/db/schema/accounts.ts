import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, ref, ts } from './columns';

export const users = pgTable(
  'users',
  {
    id: id(),
    name: text('name').notNull(),
    /** Stored as typed; uniqueness and look-ups use lower(email). */
    email: text('email').notNull(),
    /** Dial code plus number, e.g. "+919876543210". */
    phone: text('phone').notNull(),
    passwordHash: text('password_hash').notNull(),
    createdAt: createdAt(),
    passwordChangedAt: ts('password_changed_at'),
    /** Email preferences (account/email-preferences.ts): optional mail the buyer can turn off; transactional mail is always sent. */
    releaseEmails: boolean('release_emails').notNull().default(true),
    trialEmails: boolean('trial_emails').notNull().default(true),
    checkoutReminderEmails: boolean('checkout_reminder_emails').notNull().default(true),
    renewalReminderEmails: boolean('renewal_reminder_emails').notNull().default(true),
    /**
     * When the buyer deleted the account (account/erasure.ts): the row stays, emptied of personal data, so orders
     * and tax documents keep their numbers and totals.
     */
    erasedAt: ts('erased_at'),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    // The Customers list: keyset pages, and searches by the start or end of an email, the start of a name or the
    // last digits of a phone, each a btree range (text_pattern_ops: LIKE 'x%' whatever the collation).
    index('users_created_at_id_idx').on(t.createdAt, t.id),
    index('users_email_prefix_idx').on(sql`lower(${t.email}) text_pattern_ops`),
    index('users_email_suffix_idx').on(sql`reverse(lower(${t.email})) text_pattern_ops`),
    index('users_name_prefix_idx').on(sql`lower(${t.name}) text_pattern_ops`),
    index('users_phone_suffix_idx').on(sql`reverse(${t.phone}) text_pattern_ops`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the random session id; the id itself lives only in the cookie. */
    idHash: text('id_hash').primaryKey(),
    userId: ref('user_id', () => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    /** What the account page names a session by: never the id or its hash, which sign the browser in. */
    publicId: uuid('public_id').notNull().defaultRandom(),
    /** The browser's User-Agent at sign-in (cut to 512 characters), parsed for the account page. */
    userAgent: text('user_agent'),
    /** ISO country of the address it signed in from (offline database), or null when unknown. */
    country: text('country'),
    /** Last request seen, written at most once a minute per session (auth/session.ts). */
    lastUsedAt: ts('last_used_at'),
    /**
     * The last second sign-in (password or passkey) in this session: risky changes need one within 10 minutes
     * (account/reauth-routes.ts, "sudo mode").
     */
    reauthenticatedAt: ts('reauthenticated_at'),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), uniqueIndex('sessions_public_id_key').on(t.publicId)],
);

/** A passkey (WebAuthn discoverable credential) that signs its account in without a password. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: id(),
    userId: ref('user_id', () => users.id, { onDelete: 'cascade' }),
    /** The credential id as base64url, as the browser reports it. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter; an assertion that does not raise it (when it counts) is refused. */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    deviceType: text('device_type', { enum: ['singleDevice', 'multiDevice'] }).notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [
    uniqueIndex('passkeys_credential_id_key').on(t.credentialId),
    index('passkeys_user_id_idx').on(t.userId),
  ],
);

/**
 * The challenge of one passkey ceremony, kept on the server for a few minutes and used once: a registration is
 * bound to the account and the session that asked; a sign-in to nobody until a passkey answers it.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose', { enum: ['register', 'login'] }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    sessionIdHash: text('session_id_hash'),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webauthn_challenges_expires_at_idx').on(t.expiresAt)],
);

/** One table for every emailed code (signup, password reset): at most one live code per email and purpose. */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: id(),
    email: text('email').notNull(),
    purpose: text('purpose', { enum: ['signup', 'reset', 'email-change'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('verification_codes_email_purpose_key').on(t.email, t.purpose)],
);

/**
 * Consents given and withdrawn (DPDP Act s. 6): the Privacy Policy at signup, and each optional email topic. A
 * withdrawal closes the open row of its kind; giving again opens a new one, so the history stays.
 */
export const consents = pgTable(
  'consents',
  {
    id: id(),
    userId: ref('user_id', () => users.id, { onDelete: 'cascade' }),
    /** 'privacy-policy', 'email:releases', 'email:trials' (shared/privacy.ts). */
    kind: text('kind').notNull(),
    /** The Privacy Policy's version in force when it was given. */
    version: text('version').notNull(),
    givenAt: ts('given_at').notNull().defaultNow(),
    withdrawnAt: ts('withdrawn_at'),
  },
  (t) => [index('consents_user_id_idx').on(t.userId, t.kind)],
);

/**
 * Every address an account used or asked to move to (account/email-change.ts), so that erasure finds the mail,
 * codes and rate-limit keys of earlier and pending addresses too; erased with the account.
 */
export const accountAddresses = pgTable(
  'account_addresses',
  {
    userId: ref('user_id', () => users.id, { onDelete: 'cascade' }),
    /** Normalised (trimmed, lower case). */
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.email] })],
);

/**
 * One trial per person and tool, also after the account is erased: a keyed hash (data-secrets.ts) of the normalised
 * address and the tool, and nothing else about the person (the Privacy Policy's retention section says so).
 */
export const trialClaims = pgTable('trial_claims', {
  /** lookupHash('trial-address', `<tool id>:<normalised address>`). */
  claimHash: text('claim_hash').primaryKey(),
  createdAt: createdAt(),
});
