/**
 * Releases of a tool (issue 31): the words both the server and the dashboard use. A release has a semantic
 * version, a channel and a state; its artifacts are the files an updater or a buyer downloads.
 */
export const RELEASE_CHANNELS = ['stable', 'beta'] as const;
export type ReleaseChannel = (typeof RELEASE_CHANNELS)[number];

/** draft → published → yanked; a published release never changes its files, a yanked one is in no feed. */
export const RELEASE_STATES = ['draft', 'published', 'yanked'] as const;
export type ReleaseState = (typeof RELEASE_STATES)[number];

/**
 * A published release's staged rollout (issue 66, decision 060): `rolling` offers it to the machines whose place
 * (0–99, fixed per machine and release) is below its percentage; `halted` offers it to no machine; `complete` to all.
 */
export const ROLLOUT_STATES = ['rolling', 'halted', 'complete'] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];

/** A release's rollout as the operator sees and changes it. */
export type ReleaseRollout = {
  percent: number;
  state: RolloutState;
  /** Sparkle's own schedule on top (`sparkle:phasedRolloutInterval`), in seconds; null for none. */
  phasedIntervalSeconds: number | null;
  /** Halt it automatically when more than this share of the machines that downloaded it stay on the old version. */
  haltIfStuckPercent: number | null;
};

export const ARTIFACT_PLATFORMS = ['windows', 'macos'] as const;
export type ArtifactPlatform = (typeof ARTIFACT_PLATFORMS)[number];

/** x86 is Windows only (WinSparkle's `windows-x86`); universal is a macOS build for both, or a Windows build for any. */
export const ARTIFACT_ARCHES = ['x64', 'arm64', 'x86', 'universal'] as const;
export type ArtifactArch = (typeof ARTIFACT_ARCHES)[number];

/**
 * installer: what a buyer downloads from My Tools; sparkle: the archive Sparkle or WinSparkle installs;
 * velopack: a `.nupkg` made by Velopack's `vpk pack`, full or delta.
 */
export const ARTIFACT_KINDS = ['installer', 'sparkle', 'velopack'] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

export const VELOPACK_TYPES = ['Full', 'Delta'] as const;
export type VelopackType = (typeof VELOPACK_TYPES)[number];

/** A Velopack package id: what `vpk pack --packId` accepts, letters, digits, dots, dashes and underscores. */
export const PACKAGE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/**
 * The package id a tool has when the operator set none: the letters and digits of each word of its name, each
 * word capitalised ("PDF Toolkit" → "PDFToolkit", "gst return filer" → "GstReturnFiler").
 */
export function defaultPackageId(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const id = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
  return id === '' ? 'Tool' : id;
}

export const packageIdOf = (tool: { name: string; packageId: string | null }): string =>
  tool.packageId ?? defaultPackageId(tool.name);

/** `GET /api/updates/public-key`: the key that verifies release files, and the earlier keys still honoured. */
export type ReleasePublicKeyResponse = {
  kid: string;
  /** SPKI PEM. */
  publicKey: string;
  /** Base64 of the raw 32-byte Ed25519 key: Sparkle's SUPublicEDKey, WinSparkle's EdDSA public key. */
  sparklePublicEdKey: string;
  previous: Array<{ kid: string; publicKey: string; sparklePublicEdKey: string }>;
};

export const RELEASE_NOTES_MAX = 20_000;
/** A macOS minimum as Sparkle compares it with the system's version: major.minor[.patch], e.g. 12.0 or 13.4.1. */
export const MINIMUM_MACOS_PATTERN = /^\d{1,3}\.\d{1,3}(\.\d{1,3})?$/;
/** A Windows minimum as WinSparkle reads it (major.minor.build, VerifyVersionInfoW), e.g. 10.0.17763. */
export const MINIMUM_WINDOWS_PATTERN = /^\d{1,3}\.\d{1,3}\.\d{1,6}$/;
/** Build numbers Sparkle compares as `sparkle:version`: positive integers, only increasing per tool. */
export const BUILD_NUMBER_MAX = 2_000_000_000;
/** What one release file may weigh: it is read into memory once to be signed (decision 034). */
export const RELEASE_FILE_MAX_BYTES = 1024 ** 3;
export const RELEASE_FILE_TOO_LARGE = 'the file is larger than 1 GB';

export const RELEASE_MESSAGES = {
  publishedFilesFixed: 'A published release never changes its files.',
  yankedFilesFixed: 'A yanked release never changes its files.',
  noArtifacts: 'Upload at least one file before publishing the release.',
  channelFixed: 'The channel can be changed only while the release is a draft.',
  installerArgumentsOnlyWindowsSparkle:
    'Installer arguments are for a Windows sparkle file (WinSparkle runs it with them); leave them out here.',
} as const;

/** A release's file as the operator sees it (dashboard and `releases list --json`). */
export type AdminArtifact = {
  id: string;
  platform: ArtifactPlatform;
  arch: ArtifactArch;
  kind: ArtifactKind;
  fileName: string;
  size: number;
  sha1: string;
  sha256: string;
  /** Base64 Ed25519 signature over the file's bytes, by the release key `kid`. */
  signature: string;
  kid: string;
  velopackType: VelopackType | null;
  /** WinSparkle's `sparkle:installerArguments` for a Windows sparkle installer. */
  installerArguments: string | null;
  createdAt: string;
};

export type AdminRelease = {
  id: string;
  toolId: string;
  version: string;
  channel: ReleaseChannel;
  state: ReleaseState;
  notesMarkdown: string;
  /** The notes rendered and sanitised, exactly as buyers and updaters get them. */
  notesHtml: string;
  /** Only increases per tool; Sparkle's `sparkle:version` (the app's CFBundleVersion). */
  buildNumber: number;
  minimumMacosVersion: string | null;
  minimumWindowsVersion: string | null;
  critical: boolean;
  createdAt: string;
  publishedAt: string | null;
  yankedAt: string | null;
  rollout: ReleaseRollout;
  artifacts: AdminArtifact[];
};

/** A machine counts as active while it was seen (validate, the update check or a feed) within this many days. */
export const ACTIVE_MACHINE_DAYS = 30;

/** One day of a release's adoption, counted up to the end of that day in India: machines that had by then… */
export type AdoptionDay = { day: string; offered: number; downloaded: number; running: number };

/** One version of a tool as its machines run it (`releases adoption`, the dashboard's release page). */
export type VersionAdoption = {
  version: string;
  /** The release of that version; null for a version machines report that was never released here. */
  releaseId: string | null;
  releaseState: ReleaseState | null;
  rollout: { percent: number; state: RolloutState } | null;
  /** Active machines that run it now, and their share (0–1) of the tool's active machines. */
  machines: number;
  share: number;
  /** Machines that were offered it, downloaded one of its files, reported running it, ever. */
  offered: number;
  downloaded: number;
  running: number;
  /** The same three per day over the last days (cumulative), for the chart. */
  days: AdoptionDay[];
};

export type ToolAdoption = {
  toolId: string;
  toolName: string;
  activeMachines: number;
  /** Active machines that never reported a version (only validate, which does not send one). */
  unknownVersion: number;
  versions: VersionAdoption[];
};
