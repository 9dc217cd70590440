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
