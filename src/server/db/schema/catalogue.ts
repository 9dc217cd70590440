import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  DEFAULT_ACTIVATION_LIMIT,
  DEFAULT_HEARTBEAT_MINUTES,
  DEFAULT_OFFLINE_DAYS,
  LICENSE_MODELS,
} from '../../../shared/tool-rules';
import { createdAt, id, ref, updatedAt } from './columns';

export const tools = pgTable('tools', {
  id: id(),
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
  /**
   * How long a computer activated without internet runs on its response file (decision 061), capped by the license's
   * own end (a trial's); 1 to 365 days.
   */
  offlineDays: integer('offline_days').notNull().default(DEFAULT_OFFLINE_DAYS),
  /**
   * The edition a trial of a tool with editions runs as; null: the top one. No foreign key in this file
   * (tool_editions follows tools); the migration adds one.
   */
  trialEditionId: uuid('trial_edition_id'),
  /**
   * A tool without editions' update period (decision 059): null, updates for life (every release, as ever); else the months of new
   * releases a purchase includes, and what renewing them for that long costs (GST included, subunits).
   */
  updatesMonths: integer('updates_months'),
  renewalPriceInrPaise: integer('renewal_price_inr_paise'),
  renewalPriceUsdCents: integer('renewal_price_usd_cents'),
  sortOrder: integer('sort_order').notNull().default(0),
  active: boolean('active').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * A tool's editions (decision 056): Standard below Pro, each with its own prices, device limit and entitlements (the
 * feature codes a license of it carries, such as `ocr`). A tool without editions is sold at its own prices, as ever.
 */
export const toolEditions = pgTable(
  'tool_editions',
  {
    id: id(),
    toolId: ref('tool_id', () => tools.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The edition's place, lowest first: an upgrade goes to a higher one. */
    position: integer('position').notNull(),
    priceInrPaise: integer('price_inr_paise').notNull(),
    priceUsdCents: integer('price_usd_cents'),
    entitlements: text('entitlements').array().notNull().default(sql`'{}'::text[]`),
    /** Machines one license of the edition may run on at a time; null: the tool's activation limit. */
    deviceLimit: integer('device_limit'),
    /**
     * The edition's update period (decision 059): null, updates for life (every release, as ever); else the months of new
     * releases a purchase includes, and what renewing them for that long costs (GST included, subunits).
     */
    updatesMonths: integer('updates_months'),
    renewalPriceInrPaise: integer('renewal_price_inr_paise'),
    renewalPriceUsdCents: integer('renewal_price_usd_cents'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('tool_editions_tool_name_key').on(t.toolId, sql`lower(${t.name})`),
    uniqueIndex('tool_editions_tool_position_key').on(t.toolId, t.position),
  ],
);
