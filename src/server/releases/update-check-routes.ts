import type { FastifyInstance } from 'fastify';
import semver from 'semver';
import { CURRENCIES } from '../../shared/constants';
import { updateCheckSchema } from '../../shared/license-schemas';
import { LICENSE_CODES, type UpdateCheckAnswer } from '../../shared/licenses';
import {
  type ArtifactArch,
  type ArtifactPlatform,
  RELEASE_CHANNELS,
  type ReleaseChannel,
} from '../../shared/releases';
import type { AppContext } from '../kernel/context';
import { granted } from '../licenses/answers';
import type { LicenseRequest } from '../licenses/lookup';
import { asRequest, registerLicenseApi } from '../licenses/routes';
import { artifactUrlOf, updateTokenOf } from '../licenses/update-tokens';
import { checkMachine } from '../licenses/validate';
import { publishedFor } from './memory';
import { renderNotes } from './notes';
import { offerTo } from './offer';
import { renewalOffer } from './renewal';
import { newestFirst, type ReleaseRow } from './store';

type UpdateCheckRequest = LicenseRequest & {
  platform: ArtifactPlatform;
  arch: ArtifactArch;
  version: string;
  channel?: ReleaseChannel;
  osVersion?: string | undefined;
};

/** Dotted OS versions compared number by number, a missing part as 0 (10.0 = 10.0.0 < 10.0.17763). */
function compareOsVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

/** Whether a release runs on the client's OS version: its platform's minimum (when both are known) is not above it. */
function runsOn(release: ReleaseRow, platform: ArtifactPlatform, osVersion: string | undefined): boolean {
  const minimum = platform === 'macos' ? release.minimumMacosVersion : release.minimumWindowsVersion;
  return !minimum || !osVersion || compareOsVersions(minimum, osVersion) <= 0;
}

/**
 * The newest published release above the tool's version for its platform and architecture (a universal file fits
 * either), stable only unless it asks for beta, that this machine is offered (its rollout reaches it and its
 * license's update period covers it: releases/offer.ts). What it offers is the release's `installer` for that
 * platform — the file a person runs, as My Tools offers it — and, for a release that has none, its Sparkle archive;
 * Velopack packages are left to Velopack's own feed. A newer release beyond the update period is named under
 * `renewal`. The license is checked exactly as validate checks it; the version it runs is noted for the adoption
 * figures (at most hourly per machine).
 */
export async function checkForUpdate(
  ctx: AppContext,
  request: UpdateCheckRequest,
): Promise<UpdateCheckAnswer> {
  const checked = await checkMachine(ctx, request);
  if (!checked.valid) return { valid: false, code: checked.code, update: null, renewal: null };
  // A running trial answers TRIAL, as validate does, and is offered updates like a bought license.
  const { code } = granted(checked.row);

  const filter = { platform: request.platform, includeBeta: request.channel === 'beta' };
  const [installers, archives] = await Promise.all([
    publishedFor(ctx, request.toolId, { kind: 'installer', ...filter }),
    publishedFor(ctx, request.toolId, { kind: 'sparkle', ...filter }),
  ]);
  // Sorting is stable: within one release the installer stays ahead of the archive.
  const newer = [...installers, ...archives]
    .filter(
      ({ release, artifact }) =>
        (artifact.arch === request.arch || artifact.arch === 'universal') &&
        semver.gt(release.version, request.version) &&
        runsOn(release, request.platform, request.osVersion),
    )
    .sort((a, b) => newestFirst(a.release, b.release));
  const { row, activationId } = checked;
  const offer = offerTo({ activationId, updatesUntil: row.updatesUntil }, newer);
  const [best] = offer.installable;
  const [beyond] = offer.announced;
  const [renewal] = await Promise.all([
    beyond ? renewalOffer(ctx, row.id, beyond.release) : null,
    ctx.adoption.sighted({
      activationId,
      toolId: request.toolId,
      version: request.version,
      offeredReleaseId: best?.release.id ?? null,
    }),
  ]);
  if (!best) return { valid: true, code, update: null, renewal };

  const { release, artifact } = best;
  const token = updateTokenOf(ctx.dataSecrets, checked.activationId);
  return {
    valid: true,
    code,
    update: {
      version: release.version,
      channel: release.channel,
      notesHtml: renderNotes(release.notesMarkdown),
      publishedAt: (release.publishedAt ?? release.createdAt).toISOString(),
      critical: release.critical,
      artifact: {
        url: artifactUrlOf(ctx.config.publicUrl, token, artifact),
        fileName: artifact.fileName,
        size: artifact.size,
        sha256: artifact.sha256,
        signature: artifact.signature,
        kid: artifact.kid,
      },
    },
    renewal,
  };
}

/** The update check's `200` answer as a response schema: serialised from it, and nothing else can leak out. */
const updateCheckResponse = {
  200: {
    description: "Validate's code, and the update when the license is valid and one is newer",
    type: 'object',
    required: ['valid', 'code', 'update', 'renewal'],
    properties: {
      valid: { type: 'boolean' },
      code: { type: 'string', enum: LICENSE_CODES },
      update: {
        type: ['object', 'null'],
        required: ['version', 'channel', 'notesHtml', 'publishedAt', 'critical', 'artifact'],
        properties: {
          version: { type: 'string' },
          channel: { type: 'string', enum: RELEASE_CHANNELS },
          notesHtml: { type: 'string' },
          publishedAt: { type: 'string' },
          critical: { type: 'boolean' },
          artifact: {
            type: 'object',
            required: ['url', 'fileName', 'size', 'sha256', 'signature', 'kid'],
            properties: {
              url: { type: 'string' },
              fileName: { type: 'string' },
              size: { type: 'integer' },
              sha256: { type: 'string' },
              signature: { type: 'string' },
              kid: { type: 'string' },
            },
          },
        },
      },
      renewal: {
        type: ['object', 'null'],
        description: "A newer release than the license's update period covers, and what renewing would cost",
        required: ['version', 'price', 'currency', 'url'],
        properties: {
          version: { type: 'string' },
          price: { type: ['integer', 'null'], description: 'Subunits (paise, cents), GST included' },
          currency: { type: 'string', enum: CURRENCIES },
          url: { type: 'string' },
        },
      },
    },
  },
} as const;

/** `POST /api/licenses/update-check`: part of the license API, with its parsing, limits and error answers. */
export async function updateCheckRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await registerLicenseApi(app, ctx, (call) => {
    call(
      'update-check',
      updateCheckResponse,
      {
        summary: 'Ask for the newest release this machine may update to',
        description:
          "Validate's fields plus the platform, architecture, running version and channel; `update` is null when there is none, or the license is not valid; `renewal` names a newer release beyond the license's update period.",
        body: updateCheckSchema,
      },
      ({ platform, arch, version, channel, osVersion, ...body }) =>
        checkForUpdate(ctx, { ...asRequest(body), platform, arch, version, channel, osVersion }),
    );
  });
}
