import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { downloadRefusalSchema } from '../../shared/api-schemas';
import { DOWNLOAD_LINK_VALID_MS } from '../../shared/constants';
import { currentUser, requireUser } from '../auth/session';
import type { DbOrTx, Tx } from '../db';
import { tools } from '../db/schema/catalogue';
import { downloadTokens } from '../db/schema/downloads';
import { licenses } from '../db/schema/licenses';
import { purchases } from '../db/schema/orders';
import { trials } from '../db/schema/trials';
import { answerIn, fileBytes, noBody, refusals } from '../http/answers';
import { contentDisposition } from '../http/content-disposition';
import { pathStrings } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { heldPurchaseOf } from '../licenses/lookup';
import { documented, SESSION } from '../openapi/openapi';
import { artifactAnswers, sendArtifact } from '../releases/artifact-download';
import { findArtifact, findRelease } from '../releases/store';

export const INVALID_LINK_PATH = '/utility-tools/invalid-link';
const TOKEN_PATTERN = /^[\w-]{43}$/;

export const hashDownloadToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const downloadUrl = (ctx: AppContext, token: string) =>
  `${ctx.config.publicUrl}/api/downloads/${token}`;

/**
 * A new download link for one purchase: 256 random bits in the URL, only their hash stored, valid for 3 hours
 * from now. Each email gets its own link; older ones keep working until they expire.
 */
export async function createDownloadToken(
  ctx: AppContext,
  db: DbOrTx,
  /** A purchase's link, or a free trial's. */
  owner: ({ purchaseId: string } | { trialId: string }) & {
    userId: string;
    toolId: string;
    artifactId?: string;
  },
): Promise<{ token: string; url: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + DOWNLOAD_LINK_VALID_MS);
  await db.insert(downloadTokens).values({
    tokenHash: hashDownloadToken(token),
    ...owner,
    expiresAt,
    createdAt: now,
  });
  return { token, url: downloadUrl(ctx, token), expiresAt };
}

const CONTENT_TYPES: Record<string, string> = {
  '.zip': 'application/zip',
  '.dmg': 'application/x-apple-diskimage',
  '.pkg': 'application/octet-stream',
  '.exe': 'application/vnd.microsoft.portable-executable',
  '.msi': 'application/x-msi',
  '.pdf': 'application/pdf',
};

/** What a download may be: a tool's file by its name's extension, or a release's installer. */
const DOWNLOAD_TYPES = Object.fromEntries(
  [...new Set([...Object.values(CONTENT_TYPES), 'application/octet-stream'])].map((type) => [
    type,
    fileBytes,
  ]),
);

function contentTypeOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return (dot >= 0 && CONTENT_TYPES[fileName.slice(dot).toLowerCase()]) || 'application/octet-stream';
}

/** What `refuse` answers: the invalid-link page, or 404 to a client that asks for JSON. */
const refusedDownload = {
  302: noBody(`Not a live link of this visitor: to the invalid-link page (${INVALID_LINK_PATH})`),
  404: downloadRefusalSchema.describe('The same, to a client that accepts JSON and not HTML'),
};

/**
 * Anything that is not a live link of this visitor ends on the invalid-link page. A client that asks for JSON
 * (an API test, a script) gets a plain 404 instead of a redirect to an HTML page.
 */
function refuse(request: FastifyRequest, reply: FastifyReply) {
  reply.header('cache-control', 'no-store');
  const accept = request.headers.accept ?? '';
  if (accept.includes('application/json') && !accept.includes('text/html')) {
    const message = 'This download link is invalid or has expired.';
    return reply.status(404).send({ code: 'not_found', status: 'error', message, error: message });
  }
  return reply.redirect(INVALID_LINK_PATH, 302);
}

/** An installer of a published release (never a draft's or a yanked one's), with its tool. */
async function publishedInstaller(ctx: AppContext, artifactId: string) {
  const artifact = await findArtifact(ctx.db, artifactId);
  const release = artifact && (await findRelease(ctx.db, artifact.releaseId));
  if (artifact?.kind !== 'installer' || release?.state !== 'published') return undefined;
  return { artifact, toolId: release.toolId };
}

/** The owner's running (not ended, not bought) trial of a tool, or undefined: a trial downloads while it runs. */
async function runningTrial(ctx: AppContext, userId: string, toolId: string) {
  const [trial] = await ctx.db
    .select({ id: trials.id })
    .from(trials)
    .innerJoin(licenses, eq(licenses.id, trials.licenseId))
    .where(
      and(
        eq(trials.userId, userId),
        eq(trials.toolId, toolId),
        eq(licenses.status, 'trial'),
        gt(licenses.expiresAt, ctx.clock.now()),
      ),
    )
    .limit(1);
  return trial;
}

/** What a My Tools download link is issued for: the live purchase of the tool, else its running trial. */
async function downloadOwner(ctx: AppContext, userId: string, toolId: string) {
  // Refunded, disputed (suspended) and revoked purchases download nothing; a seat of a team does (decision 051).
  const purchase = await heldPurchaseOf(ctx.db, { userId, toolId }, ['active']);
  if (purchase) return { purchaseId: purchase.id };
  const trial = await runningTrial(ctx, userId, toolId);
  return trial && { trialId: trial.id };
}

export async function downloadRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  /**
   * My Tools' download button for one installer: a fresh 3-hour link of the signed-in owner (or, while it runs, of
   * their trial), to which the browser is sent at once. Anyone else, and any file that is not an installer of a published release, is refused.
   */
  app.get(
    '/api/my-tools/installers/:artifactId',
    documented({
      tags: ['Account'],
      summary:
        'Download an installer: a fresh 3-hour link of the buyer (or their running trial), followed at once',
      security: SESSION,
      params: pathStrings('artifactId'),
      response: {
        303: noBody('To the download link (Location: /api/downloads/<token>)'),
        ...refusedDownload,
        ...refusals(401),
      },
    }),
    async (request, reply) => {
      const user = await requireUser(ctx, request);
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      const installer = await publishedInstaller(ctx, request.params.artifactId);
      const owner = installer && (await downloadOwner(ctx, user.id, installer.toolId));
      if (!installer || !owner) return refuse(request, reply);
      const { token } = await createDownloadToken(ctx, ctx.db, {
        ...owner,
        userId: user.id,
        toolId: installer.toolId,
        artifactId: installer.artifact.id,
      });
      return reply.redirect(`/api/downloads/${token}`, 303);
    },
  );

  const download = documented({
    tags: ['Account'],
    summary:
      'Download a bought tool or an installer by its link (from an email or My Tools), valid for 3 hours',
    description: 'Needs no sign-in; a signed-in visitor may use only their own links. Resumes with Range.',
    params: pathStrings('token'),
    response: {
      ...artifactAnswers,
      200: answerIn('The file', DOWNLOAD_TYPES),
      ...refusedDownload,
      ...refusals(),
    },
  });
  app.get('/api/downloads/:token', download, async (request, reply) => {
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-robots-tag', 'noindex');
    const { token } = request.params;
    if (!TOKEN_PATTERN.test(token)) return refuse(request, reply);

    const [link] = await ctx.db
      .select({
        userId: downloadTokens.userId,
        toolId: downloadTokens.toolId,
        artifactId: downloadTokens.artifactId,
        fileKey: tools.fileKey,
        fileName: tools.fileName,
      })
      .from(downloadTokens)
      .leftJoin(purchases, eq(purchases.id, downloadTokens.purchaseId))
      .leftJoin(trials, eq(trials.id, downloadTokens.trialId))
      .innerJoin(
        licenses,
        or(
          and(eq(licenses.purchaseId, purchases.id), eq(licenses.holderId, downloadTokens.userId)),
          eq(licenses.id, trials.licenseId),
        ),
      )
      .innerJoin(tools, eq(tools.id, downloadTokens.toolId))
      .where(
        and(
          eq(downloadTokens.tokenHash, hashDownloadToken(token)),
          gt(downloadTokens.expiresAt, ctx.clock.now()),
          isNull(purchases.refundedAt),
          // A disputed (suspended) or revoked license downloads nothing until the dispute is won; a trial's link
          // works while the trial runs (and after it was bought).
          or(
            eq(licenses.status, 'active'),
            and(eq(licenses.status, 'trial'), gt(licenses.expiresAt, ctx.clock.now())),
          ),
        ),
      )
      .limit(1);
    if (!link) return refuse(request, reply);

    // The link works without logging in (it arrives by email), but a signed-in visitor may only use their own.
    const viewer = await currentUser(ctx, request);
    if (viewer && viewer.id !== link.userId) return refuse(request, reply);

    if (link.artifactId) {
      const installer = await publishedInstaller(ctx, link.artifactId);
      if (installer?.toolId !== link.toolId) return refuse(request, reply);
      return sendArtifact(ctx, request, reply, installer.artifact);
    }
    if (!link.fileKey || !link.fileName) return refuse(request, reply);

    const file = await ctx.storage.open(link.fileKey);
    if (!file) {
      request.log.error({ fileKey: link.fileKey }, 'download file missing from storage');
      const message = 'This download is temporarily unavailable. Please contact support.';
      return reply.status(503).send({ code: 'file_unavailable', status: 'error', message, error: message });
    }
    return reply
      .header('content-type', contentTypeOf(link.fileName))
      .header('content-length', String(file.size))
      .header('content-disposition', contentDisposition(link.fileName))
      .header('cache-control', 'private, no-store')
      .send(file.stream);
  });
}

/** A refunded purchase's download links stop working: they are deleted, in the refund's transaction. */
export async function revokeDownloadLinks(tx: Tx, purchaseId: string): Promise<number> {
  const revoked = await tx
    .delete(downloadTokens)
    .where(eq(downloadTokens.purchaseId, purchaseId))
    .returning({ tokenHash: downloadTokens.tokenHash });
  return revoked.length;
}

/** Erasure: every download link made for the person. */
export async function deleteDownloadLinksOf(tx: Tx, userId: string): Promise<void> {
  await tx.delete(downloadTokens).where(eq(downloadTokens.userId, userId));
}
