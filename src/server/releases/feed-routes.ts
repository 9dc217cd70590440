import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import semver from 'semver';
import { z } from 'zod';
import { ARTIFACT_ARCHES, ARTIFACT_PLATFORMS, RELEASE_CHANNELS } from '../../shared/releases';
import { answerIn, fileBytes, noBody, refusals } from '../http/answers';
import { etagMatches } from '../http/conditional';
import { sendJsonNotFound } from '../http/errors';
import { pathStrings } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { makeRoom } from '../kernel/ttl-cache';
import { artifactUrlOf, type FeedOwner, liveFeedOwner } from '../licenses/update-tokens';
import { documented } from '../openapi/openapi';
import { reportedVersion, versionFromUserAgent } from './adoption';
import { buildAppcast } from './appcast';
import { artifactAnswers, sendArtifact } from './artifact-download';
import { publishedFor } from './memory';
import { offerTo, withinUpdates } from './offer';
import { renewalUrlOf } from './renewal';
import { type ArtifactRow, findArtifact, findRelease, type ReleaseRow } from './store';
import { squirrelReleases, velopackChannel, velopackFeed } from './velopack-feed';

const MINUTE = 60 * 1000;
/** As the license API counts its callers (licenses/limits.ts): per address, shared with it, and per token. */
const PER_ADDRESS = 120;
const PER_TOKEN = 60;

const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value);

type TokenParams = { token: string };
/**
 * Checked by the appcast itself: a value it does not know is an unknown address (404), as before. Velopack's
 * `localVersion` (the version the app runs) is read for the adoption figures; anything else is ignored.
 */
const appcastQuery = z.object({
  os: z.string().optional(),
  arch: z.string().optional(),
  channel: z.string().optional(),
  localVersion: z.string().optional(),
});
type AppcastQuery = z.output<typeof appcastQuery>;

/** Velopack's `releases.<channel>.json`, whose fields Velopack defines (docs/updates.md). */
const velopackFeedSchema = z.object({ Assets: z.array(z.record(z.string(), z.unknown())) });

/**
 * Bumped whenever what the feed builders write for the same inputs changes (appcast.ts, velopack-feed.ts): a feed's
 * ETag is made from its inputs, so without it a client would keep a feed of the old shape until a release changed.
 */
const FEED_FORMAT = 'feeds 2026-12-07';

type Entry = { release: ReleaseRow; artifact: ArtifactRow };

/**
 * One published file's part of a feed's ETag: a digest of every field of its release and its row. Remembered per
 * entry: the remembered releases (memory.ts) hand out the same entries until a change replaces them.
 */
const entryDigests = new WeakMap<Entry, string>();
function entryDigest(entry: Entry): string {
  let digest = entryDigests.get(entry);
  if (digest === undefined) {
    digest = createHash('sha256')
      .update(JSON.stringify([entry.release, entry.artifact]))
      .digest('base64url');
    entryDigests.set(entry, digest);
  }
  return digest;
}

/** How many built feeds are kept: one per tool, narrowing and set of files that machines are offered. */
const BUILT_FEEDS = 500;
const builtFeeds = new Map<string, string>();

type Published = Awaited<ReturnType<typeof publishedFor>>;
/** A feed's offer to one machine at one address, and its ETag (`offeredAt`). */
type Offered = {
  /** The published files it was worked out from: while `publishedFor` hands out this same list, it holds. */
  published: Published;
  installable: Entry[];
  announced: Entry[];
  /** The digests of the files offered and announced: what a built feed is kept under. */
  files: string;
  etag: string;
};
/** Per remembered machine (`liveFeedOwner`), per address asked: an appcast, a Velopack channel, their queries. */
const offeredFeeds = new WeakMap<FeedOwner, Map<string, Offered>>();
/** Addresses remembered per machine: the few its updater asks, not every query string anyone sends. */
const ADDRESSES_PER_MACHINE = 8;

/**
 * What an appcast is built with in place of the machine's token and license, then replaced by them: random, so no
 * text of a feed holds them by chance, and of a token's and a license id's alphabets, which XML leaves as they are.
 */
const STAND_IN = { token: randomBytes(32).toString('base64url'), licenseId: randomUUID() };

/** What an unknown address, or a token that is not alive, is answered (the one error shape): nothing tells which. */
const unknownAddress = {
  ...refusals(404, 429),
  503: artifactAnswers[503],
};

/**
 * The update feeds of one activation, under its secret token (docs/updates.md): a Sparkle / WinSparkle appcast,
 * Velopack's `releases.<channel>.json` and Squirrel's `RELEASES`, and the files they point at. An unknown or dead
 * token is answered as any unknown address is, so nothing tells whether it ever existed.
 */
export async function updateFeedRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  /** Where a file is downloaded under the stand-in token: what an appcast built for many machines lists. */
  const standInFileUrl = (artifact: ArtifactRow) =>
    artifactUrlOf(ctx.config.publicUrl, STAND_IN.token, artifact);
  /** The token's tool, counted against the limits; undefined when the token is not alive (the caller sends 404). */
  async function ownerOf(request: FastifyRequest<{ Params: TokenParams }>): Promise<FeedOwner | undefined> {
    ctx.licenseLimiter.consume({ key: `address:${request.ip}`, limit: PER_ADDRESS, windowMs: MINUTE });
    ctx.licenseLimiter.consume({ key: `update:${request.params.token}`, limit: PER_TOKEN, windowMs: MINUTE });
    return liveFeedOwner(ctx, request.params.token);
  }

  /**
   * A feed with a strong ETag (every installed copy polls it): `304` to a matching `If-None-Match` (RFC 9110
   * §13.1.2). `no-cache` rather than `no-store`, so a client may keep it and revalidate. The ETag is the offer's
   * (`offeredAt`), so a client that has the feed is answered without building it.
   *
   * A feed is built once for each set of files and narrowing (`feed.key`), with stand-ins for what is the machine's
   * own, which `feed.personal` puts in: the machines a rollout reaches get the same feed but for their token, and so
   * do the machines it does not reach.
   */
  function sendFeed(
    request: FastifyRequest,
    reply: FastifyReply,
    offer: Offered,
    feed: { type: string; key: string; build: () => string; personal?: (built: string) => string },
  ) {
    reply
      .header('cache-control', 'private, no-cache')
      .header('x-robots-tag', 'noindex')
      .header('etag', offer.etag)
      .header('vary', 'accept-encoding');
    if (etagMatches(request.headers['if-none-match'], offer.etag)) return reply.status(304).send();
    const key = `${feed.type}\n${feed.key}\n${offer.files}`;
    let built = builtFeeds.get(key);
    if (built === undefined) {
      makeRoom(builtFeeds, BUILT_FEEDS);
      built = feed.build();
      builtFeeds.set(key, built);
    }
    return reply.type(feed.type).send(feed.personal ? feed.personal(built) : built);
  }

  /**
   * What the feed at this address offers the machine, and its ETag: a digest of everything the feed is built from
   * (its address, which holds the token and the query; the machine and its license; the files offered and announced,
   * every field of each; the site's address). Worked out again only when the machine or the published files changed,
   * which are the same remembered objects until then (`liveFeedOwner`, `publishedFor`): most of a release day's
   * requests are a fleet revalidating what it has.
   */
  function offeredAt(
    owner: FeedOwner,
    url: string,
    published: Published,
    offer: () => { installable: Entry[]; announced?: Entry[] },
  ): Offered {
    let byAddress = offeredFeeds.get(owner);
    const known = byAddress?.get(url);
    if (known?.published === published) return known;
    const { installable, announced = [] } = offer();
    const files = `${installable.map(entryDigest).join(' ')} | ${announced.map(entryDigest).join(' ')}`;
    const etag = `"${createHash('sha256')
      .update(`${FEED_FORMAT}\n${ctx.config.publicUrl}\n${url}\n${JSON.stringify(owner)}\n${files}`)
      .digest('base64url')}"`;
    const offered = { published, installable, announced, files, etag };
    if (!byAddress) {
      byAddress = new Map();
      offeredFeeds.set(owner, byAddress);
    }
    makeRoom(byAddress, ADDRESSES_PER_MACHINE);
    byAddress.set(url, offered);
    return offered;
  }

  /**
   * Notes what the machine runs and the newest release its feed offers above it (releases/adoption.ts: at most one
   * write an hour per machine, so a polled feed stays a read).
   */
  function sighted(
    owner: FeedOwner,
    version: string | null,
    offered: ReadonlyArray<{ release: ReleaseRow }>,
  ) {
    const newest = offered.find(({ release }) => version === null || semver.gt(release.version, version));
    return ctx.adoption.sighted({
      activationId: owner.activationId,
      toolId: owner.toolId,
      version,
      offeredReleaseId: newest?.release.id ?? null,
    });
  }

  async function appcast(
    request: FastifyRequest<{ Params: TokenParams; Querystring: AppcastQuery }>,
    reply: FastifyReply,
    owner: FeedOwner,
  ) {
    const { os, arch, channel } = request.query;
    if (
      (os !== undefined && !isOneOf(ARTIFACT_PLATFORMS, os)) ||
      (arch !== undefined && !isOneOf(ARTIFACT_ARCHES, arch)) ||
      (channel !== undefined && !isOneOf(RELEASE_CHANNELS, channel))
    )
      return sendJsonNotFound(reply);
    // Stable only unless the URL asks for betas: WinSparkle never reads sparkle:channel.
    const entries = await publishedFor(ctx, owner.toolId, {
      kind: 'sparkle',
      includeBeta: channel === 'beta',
      ...(os ? { platform: os } : {}),
    });
    const filter = { ...(os ? { os } : {}), ...(arch ? { arch } : {}) };
    const offer = offeredAt(owner, request.url, entries, () => ({
      installable: offerTo(owner, entries).installable,
      // Announced to Sparkle only, and only above what it may install for macOS: WinSparkle skips the item.
      announced: offerTo(
        owner,
        entries.filter(({ artifact }) => artifact.platform === 'macos'),
      ).announced,
    }));
    const { installable, announced } = offer;
    // Sparkle and WinSparkle name the app's version in their User-Agent, and which of them asks.
    const userAgent = request.headers['user-agent'];
    const client = /\bWinSparkle\//.test(userAgent ?? '')
      ? 'windows'
      : /\bSparkle\//.test(userAgent ?? '')
        ? 'macos'
        : null;
    await sighted(
      owner,
      versionFromUserAgent(userAgent),
      client ? installable.filter(({ artifact }) => artifact.platform === client) : installable,
    );
    return sendFeed(request, reply, offer, {
      type: 'application/rss+xml; charset=utf-8',
      key: `${owner.toolName}\n${os} ${arch}`,
      build: () =>
        buildAppcast(owner.toolName, installable, filter, standInFileUrl, {
          entries: announced,
          renewalUrl: renewalUrlOf(ctx.config.publicUrl, STAND_IN.licenseId),
        }),
      personal: (built) =>
        built
          .replaceAll(STAND_IN.token, request.params.token)
          .replaceAll(STAND_IN.licenseId, owner.licenseId),
    });
  }

  async function velopackFile(
    request: FastifyRequest<{ Params: TokenParams; Querystring: AppcastQuery }>,
    reply: FastifyReply,
    owner: FeedOwner,
    fileName: string,
  ) {
    const channel = /^releases\.(.+)\.json$/.exec(fileName)?.[1] ?? /^RELEASES-(.+)$/.exec(fileName)?.[1];
    const legacy = fileName === 'RELEASES' || fileName.startsWith('RELEASES-');
    const feed = velopackChannel(fileName === 'RELEASES' ? 'win' : (channel ?? ''));
    if (feed) {
      const published = await publishedFor(ctx, owner.toolId, {
        kind: 'velopack',
        platform: feed.platform,
        includeBeta: feed.includeBeta,
      });
      const offer = offeredAt(owner, request.url, published, () =>
        offerTo(
          owner,
          published.filter(({ artifact }) => feed.arches.includes(artifact.arch)),
        ),
      );
      const { installable } = offer;
      await sighted(owner, reportedVersion(request.query.localVersion), installable);
      return sendFeed(
        request,
        reply,
        offer,
        legacy
          ? { type: 'text/plain; charset=utf-8', key: '', build: () => squirrelReleases(installable) }
          : {
              type: 'application/json; charset=utf-8',
              key: owner.packageId,
              build: () => JSON.stringify(velopackFeed(owner.packageId, installable)),
            },
      );
    }
    // A package the feed named by its relative FileName.
    const packages = await publishedFor(ctx, owner.toolId, { kind: 'velopack', includeBeta: true });
    const found = packages.find(({ artifact }) => artifact.fileName === fileName);
    return found ? download(request, reply, owner, found) : sendJsonNotFound(reply);
  }

  /**
   * A file of a published release, if the license's update period covers the release (a halted rollout keeps its
   * files for the machines that have it): the first download per machine and release is noted for the adoption
   * figures and the rollout watch.
   */
  async function download(
    request: FastifyRequest,
    reply: FastifyReply,
    owner: FeedOwner,
    { release, artifact }: { release: ReleaseRow; artifact: ArtifactRow },
  ) {
    if (!withinUpdates(release, owner.updatesUntil)) return sendJsonNotFound(reply);
    await ctx.adoption.downloaded(owner.activationId, release.id);
    return sendArtifact(ctx, request, reply, artifact);
  }

  app.get(
    '/api/updates/:token/:file',
    documented({
      tags: ['Updates'],
      summary:
        "An activation's update feed: Sparkle's appcast.xml, Velopack's releases.<channel>.json and RELEASES, or a package",
      description:
        'Under the secret token of one activation (from activate). A feed carries a strong ETag: If-None-Match answers 304.',
      params: pathStrings('token', 'file'),
      querystring: appcastQuery,
      response: {
        ...artifactAnswers,
        200: answerIn('The feed, or the package it names', {
          'application/rss+xml': z
            .string()
            .describe('appcast.xml, for Sparkle and WinSparkle (?os, ?arch, ?channel=beta)'),
          'application/json': velopackFeedSchema,
          'text/plain': z.string().describe("Squirrel's RELEASES, for older Velopack clients"),
          'application/octet-stream': fileBytes,
        }),
        304: noBody('Unchanged: If-None-Match names the feed’s (or the file’s) ETag'),
        ...unknownAddress,
      },
    }),
    async (request, reply) => {
      const owner = await ownerOf(request);
      if (!owner) return sendJsonNotFound(reply);
      if (request.params.file === 'appcast.xml') return appcast(request, reply, owner);
      return velopackFile(request, reply, owner, request.params.file);
    },
  );

  app.get(
    '/api/updates/:token/files/:artifactId/:fileName',
    documented({
      tags: ['Updates'],
      summary: 'A release file a feed points to (streamed; Range resumes it)',
      params: pathStrings('token', 'artifactId', 'fileName'),
      response: { ...artifactAnswers, ...unknownAddress },
    }),
    async (request, reply) => {
      const owner = await ownerOf(request);
      if (!owner) return sendJsonNotFound(reply);
      // Only files of this token's tool, of published releases (any kind: an appcast's archive or a package).
      const artifact = await findArtifact(ctx.db, request.params.artifactId);
      const release = artifact && (await findRelease(ctx.db, artifact.releaseId));
      if (
        artifact &&
        release?.toolId === owner.toolId &&
        release.state === 'published' &&
        artifact.fileName === request.params.fileName
      )
        return download(request, reply, owner, { release, artifact });
      return sendJsonNotFound(reply);
    },
  );
}
