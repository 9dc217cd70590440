import { z } from 'zod';
import { normaliseDeactivationCode, OFFLINE_MESSAGES, OFFLINE_REQUEST_MAX_CHARS } from './offline-activation';
import { ARTIFACT_ARCHES, ARTIFACT_PLATFORMS, RELEASE_CHANNELS } from './releases';

/** Request schemas of the license API (docs/license-api.md) and of My Tools' device routes. */

/** Printable text only: no control characters, no lone surrogates (a `u` regex sees those as \p{Cs}). */
const PRINTABLE = /^[^\p{C}]*$/u;

const fingerprint = z
  .string({ error: 'fingerprint is required and must be a string' })
  .regex(/^[A-Za-z0-9._:-]{16,128}$/, {
    error: 'fingerprint must be 16 to 128 characters of letters, digits, ".", "_", ":" or "-"',
  });
const licenseKey = z
  .string({ error: 'licenseKey must be a string' })
  .regex(/^[A-Za-z0-9-]{1,64}$/, { error: 'licenseKey must be up to 64 letters, digits or "-"' })
  .transform((value) => value.toUpperCase());
const username = z
  .string({ error: 'username must be a string' })
  .regex(/^[\x21-\x7e]{1,128}$/, { error: 'username must be 1 to 128 printable ASCII characters' });
const password = z
  .string({ error: 'password must be a string' })
  .regex(/^[\x20-\x7e]{1,128}$/, { error: 'password must be 1 to 128 printable ASCII characters' });
const deviceName = z
  .string({ error: 'name must be a string' })
  .max(64, { error: 'name must be at most 64 characters' })
  .regex(PRINTABLE, { error: 'name must contain printable characters only' })
  .transform((value) => value.trim() || undefined);

const authFields = {
  licenseKey: licenseKey.optional(),
  username: username.optional(),
  password: password.optional(),
  toolId: z.uuid({ error: 'toolId must be the tool id (a UUID)' }),
  fingerprint,
};

/** Exactly one way to prove the purchase: a license key, or the username and password of a credentials tool. */
function requireOneCredential(
  body: { licenseKey?: string; username?: string; password?: string },
  check: z.RefinementCtx,
) {
  const hasKey = body.licenseKey !== undefined;
  const hasAccount = body.username !== undefined || body.password !== undefined;
  if (hasKey && hasAccount) {
    check.addIssue({
      code: 'custom',
      path: ['licenseKey'],
      message: 'Send a licenseKey or a username and password, not both',
    });
  } else if (!hasKey && !hasAccount) {
    check.addIssue({ code: 'custom', path: ['licenseKey'], message: 'licenseKey is required' });
  } else if (hasAccount) {
    if (body.username === undefined)
      check.addIssue({ code: 'custom', path: ['username'], message: 'username is required' });
    if (body.password === undefined)
      check.addIssue({ code: 'custom', path: ['password'], message: 'password is required' });
  }
}

export const activateLicenseSchema = z
  .strictObject({ ...authFields, name: deviceName.optional() })
  .superRefine(requireOneCredential);
/** Validate and deactivate take the same fields: the credential, the tool and the machine. */
export const licenseMachineSchema = z.strictObject(authFields).superRefine(requireOneCredential);

export const deviceIdSchema = z.strictObject({ activationId: z.uuid({ error: 'Unknown device' }) });

/** `/api/my-licenses/:licenseId/…`: one of the buyer's licenses (a team member's own seat included). */
export const myLicenseIdSchema = z.strictObject({ licenseId: z.uuid({ error: 'License not found.' }) });

/**
 * `POST /api/my-licenses/:licenseId/offline-activations` (decision 061): the request text as the tool showed it or
 * saved it. Surrounding white space (a file's last line break, a pasted space) is not part of it.
 */
export const offlineActivationBodySchema = z.strictObject({
  request: z
    .string({ error: OFFLINE_MESSAGES.requestRequired })
    .trim()
    .min(1, { error: OFFLINE_MESSAGES.requestRequired })
    .max(OFFLINE_REQUEST_MAX_CHARS, { error: OFFLINE_MESSAGES.requestTooLong }),
});

/** What an offline request holds once decoded (the reference client's `createOfflineRequest` writes it). */
export const offlineRequestContentSchema = z.strictObject({
  v: z.literal(1),
  toolId: z.uuid(),
  fingerprint,
  name: deviceName.optional(),
  /** The reference client's version, for the operator's eyes. */
  client: z.string().regex(/^[\x21-\x7e]{1,32}$/),
  /** 16 to 48 random bytes in base64url: the response must carry it back. */
  nonce: z.string().regex(/^[A-Za-z0-9_-]{22,64}$/),
  createdAt: z.iso.datetime(),
});

/** `POST /api/my-licenses/:licenseId/offline-deactivations`: the code the tool showed, as typed. */
export const offlineDeactivationBodySchema = z.strictObject({
  code: z
    .string({ error: OFFLINE_MESSAGES.codeRequired })
    .trim()
    .min(1, { error: OFFLINE_MESSAGES.codeRequired })
    .max(64, { error: OFFLINE_MESSAGES.codeMalformed })
    .transform((typed, issue) => {
      const code = normaliseDeactivationCode(typed);
      if (code) return code;
      issue.addIssue({ code: 'custom', message: OFFLINE_MESSAGES.codeMalformed });
      return z.NEVER;
    }),
});

/** A semantic version as tools report theirs: 1.2.3, 1.2.3-beta.1, with optional build metadata. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

/** `POST /api/licenses/update-check`: validate's fields plus what the tool runs on and which version it is. */
export const updateCheckSchema = z
  .strictObject({
    ...authFields,
    platform: z.enum(ARTIFACT_PLATFORMS, {
      error: `platform must be one of ${ARTIFACT_PLATFORMS.join(', ')}`,
    }),
    arch: z.enum(ARTIFACT_ARCHES, { error: `arch must be one of ${ARTIFACT_ARCHES.join(', ')}` }),
    version: z
      .string({ error: 'version is required and must be a string' })
      .max(64, { error: 'version must be at most 64 characters' })
      .regex(SEMVER, { error: 'version must be a semantic version such as 1.2.0' })
      // Semantic Versioning compares numbers: past 2^53 − 1 no comparison is exact (and `semver` refuses them).
      .refine(
        (version) =>
          version
            .split(/[-+]/, 1)[0]
            ?.split('.')
            .every((part) => Number.isSafeInteger(+part)),
        {
          error: `version numbers must be at most ${Number.MAX_SAFE_INTEGER}`,
        },
      ),
    channel: z.enum(RELEASE_CHANNELS, { error: 'channel must be stable or beta' }).optional(),
    /** The running OS's version (macOS 13.4.1, Windows 10.0.19045): releases whose minimum is above it are left out. */
    osVersion: z
      .string({ error: 'osVersion must be a string such as 10.0.19045 or 13.4.1' })
      .regex(/^\d{1,6}(\.\d{1,6}){0,3}$/, {
        error: 'osVersion must be numbers and dots, such as 10.0.19045 or 13.4.1',
      })
      .optional(),
  })
  .superRefine(requireOneCredential);
