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
import { makeRoom } from '../kernel/ttl-cache';
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

type Published = Awaited<ReturnType<typeof publishedFor>>;
type Candidate = Published[number];

/** Per remembered list of installers: the archives it was merged with, and the candidates per kind of machine. */
const knownCandidates = new WeakMap<
  Published,
  { archives: Published; byMachine: Map<string, Candidate[]> }
>();
/** Kinds of machine remembered per tool: its fleet runs a handful of versions on a few architectures. */
const MACHINE_KINDS = 200;

/**
 * The files that could be offered to a machine of this architecture, version and OS, newest first: each release's
 * installer ahead of its archive (the sort is stable), only those above the running version that run on its OS. The
 * same for every such machine, so remembered while the published lists are the same objects (memory.ts), which a
 * change to any release replaces: a release day's checks do not parse and sort the versions again each time.
 */
function candidates(installers: Published, archives: Published, request: UpdateCheckRequest): Candidate[] {
  const key = `${request.platform} ${request.arch} ${request.version} ${request.osVersion ?? ''}`;
  let known = knownCandidates.get(installers);
  if (known?.archives !== archives) {
    known = { archives, byMachine: new Map() };
    knownCandidates.set(installers, known);
  }
  let found = known.byMachine.get(key);
  if (!found) {
    found = [...installers, ...archives]
      .filter(
        ({ release, artifact }) =>
          (artifact.arch === request.arch || artifact.arch === 'universal') &&
          semver.gt(release.version, request.version) &&
          runsOn(release, request.platform, request.osVersion),
      )
      .sort((a, b) => newestFirst(a.release, b.release));
    makeRoom(known.byMachine, MACHINE_KINDS);
    known.byMachine.set(key, found);
  }
  return found;
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
  const newer = candidates(installers, archives, request);
  const { entry, row, activationId } = checked;
  // One object per remembered machine (licenses/memory.ts): its rollout places and token are worked out once.
  let machine = entry.machine;
  if (machine?.activationId !== activationId || machine.updatesUntil !== row.updatesUntil) {
    machine = {
      activationId,
      updatesUntil: row.updatesUntil,
      updateToken: updateTokenOf(ctx.dataSecrets, activationId),
    };
    entry.machine = machine;
  }
  const offer = offerTo(machine, newer);
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
        url: artifactUrlOf(ctx.config.publicUrl, machine.updateToken, artifact),
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
      // Named one by one: an object rest (`...body`) was a twentieth of a check's CPU.
      (body) =>
        checkForUpdate(ctx, {
          ...asRequest(body),
          platform: body.platform,
          arch: body.arch,
          version: body.version,
          channel: body.channel,
          osVersion: body.osVersion,
        }),
    );
  });
}
