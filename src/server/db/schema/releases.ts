import { bigint, boolean, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  ARTIFACT_ARCHES,
  ARTIFACT_KINDS,
  ARTIFACT_PLATFORMS,
  RELEASE_CHANNELS,
  RELEASE_STATES,
  VELOPACK_TYPES,
} from '../../../shared/releases';
import { tools } from './catalogue';
import { createdAt, ts } from './columns';

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
