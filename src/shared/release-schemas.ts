import semver from 'semver';
import { z } from 'zod';
import { totpCodeSchema } from './dashboard';
import {
  ARTIFACT_ARCHES,
  ARTIFACT_KINDS,
  ARTIFACT_PLATFORMS,
  BUILD_NUMBER_MAX,
  MINIMUM_MACOS_PATTERN,
  MINIMUM_WINDOWS_PATTERN,
  RELEASE_CHANNELS,
  RELEASE_NOTES_MAX,
} from './releases';

/**
 * Request shapes of the operator's release routes (/api/admin/…/releases), kept apart from `releases.ts` so that
 * pages which only show versions do not load zod or semver.
 */

/** A semantic version ("1.2.0", "v1.2.0", "2.0.0-beta.1"), normalised ("v1.2.0" → "1.2.0"). */
export const versionSchema = z
  .string({ error: 'Give the version, e.g. 1.1.0.' })
  .trim()
  .transform((text, issue) => {
    const normalised = semver.valid(text);
    if (normalised) return normalised;
    issue.addIssue({
      code: 'custom',
      message: `"${text}" is not a semantic version; use MAJOR.MINOR.PATCH such as 1.1.0 (or 2.0.0-beta.1).`,
    });
    return z.NEVER;
  });

const notesSchema = z
  .string()
  .max(RELEASE_NOTES_MAX, `At most ${RELEASE_NOTES_MAX} characters of release notes.`);

/** A platform's minimum OS version in the form its updater reads; empty means none. */
const minimumOsSchema = (pattern: RegExp, message: string) =>
  z
    .string()
    .trim()
    .refine((text) => text === '' || pattern.test(text), message)
    .transform((text) => (text === '' ? null : text));
const minimumMacosSchema = minimumOsSchema(
  MINIMUM_MACOS_PATTERN,
  'Write the macOS version as major.minor or major.minor.patch, e.g. 12.0.',
);
const minimumWindowsSchema = minimumOsSchema(
  MINIMUM_WINDOWS_PATTERN,
  'Write the Windows version as major.minor.build, e.g. 10.0.17763.',
);

/** Given by the operator or, when absent, the tool's next number. */
const buildNumberSchema = z.coerce
  .number({ error: 'The build number is a whole number, e.g. 42.' })
  .int('The build number is a whole number, e.g. 42.')
  .min(1, 'The build number is at least 1.')
  .max(BUILD_NUMBER_MAX, `The build number is at most ${BUILD_NUMBER_MAX}.`);

export const createReleaseSchema = z.strictObject({
  version: versionSchema,
  channel: z.enum(RELEASE_CHANNELS).default('stable'),
  notesMarkdown: notesSchema.default(''),
  buildNumber: buildNumberSchema.nullable().optional(),
  minimumMacosVersion: minimumMacosSchema.nullable().optional(),
  minimumWindowsVersion: minimumWindowsSchema.nullable().optional(),
  critical: z.boolean().default(false),
});
export type CreateReleaseInput = z.input<typeof createReleaseSchema>;
export type NewRelease = z.output<typeof createReleaseSchema>;

export const editReleaseSchema = z.strictObject({
  channel: z.enum(RELEASE_CHANNELS).optional(),
  notesMarkdown: notesSchema.optional(),
  minimumMacosVersion: minimumMacosSchema.nullable().optional(),
  minimumWindowsVersion: minimumWindowsSchema.nullable().optional(),
  critical: z.boolean().optional(),
});
export type EditReleaseInput = z.input<typeof editReleaseSchema>;
export type ReleaseChanges = z.output<typeof editReleaseSchema>;

/** The form fields sent with an artifact's file (multipart), before the file part. */
export const artifactFieldsSchema = z.strictObject({
  platform: z.enum(ARTIFACT_PLATFORMS, { error: 'Choose the platform: windows or macos.' }),
  arch: z.enum(ARTIFACT_ARCHES, { error: 'Choose the architecture: x64, arm64, x86 or universal.' }),
  kind: z.enum(ARTIFACT_KINDS, { error: 'Choose the kind: installer, sparkle or velopack.' }),
  /** WinSparkle's `sparkle:installerArguments` (a Windows sparkle file only); empty means none. */
  installerArguments: z
    .string()
    .trim()
    .max(500, 'At most 500 characters of installer arguments.')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
    .refine((text) => !/[\u0000-\u001f\u007f]/.test(text), 'Installer arguments are one line of text.')
    .transform((text) => (text === '' ? null : text))
    .optional(),
});

/** Publishing and yanking change what every buyer's updater sees: a fresh authenticator code each time. */
export const releaseActionSchema = z.strictObject({ code: totpCodeSchema });

/** A whole percentage of machines, 1–100: a rollout's share, or the stuck share that halts it. */
const percentSchema = (what: string) =>
  z.coerce
    .number({ error: `${what} is a whole percentage from 1 to 100.` })
    .int(`${what} is a whole percentage from 1 to 100.`)
    .min(1, `${what} is a whole percentage from 1 to 100.`)
    .max(100, `${what} is a whole percentage from 1 to 100.`);
export const rolloutPercentSchema = percentSchema('The rollout');
const haltIfStuckSchema = percentSchema('The stuck share that halts the rollout');

const DURATION_UNITS = { d: 86_400, h: 3_600, m: 60, s: 1 } as const;
const PHASED_INTERVAL_MESSAGE =
  'Write the interval as a number with d, h, m or s, e.g. 1d or 12h (from 1 minute to 30 days).';

/**
 * Sparkle's `sparkle:phasedRolloutInterval` as the operator types it ("1d", "12h", "90m", "3600s"), in seconds:
 * Sparkle offers the item to its group g (0–6) once g intervals have passed since the item's pubDate.
 */
export const phasedIntervalSchema = z
  .string()
  .trim()
  .transform((text, issue) => {
    const match = /^(\d{1,7})\s*([dhms])$/i.exec(text);
    const seconds = match
      ? Number(match[1]) * DURATION_UNITS[(match[2] ?? 's').toLowerCase() as keyof typeof DURATION_UNITS]
      : Number.NaN;
    if (seconds >= 60 && seconds <= 30 * 86_400) return seconds;
    issue.addIssue({ code: 'custom', message: PHASED_INTERVAL_MESSAGE });
    return z.NEVER;
  });

/** How publishing starts a release's rollout: a share of the machines (default all), and its safeguards. */
export const rolloutStartSchema = z.strictObject({
  rolloutPercent: rolloutPercentSchema.default(100),
  phasedInterval: phasedIntervalSchema.nullable().optional(),
  haltIfStuckPercent: haltIfStuckSchema.nullable().optional(),
});
export type RolloutStart = z.output<typeof rolloutStartSchema>;

/** Publishing: the fresh code, and how the rollout starts. */
export const publishReleaseSchema = rolloutStartSchema.extend({ code: totpCodeSchema });
export type PublishReleaseInput = z.input<typeof publishReleaseSchema>;

/** A change to a published release's rollout: widen it, halt it, resume it or complete it. */
export const rolloutChangeSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('percent'), percent: rolloutPercentSchema }),
  z.strictObject({ action: z.literal('halt') }),
  z.strictObject({ action: z.literal('resume') }),
  z.strictObject({ action: z.literal('complete') }),
]);
export type RolloutChange = z.output<typeof rolloutChangeSchema>;
export type RolloutChangeInput = z.input<typeof rolloutChangeSchema>;

/** A rollout change changes what every buyer's updater sees, as publishing does: a fresh code each time. */
export const rolloutChangeRequestSchema = z.strictObject({
  code: totpCodeSchema,
  change: rolloutChangeSchema,
});
