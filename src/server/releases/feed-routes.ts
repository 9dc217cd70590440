import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ARTIFACT_ARCHES,
  ARTIFACT_PLATFORMS,
  type ArtifactArch,
  type ArtifactPlatform,
} from '../../shared/releases';
import type { AppContext } from '../context';
import { sendJsonNotFound } from '../http/errors';
import { artifactUrlOf, type FeedOwner, liveFeedOwner } from '../licenses/update-tokens';
import { buildAppcast } from './appcast';
import { sendArtifact } from './artifact-download';
import { type ArtifactRow, findArtifact, findRelease, publishedArtifacts } from './store';
import { squirrelReleases, velopackChannel, velopackFeed } from './velopack-feed';

const MINUTE = 60 * 1000;
/** As the license API counts its callers (licenses/limits.ts): per address, shared with it, and per token. */
const PER_ADDRESS = 120;
const PER_TOKEN = 60;

const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value);

type TokenParams = { token: string };

/**
 * The update feeds of one activation, under its secret token (docs/updates.md): a Sparkle / WinSparkle appcast,
 * Velopack's `releases.<channel>.json` and Squirrel's `RELEASES`, and the files they point at. An unknown or dead
 * token is answered as any unknown address is, so nothing tells whether it ever existed.
 */
export async function updateFeedRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  /** The token's tool, counted against the limits; undefined when the token is not alive (the caller sends 404). */
  async function ownerOf(request: FastifyRequest<{ Params: TokenParams }>): Promise<FeedOwner | undefined> {
    ctx.licenseLimiter.consume({ key: `address:${request.ip}`, limit: PER_ADDRESS, windowMs: MINUTE });
    ctx.licenseLimiter.consume({ key: `update:${request.params.token}`, limit: PER_TOKEN, windowMs: MINUTE });
    return liveFeedOwner(ctx, request.params.token);
  }

  const feedHeaders = (reply: FastifyReply) =>
    reply.header('cache-control', 'private, no-store').header('x-robots-tag', 'noindex');

  async function appcast(
    request: FastifyRequest<{ Params: TokenParams; Querystring: { os?: string; arch?: string } }>,
    reply: FastifyReply,
    owner: FeedOwner,
  ) {
    const { os, arch } = request.query;
    if (
      (os !== undefined && !isOneOf(ARTIFACT_PLATFORMS, os)) ||
      (arch !== undefined && !isOneOf(ARTIFACT_ARCHES, arch))
    )
      return sendJsonNotFound(reply);
    const entries = (
      await publishedArtifacts(ctx.db, owner.toolId, {
        kind: 'sparkle',
        includeBeta: true,
        ...(os ? { platform: os as ArtifactPlatform } : {}),
      })
    ).filter(
      ({ artifact }) => !arch || artifact.arch === arch || artifact.arch === ('universal' as ArtifactArch),
    );
    const fileUrl = (artifact: ArtifactRow) =>
      artifactUrlOf(ctx.config.publicUrl, request.params.token, artifact);
    return feedHeaders(reply)
      .type('application/rss+xml; charset=utf-8')
      .send(buildAppcast(owner.toolName, entries, fileUrl));
  }

  async function velopackFile(
    request: FastifyRequest<{ Params: TokenParams }>,
    reply: FastifyReply,
    owner: FeedOwner,
    fileName: string,
  ) {
    const channel = /^releases\.(.+)\.json$/.exec(fileName)?.[1] ?? /^RELEASES-(.+)$/.exec(fileName)?.[1];
    const legacy = fileName === 'RELEASES' || fileName.startsWith('RELEASES-');
    const feed = velopackChannel(fileName === 'RELEASES' ? 'win' : (channel ?? ''));
    if (feed) {
      const entries = await publishedArtifacts(ctx.db, owner.toolId, { kind: 'velopack', ...feed });
      if (legacy) return feedHeaders(reply).type('text/plain; charset=utf-8').send(squirrelReleases(entries));
      return feedHeaders(reply)
        .type('application/json; charset=utf-8')
        .send(velopackFeed(owner.packageId, entries));
    }
    // A package the feed named by its relative FileName.
    const packages = await publishedArtifacts(ctx.db, owner.toolId, { kind: 'velopack', includeBeta: true });
    const found = packages.find(({ artifact }) => artifact.fileName === fileName);
    return found ? sendArtifact(ctx, request, reply, found.artifact) : sendJsonNotFound(reply);
  }

  app.get<{ Params: TokenParams & { file: string }; Querystring: { os?: string; arch?: string } }>(
    '/api/updates/:token/:file',
    async (request, reply) => {
      const owner = await ownerOf(request);
      if (!owner) return sendJsonNotFound(reply);
      if (request.params.file === 'appcast.xml') return appcast(request, reply, owner);
      return velopackFile(request, reply, owner, request.params.file);
    },
  );

  app.get<{ Params: TokenParams & { artifactId: string; fileName: string } }>(
    '/api/updates/:token/files/:artifactId/:fileName',
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
        return sendArtifact(ctx, request, reply, artifact);
      return sendJsonNotFound(reply);
    },
  );
}
