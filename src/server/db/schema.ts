import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { CONTACT_TOPICS, CURRENCIES } from '../../shared/constants';
import { LICENSE_STATUSES } from '../../shared/licenses';
import { ORDER_EVENT_KINDS, ORDER_STATUSES } from '../../shared/orders';
import { REFUND_REQUEST_REASONS, REFUND_REQUEST_STATUSES } from '../../shared/refund-requests';
import {
  ARTIFACT_ARCHES,
  ARTIFACT_KINDS,
  ARTIFACT_PLATFORMS,
  RELEASE_CHANNELS,
  RELEASE_STATES,
  VELOPACK_TYPES,
} from '../../shared/releases';
import type { BillingDetails } from '../../shared/shop';
import { DEFAULT_ACTIVATION_LIMIT, DEFAULT_HEARTBEAT_MINUTES, LICENSE_MODELS } from '../../shared/tool-rules';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const updatedAt = () => ts('updated_at').notNull().defaultNow();

// ── Accounts ────────────────────────────────────────────────────────────────────────────────────────────────

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
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
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    id: uuid('id').primaryKey().defaultRandom(),
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
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'privacy-policy', 'email:releases', 'email:trials' (shared/privacy.ts). */
    kind: text('kind').notNull(),
    /** The Privacy Policy's version in force when it was given. */
    version: text('version').notNull(),
    givenAt: ts('given_at').notNull().defaultNow(),
    withdrawnAt: ts('withdrawn_at'),
  },
  (t) => [index('consents_user_id_idx').on(t.userId, t.kind)],
);

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

// ── Contact ─────────────────────────────────────────────────────────────────────────────────────────────────

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    organisation: text('organisation'),
    email: text('email').notNull(),
    relatedTo: text('related_to', { enum: CONTACT_TOPICS }).notNull(),
    description: text('description').notNull(),
    ip: text('ip'),
    createdAt: createdAt(),
    handledAt: ts('handled_at'),
  },
  (t) => [index('contact_messages_created_at_idx').on(t.createdAt)],
);

// ── Mail outbox ─────────────────────────────────────────────────────────────────────────────────────────────

export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    /** Template name, for the operator's view and for tests: "contact-notification", "signup-code", ... */
    kind: text('kind').notNull(),
    /** What caused it, e.g. "order:<uuid>" or "contact:<uuid>". */
    ref: text('ref'),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    /** One-click unsubscribe URL of optional mail (RFC 8058): sent as List-Unsubscribe with List-Unsubscribe-Post. */
    listUnsubscribe: text('list_unsubscribe'),
    /** The row is deleted once sent instead of kept 90 days: the confirmation to an address just erased. */
    deleteWhenSent: boolean('delete_when_sent').notNull().default(false),
    createdAt: createdAt(),
    sentAt: ts('sent_at'),
  },
  (t) => [index('outbox_due_idx').on(t.status, t.nextAttemptAt), index('outbox_ref_idx').on(t.ref)],
);

/**
 * Documents attached to an outbox email, by reference: the worker renders them when it sends, so the email carries
 * the same document the buyer downloads later, and the outbox holds no copy that could differ from it.
 */
export const outboxAttachments = pgTable(
  'outbox_attachments',
  {
    outboxId: bigint('outbox_id', { mode: 'number' })
      .notNull()
      .references(() => outbox.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['invoice', 'credit-note'] }).notNull(),
    documentId: uuid('document_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.outboxId, t.kind, t.documentId] })],
);

// ── Shop ────────────────────────────────────────────────────────────────────────────────────────────────────

export const tools = pgTable('tools', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  device: text('device', { enum: ['Windows', 'macOS'] }),
  /** Prices in subunits (paise, cents) so no float ever touches money. */
  priceInrPaise: integer('price_inr_paise').notNull(),
  priceUsdCents: integer('price_usd_cents'),
  comingSoon: boolean('coming_soon').notNull().default(false),
  delivery: text('delivery', { enum: ['license_key', 'credentials'] })
    .notNull()
    .default('license_key'),
  fileKey: text('file_key'),
  fileName: text('file_name'),
  fileSha256: text('file_sha256'),
  fileSize: integer('file_size'),
  /** Velopack package id; null means the default made from the name (shared/releases.ts, packageIdOf). */
  packageId: text('package_id'),
  icon: text('icon'),
  /** How many machines one license of this tool may be activated on at a time (docs/license-api.md). */
  activationLimit: integer('activation_limit').notNull().default(DEFAULT_ACTIVATION_LIMIT),
  /** per-device: a seat is held until freed; floating: a lease renewed by heartbeats (decision 049). */
  licenseModel: text('license_model', { enum: LICENSE_MODELS }).notNull().default('per-device'),
  /** A floating tool's heartbeat interval; a lease lapses after two of them without a heartbeat. */
  heartbeatMinutes: integer('heartbeat_minutes').notNull().default(DEFAULT_HEARTBEAT_MINUTES),
  /** Length of the free trial a signed-in visitor may start (docs/decisions/035-trials.md); 0: no trial. */
  trialDays: integer('trial_days').notNull().default(0),
  sortOrder: integer('sort_order').notNull().default(0),
  active: boolean('active').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * A version of a tool (issue 31, decision 034). The version is a normalised semantic version, compared as such in
 * code (semver), never as text. A published release never changes its files; a yanked one is in no feed.
 */
export const releases = pgTable(
  'releases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toolId: uuid('tool_id')
      .notNull()
      .references(() => tools.id, { onDelete: 'restrict' }),
    version: text('version').notNull(),
    channel: text('channel', { enum: RELEASE_CHANNELS }).notNull().default('stable'),
    state: text('state', { enum: RELEASE_STATES }).notNull().default('draft'),
    notesMarkdown: text('notes_markdown').notNull().default(''),
    /**
     * Only increases per tool (issue 51): Sparkle compares `sparkle:version`, which is this number, because its
     * comparator cannot order semver prereleases; WinSparkle and Velopack keep comparing the semver.
     */
    // 1 when a migration or the seed inserts a tool's first release; the app always gives it (operations.ts).
    buildNumber: integer('build_number').notNull().default(1),
    /** Each platform's minimum, emitted only on that platform's items: macOS major.minor[.patch]. */
    minimumMacosVersion: text('minimum_macos_version'),
    /** Windows major.minor.build, e.g. 10.0.17763. */
    minimumWindowsVersion: text('minimum_windows_version'),
    critical: boolean('critical').notNull().default(false),
    createdAt: createdAt(),
    publishedAt: ts('published_at'),
    yankedAt: ts('yanked_at'),
    /** When the owners were emailed about it (never twice). */
    announcedAt: ts('announced_at'),
  },
  (t) => [
    uniqueIndex('releases_tool_id_version_key').on(t.toolId, t.version),
    uniqueIndex('releases_tool_id_build_number_key').on(t.toolId, t.buildNumber),
    index('releases_tool_id_state_idx').on(t.toolId, t.state),
  ],
);

/**
 * A file of a release, with what an updater checks it by: size, SHA-1 (Squirrel's RELEASES), SHA-256 and an
 * Ed25519 signature over the file's bytes by the release signing key `kid`.
 */
export const releaseArtifacts = pgTable(
  'release_artifacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    releaseId: uuid('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    platform: text('platform', { enum: ARTIFACT_PLATFORMS }).notNull(),
    arch: text('arch', { enum: ARTIFACT_ARCHES }).notNull(),
    kind: text('kind', { enum: ARTIFACT_KINDS }).notNull(),
    fileName: text('file_name').notNull(),
    storageKey: text('storage_key').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** Hex digests; '' only for a file moved from the old tools.file_* columns until the server fills them at start. */
    sha1: text('sha1').notNull(),
    sha256: text('sha256').notNull(),
    /** Base64 Ed25519 signature over the file's bytes; '' like sha1 until filled at start. */
    signature: text('signature').notNull(),
    kid: text('kid').notNull(),
    /** Velopack packages only: a full package or a delta from the previous version. */
    velopackType: text('velopack_type', { enum: VELOPACK_TYPES }),
    /** A Windows Sparkle installer's arguments for WinSparkle (`sparkle:installerArguments`), e.g. /SILENT. */
    installerArguments: text('installer_arguments'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('release_artifacts_file_key').on(t.releaseId, t.kind, t.platform, t.arch, t.fileName)],
);

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    toolId: uuid('tool_id')
      .notNull()
      .references(() => tools.id),
    razorpayOrderId: text('razorpay_order_id').notNull(),
    razorpayPaymentId: text('razorpay_payment_id'),
    amount: integer('amount').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    billing: jsonb('billing').$type<BillingDetails>().notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('created'),
    failureReason: text('failure_reason'),
    /** The coupon the order was priced with (upper case), its catalogue price and the discount, in subunits. */
    couponCode: text('coupon_code'),
    listPrice: integer('list_price'),
    discount: integer('discount'),
    /** How many seats the order buys (decision 051): `list_price` is the unit price times this. */
    seats: integer('seats').notNull().default(1),
    /**
     * "Add seats": the team license (its owner's) this order adds `seats` to when paid, instead of a new purchase.
     * No foreign key in the schema file (licenses is declared later); the migration adds one.
     */
    addsToLicenseId: uuid('adds_to_license_id'),
    createdAt: createdAt(),
    paidAt: ts('paid_at'),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('orders_razorpay_order_id_key').on(t.razorpayOrderId),
    uniqueIndex('orders_razorpay_payment_id_key').on(t.razorpayPaymentId),
    index('orders_user_id_idx').on(t.userId),
    index('orders_status_created_idx').on(t.status, t.createdAt),
    // Keyset pages of the Orders list, and a customer's orders newest first.
    index('orders_created_at_id_idx').on(t.createdAt, t.id),
    index('orders_user_id_created_at_idx').on(t.userId, t.createdAt),
    // The Overview's last 30 days of sales.
    index('orders_paid_at_idx').on(t.paidAt).where(sql`${t.status} = 'paid'`),
  ],
);

/**
 * Discount codes (coupons/): a percentage or fixed INR / USD amounts, for all tools (tool_ids null) or some, between
 * optional dates, with an optional total number of uses; one use per buyer unless reusable.
 */
export const coupons = pgTable(
  'coupons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored upper case; looked up by the upper-cased code the buyer typed. */
    code: text('code').notNull(),
    percent: integer('percent'),
    amountInrPaise: integer('amount_inr_paise'),
    amountUsdCents: integer('amount_usd_cents'),
    toolIds: uuid('tool_ids').array(),
    startsAt: ts('starts_at'),
    endsAt: ts('ends_at'),
    maxUses: integer('max_uses'),
    reusable: boolean('reusable').notNull().default(false),
    disabledAt: ts('disabled_at'),
    createdAt: createdAt(),
    /** Who created it, as the audit log names them. */
    createdBy: text('created_by').notNull(),
  },
  (t) => [uniqueIndex('coupons_code_key').on(t.code)],
);

/**
 * One use of a coupon per order: reserved when the order is created, used when it is fulfilled, released when the
 * order can no longer be paid (docs/decisions/036-coupons.md).
 */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    couponId: uuid('coupon_id')
      .notNull()
      .references(() => coupons.id),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    state: text('state', { enum: ['reserved', 'used', 'released'] }).notNull(),
    discount: integer('discount').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    createdAt: createdAt(),
    usedAt: ts('used_at'),
  },
  (t) => [
    uniqueIndex('coupon_redemptions_order_id_key').on(t.orderId),
    index('coupon_redemptions_coupon_state_idx').on(t.couponId, t.state),
  ],
);

/** Status history of an order, for the operator. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ORDER_EVENT_KINDS }).notNull(),
    detail: jsonb('detail'),
    createdAt: createdAt(),
  },
  (t) => [index('order_events_order_id_idx').on(t.orderId)],
);

/**
 * A buyer's request for a refund under one of the Refund Policy's exceptions (docs/decisions/044): open until the
 * operator approves it (the refund itself is `refundOrder`) or declines it with a reason. One open per order.
 */
export const refundRequests = pgTable(
  'refund_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    reason: text('reason', { enum: REFUND_REQUEST_REASONS }).notNull(),
    description: text('description').notNull(),
    status: text('status', { enum: REFUND_REQUEST_STATUSES }).notNull().default('open'),
    declineReason: text('decline_reason'),
    decidedBy: text('decided_by'),
    createdAt: createdAt(),
    decidedAt: ts('decided_at'),
  },
  (t) => [
    uniqueIndex('refund_requests_open_order_key').on(t.orderId).where(sql`${t.status} = 'open'`),
    index('refund_requests_status_created_idx').on(t.status, t.createdAt),
  ],
);

export const purchases = pgTable(
  'purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    toolId: uuid('tool_id')
      .notNull()
      .references(() => tools.id),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    createdAt: createdAt(),
    refundedAt: ts('refunded_at'),
  },
  (t) => [
    uniqueIndex('purchases_order_id_key').on(t.orderId),
    uniqueIndex('purchases_owner_tool_live_key').on(t.userId, t.toolId).where(sql`${t.refundedAt} is null`),
    index('purchases_user_id_idx').on(t.userId),
  ],
);

export const licenses = pgTable(
  'licenses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * The account that holds the license (the buyer, the trial's account, later a team member): what erasure and
     * the export find licenses by, whatever made them.
     */
    holderId: uuid('holder_id')
      .notNull()
      .references(() => users.id),
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
 * An invitation to take a seat of a team license (decision 051): emailed as a link whose random token is stored
 * only as its hash; pending until accepted, cancelled or 14 days old. A pending one holds a seat.
 */
export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamLicenseId: uuid('team_license_id')
      .notNull()
      .references(() => licenses.id, { onDelete: 'cascade' }),
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

/**
 * Free trials (docs/decisions/035-trials.md): one per account and tool, ever. The trial's license carries its end
 * (`licenses.expires_at`); this row says whose trial of which tool it is and what became of it.
 */
export const trials = pgTable(
  'trials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    toolId: uuid('tool_id')
      .notNull()
      .references(() => tools.id),
    licenseId: uuid('license_id')
      .notNull()
      .references(() => licenses.id),
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

/**
 * One trial per person and tool, also after the account is erased: a keyed hash (data-secrets.ts) of the normalised
 * address and the tool, and nothing else about the person (the Privacy Policy's retention section says so).
 */
export const trialClaims = pgTable('trial_claims', {
  /** lookupHash('trial-address', `<tool id>:<normalised address>`). */
  claimHash: text('claim_hash').primaryKey(),
  createdAt: createdAt(),
});

/**
 * Every address an account used or asked to move to (account/email-change.ts), so that erasure finds the mail,
 * codes and rate-limit keys of earlier and pending addresses too; erased with the account.
 */
export const accountAddresses = pgTable(
  'account_addresses',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Normalised (trimmed, lower case). */
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.email] })],
);

/**
 * One trial per machine and tool, whichever account starts it: the machine's fingerprint, keyed-hashed
 * (data-secrets.ts), is claimed by the first trial that activates on it.
 */
/**
 * Checkout recovery (payments/checkout-recovery.ts): a signed-in buyer who opened the billing dialog or a payment
 * for a tool, one row per buyer and tool. Opening again moves `opened_at` and keeps the coupon last entered; at
 * most two reminders are ever sent for it (`reminders_sent`), the first marking `first_reminder_at`, which tells
 * the Overview which later orders were recovered. Deleted with the account's personal data.
 */
export const checkoutStarts = pgTable(
  'checkout_starts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    toolId: uuid('tool_id')
      .notNull()
      .references(() => tools.id, { onDelete: 'cascade' }),
    couponCode: text('coupon_code'),
    openedAt: ts('opened_at').notNull(),
    remindersSent: integer('reminders_sent').notNull().default(0),
    firstReminderAt: ts('first_reminder_at'),
    lastReminderAt: ts('last_reminder_at'),
  },
  (t) => [
    uniqueIndex('checkout_starts_user_tool_key').on(t.userId, t.toolId),
    // The reminder job's scan: only rows that may still get a reminder.
    index('checkout_starts_due_idx').on(t.openedAt).where(sql`${t.remindersSent} < 2`),
  ],
);

export const trialMachines = pgTable(
  'trial_machines',
  {
    toolId: uuid('tool_id')
      .notNull()
      .references(() => tools.id),
    fingerprintHash: text('fingerprint_hash').notNull(),
    trialId: uuid('trial_id')
      .notNull()
      .references(() => trials.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.toolId, t.fingerprintHash] })],
);

/**
 * The machines a license runs on. A deactivated row stays as history for the operator; at most one live row per
 * license and fingerprint, and the number of live rows never exceeds the tool's activation limit.
 */
export const licenseActivations = pgTable(
  'license_activations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    licenseId: uuid('license_id')
      .notNull()
      .references(() => licenses.id, { onDelete: 'cascade' }),
    fingerprint: text('fingerprint').notNull(),
    name: text('name'),
    activatedAt: ts('activated_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    deactivatedAt: ts('deactivated_at'),
    /**
     * tool: the machine freed itself over the API; owner: from My Tools (counted); operator: from the CLI; lapsed: a
     * floating lease ran out without a heartbeat; released: a floating lease given back by deactivate (neither counts
     * against the buyer's allowance).
     */
    deactivatedBy: text('deactivated_by', { enum: ['tool', 'owner', 'operator', 'lapsed', 'released'] }),
    /** A floating license's lease: the seat is this machine's until then (licenses/leases.ts); null per device. */
    leaseExpiresAt: ts('lease_expires_at'),
    /**
     * Keyed hash of this activation's update-feed token (licenses/update-tokens.ts): a feed request finds its
     * activation by it. The token itself is derived from the activation id, so it is never stored.
     */
    updateTokenHash: text('update_token_hash').unique(),
  },
  (t) => [
    uniqueIndex('license_activations_live_key')
      .on(t.licenseId, t.fingerprint)
      .where(sql`${t.deactivatedAt} is null`),
    index('license_activations_license_id_idx').on(t.licenseId, t.deactivatedAt),
  ],
);

export const downloadTokens = pgTable(
  'download_tokens',
  {
    /** SHA-256 of the 256-bit token in the emailed link. */
    tokenHash: text('token_hash').primaryKey(),
    /** The purchase the link downloads for, or (a free trial's link) the trial. */
    purchaseId: uuid('purchase_id').references(() => purchases.id, { onDelete: 'cascade' }),
    trialId: uuid('trial_id').references(() => trials.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    toolId: uuid('tool_id')
      .notNull()
      .references(() => tools.id),
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

/** Razorpay webhook event ids already handled: a redelivery has no second effect. */
export const webhookEvents = pgTable('webhook_events', {
  eventId: text('event_id').primaryKey(),
  event: text('event').notNull(),
  receivedAt: createdAt(),
});

// ── Outgoing webhooks ───────────────────────────────────────────────────────────────────────────────────────

/** Where the operator wants events sent (decision 046). The secret is sealed (decision 032): shown once, when made. */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: uuid('id').primaryKey().defaultRandom(),
  url: text('url').notNull(),
  description: text('description').notNull().default(''),
  events: jsonb('events').$type<string[]>().notNull(),
  /** `whsec_<base64>`, sealed with DATA_SECRET_KEY. */
  secret: text('secret').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  disabledReason: text('disabled_reason'),
  /** The first failed attempt since the last success; 3 days of failures disable the endpoint. */
  failingSince: ts('failing_since'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * One event for one endpoint, written in the transaction that makes the change it reports; the webhook worker
 * claims due rows with FOR UPDATE SKIP LOCKED, as the mail outbox does. `messageId` is the `webhook-id` header,
 * the same on every attempt and on a redelivery, so a receiver can recognise a repeat.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    messageId: text('message_id').notNull(),
    event: text('event').notNull(),
    /** The body sent: `{ type, timestamp, data }`. */
    payload: jsonb('payload').notNull(),
    /** The customer the event is about, so erasing them removes their address from queued and past payloads. */
    customerId: uuid('customer_id'),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    createdAt: createdAt(),
    deliveredAt: ts('delivered_at'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_customer_idx').on(t.customerId),
  ],
);

/** Each try of a delivery: the answer's status (null: no answer) and the start of its body, or why it failed. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    status: integer('status'),
    error: text('error'),
    excerpt: text('excerpt'),
    durationMs: integer('duration_ms').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId)],
);

// ── Tax documents ───────────────────────────────────────────────────────────────────────────────────────────

/**
 * The last number issued per document series and financial year. Issuing a number updates this row inside the
 * fulfilment or refund transaction, so concurrent issues queue on its lock and a rollback gives the number back:
 * numbers stay consecutive with no gap, which a database sequence cannot promise.
 */
export const documentCounters = pgTable(
  'document_counters',
  {
    series: text('series', { enum: ['invoice', 'credit-note'] }).notNull(),
    /** "26-27" for April 2026 to March 2027, India time. */
    financialYear: text('financial_year').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (t) => [primaryKey({ columns: [t.series, t.financialYear] })],
);

/**
 * Tax invoices of paid orders. `document` is the snapshot everything printed comes from (firm identity, buyer,
 * amounts, tax lines), written once and never updated; the columns beside it are copies for look-ups and the
 * accountant's GSTR-1 export. An order has one current invoice; correcting its billing details cancels it by a
 * credit note (`cancelled_by_credit_note_id`) and issues the next one (docs/decisions/050-billing-correction.md).
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    issuedAt: ts('issued_at').notNull(),
    supplyType: text('supply_type', {
      enum: ['intra-state', 'inter-state', 'export-lut', 'export-igst'],
    }).notNull(),
    buyerGstin: text('buyer_gstin'),
    currency: text('currency', { enum: ['INR', 'USD'] }).notNull(),
    total: integer('total').notNull(),
    document: jsonb('document').notNull(),
    /** The credit note that cancelled this invoice when the buyer corrected the billing details; null: current. */
    cancelledByCreditNoteId: uuid('cancelled_by_credit_note_id').references(
      (): AnyPgColumn => creditNotes.id,
    ),
  },
  (t) => [
    uniqueIndex('invoices_number_key').on(t.number),
    // Exactly one current invoice per order; cancelled ones stay beside it.
    uniqueIndex('invoices_current_order_id_key')
      .on(t.orderId)
      .where(sql`${t.cancelledByCreditNoteId} is null`),
    index('invoices_order_id_idx').on(t.orderId),
    index('invoices_user_id_idx').on(t.userId),
    index('invoices_issued_at_idx').on(t.issuedAt),
    // The GSTR-1 export reads a period in batches, keyset on (issued_at, number).
    index('invoices_issued_at_number_idx').on(t.issuedAt, t.number),
  ],
);

/**
 * Credit notes, one per invoice they credit (a refund's, or a billing correction's that cancels the invoice), with
 * their own number series; same snapshot rule as invoices.
 */
export const creditNotes = pgTable(
  'credit_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    issuedAt: ts('issued_at').notNull(),
    currency: text('currency', { enum: ['INR', 'USD'] }).notNull(),
    total: integer('total').notNull(),
    document: jsonb('document').notNull(),
  },
  (t) => [
    uniqueIndex('credit_notes_number_key').on(t.number),
    uniqueIndex('credit_notes_invoice_id_key').on(t.invoiceId),
    index('credit_notes_user_id_idx').on(t.userId),
    index('credit_notes_issued_at_idx').on(t.issuedAt),
    index('credit_notes_issued_at_number_idx').on(t.issuedAt, t.number),
  ],
);

// ── Back office ─────────────────────────────────────────────────────────────────────────────────────────────

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
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => operators.userId, { onDelete: 'cascade' }),
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
  userId: uuid('user_id')
    .notNull()
    .references(() => operators.userId, { onDelete: 'cascade' }),
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
