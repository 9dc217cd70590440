import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  ARTIFACT_ARCHES,
  ARTIFACT_KINDS,
  ARTIFACT_PLATFORMS,
  RELEASE_CHANNELS,
  RELEASE_STATES,
  ROLLOUT_STATES,
  VELOPACK_TYPES,
} from '../../../shared/releases';
import { tools } from './catalogue';
import { createdAt, id, ref, ts } from './columns';
import { licenseActivations } from './licenses';

/**
 * A version of a tool (issue 31, decision 034). The version is a normalised semantic version, compared as such in
 * code (semver), never as text. A published release never changes its files; a yanked one is in no feed.
 */
export const releases = pgTable(
  'releases',
  {
    id: id(),
    toolId: ref('tool_id', () => tools.id, { onDelete: 'restrict' }),
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
    /**
     * The staged rollout (decision 060): offered to the machines whose place (a hash of the activation and the
     * release, 0–99) is below the percentage while `rolling`, to none while `halted`, to all once `complete`. Every
     * release published before rollouts existed is complete.
     */
    rolloutPercent: integer('rollout_percent').notNull().default(100),
    rolloutState: text('rollout_state', { enum: ROLLOUT_STATES }).notNull().default('complete'),
    /** Sparkle's own client-side schedule on top of the server's share (`sparkle:phasedRolloutInterval`). */
    phasedRolloutIntervalSeconds: integer('phased_rollout_interval_seconds'),
    /** Halted by the rollout watch when more than this share of the machines that downloaded it stay behind. */
    haltIfStuckPercent: integer('halt_if_stuck_percent'),
    /** The last resume of a halted rollout: the watch counts only downloads after it, which the operator has not seen. */
    rolloutResumedAt: ts('rollout_resumed_at'),
  },
  (t) => [
    uniqueIndex('releases_tool_id_version_key').on(t.toolId, t.version),
    uniqueIndex('releases_tool_id_build_number_key').on(t.toolId, t.buildNumber),
    index('releases_tool_id_state_idx').on(t.toolId, t.state),
    check('releases_rollout_percent_range', sql`${t.rolloutPercent} between 1 and 100`),
    check('releases_halt_if_stuck_percent_range', sql`${t.haltIfStuckPercent} between 1 and 100`),
  ],
);

/**
 * A file of a release, with what an updater checks it by: size, SHA-1 (Squirrel's RELEASES), SHA-256 and an
 * Ed25519 signature over the file's bytes by the release signing key `kid`.
 */
export const releaseArtifacts = pgTable(
  'release_artifacts',
  {
    id: id(),
    releaseId: ref('release_id', () => releases.id, { onDelete: 'cascade' }),
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

/**
 * The version each machine last reported (decision 060): from the update check's `version`, Velopack's
 * `localVersion` and the version Sparkle and WinSparkle put in their User-Agent. Written at most once an hour per
 * machine (sooner only when the version changes), so polling feeds do not write on every request.
 */
export const machineVersions = pgTable(
  'machine_versions',
  {
    activationId: uuid('activation_id')
      .primaryKey()
      .references(() => licenseActivations.id, { onDelete: 'cascade' }),
    toolId: ref('tool_id', () => tools.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    seenAt: ts('seen_at').notNull(),
  },
  (t) => [index('machine_versions_tool_id_idx').on(t.toolId, t.seenAt)],
);

/**
 * A machine's way through one release (decision 060): when it was first offered it, first downloaded one of its
 * files, and first reported running it. What the adoption figures, the chart and the rollout watch count.
 */
export const releaseMachines = pgTable(
  'release_machines',
  {
    releaseId: ref('release_id', () => releases.id, { onDelete: 'cascade' }),
    activationId: ref('activation_id', () => licenseActivations.id, { onDelete: 'cascade' }),
    offeredAt: ts('offered_at'),
    downloadedAt: ts('downloaded_at'),
    runningAt: ts('running_at'),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.activationId] })],
);
