import semver from 'semver';
import { z } from 'zod';
import { totpCodeSchema } from './dashboard';
import {
  ARTIFACT_ARCHES,
  ARTIFACT_KINDS,
  ARTIFACT_PLATFORMS,
  MINIMUM_OS_PATTERN,
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

/** Empty means none. */
const minimumOsSchema = z
  .string()
  .trim()
  .refine(
    (text) => text === '' || MINIMUM_OS_PATTERN.test(text),
    'Write the OS version as numbers and dots, e.g. 12.0.',
  )
  .transform((text) => (text === '' ? null : text));

export const createReleaseSchema = z.strictObject({
  version: versionSchema,
  channel: z.enum(RELEASE_CHANNELS).default('stable'),
  notesMarkdown: notesSchema.default(''),
  minimumOsVersion: minimumOsSchema.nullable().optional(),
  critical: z.boolean().default(false),
});
export type CreateReleaseInput = z.input<typeof createReleaseSchema>;
export type NewRelease = z.output<typeof createReleaseSchema>;

export const editReleaseSchema = z.strictObject({
  channel: z.enum(RELEASE_CHANNELS).optional(),
  notesMarkdown: notesSchema.optional(),
  minimumOsVersion: minimumOsSchema.nullable().optional(),
  critical: z.boolean().optional(),
});
export type EditReleaseInput = z.input<typeof editReleaseSchema>;
export type ReleaseChanges = z.output<typeof editReleaseSchema>;

/** The form fields sent with an artifact's file (multipart), before the file part. */
export const artifactFieldsSchema = z.strictObject({
  platform: z.enum(ARTIFACT_PLATFORMS, { error: 'Choose the platform: windows or macos.' }),
  arch: z.enum(ARTIFACT_ARCHES, { error: 'Choose the architecture: x64, arm64 or universal.' }),
  kind: z.enum(ARTIFACT_KINDS, { error: 'Choose the kind: installer, sparkle or velopack.' }),
});

/** Publishing and yanking change what every buyer's updater sees: a fresh authenticator code each time. */
export const releaseActionSchema = z.strictObject({ code: totpCodeSchema });
