import { and, eq, gt, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { packageIdOf } from '../../shared/releases';
import { tools } from '../db/schema/catalogue';
import { licenseActivations, licenses } from '../db/schema/licenses';
import { purchases } from '../db/schema/orders';
import { trials } from '../db/schema/trials';
import type { AppContext } from '../kernel/context';
import type { DataSecrets } from '../kernel/data-secrets';

/**
 * The secret in an activation's update-feed URLs (`/api/updates/<token>/`, docs/updates.md). It is derived from the
 * activation id with the data key, so activating the same machine again gives the same URLs without the token ever
 * being stored; the database holds only its keyed hash (`license_activations.update_token_hash`), which is how a feed
 * request finds its activation. It dies with the activation or the license: the feeds check both on every request.
 */
export function updateTokenOf(secrets: DataSecrets, activationId: string): string {
  return Buffer.from(secrets.lookupHash('update-token', activationId), 'hex').toString('base64url');
}

/** 32 bytes in base64url: anything else is not a token and is refused before the database is asked. */
export const UPDATE_TOKEN_PATTERN = /^[\w-]{43}$/;

export const updateTokenHash = (secrets: DataSecrets, token: string) =>
  secrets.lookupHash('update-token-hash', token);

/** Every key's hash of the token: a token handed out before a DATA_SECRET_KEY rotation still finds its row. */
export const updateTokenHashes = (secrets: DataSecrets, token: string) =>
  secrets.lookupHashes('update-token-hash', token);

/** The feed URLs an activate answer carries. Velopack's UpdateManager takes the folder and appends the file names. */
export function updateUrlsOf(publicUrl: string, token: string) {
  const base = `${publicUrl}/api/updates/${token}/`;
  return { appcastUrl: `${base}appcast.xml`, velopackUrl: base };
}

/**
 * The machine a live update token serves and its tool, or undefined for an unknown, freed, revoked, suspended or
 * ended one: its activation and its license's end of updates decide what its feeds offer (releases/offer.ts).
 */
export type FeedOwner = {
  toolId: string;
  toolName: string;
  packageId: string;
  activationId: string;
  licenseId: string;
  /** The license's end of updates (issue 65); null: every release. */
  updatesUntil: Date | null;
};

/**
 * The activation behind a token, if it is still alive: not freed, and its license either bought (active, not
 * suspended by a dispute, not revoked, its purchase not refunded) or a trial that has not ended — someone trying a
 * tool gets its fixes like a buyer (decision 035). Checked on every request, so a token dies the moment any of them
 * changes, and a trial's at its end.
 */
export async function liveFeedOwner(ctx: AppContext, token: string): Promise<FeedOwner | undefined> {
  if (!UPDATE_TOKEN_PATTERN.test(token)) return undefined;
  // Remembered only while this instance hears every license change as it commits (memory.ts), each of which
  // forgets the license's tokens: a refund, a suspension or a freed machine closes the feed at once, as before.
  const following = ctx.licenseChanges.follower?.healthy() ?? false;
  const remembered = following ? ctx.caches.feedOwners.get(token) : undefined;
  if (remembered && (remembered.trialEndsAt === null || remembered.trialEndsAt > ctx.clock.now().getTime()))
    return remembered.owner;
  const generation = ctx.caches.feedOwners.generation;
  const [row] = await ctx.db
    .select({
      toolId: tools.id,
      toolName: tools.name,
      packageId: tools.packageId,
      activationId: licenseActivations.id,
      licenseId: licenses.id,
      updatesUntil: licenses.updatesUntil,
      status: licenses.status,
      expiresAt: licenses.expiresAt,
    })
    .from(licenseActivations)
    .innerJoin(licenses, eq(licenses.id, licenseActivations.licenseId))
    .leftJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .leftJoin(trials, eq(trials.licenseId, licenses.id))
    .innerJoin(tools, sql`${tools.id} = coalesce(${purchases.toolId}, ${trials.toolId})`)
    .where(
      and(
        inArray(licenseActivations.updateTokenHash, updateTokenHashes(ctx.dataSecrets, token)),
        isNull(licenseActivations.deactivatedAt),
        or(
          and(eq(licenses.status, 'active'), isNotNull(purchases.id), isNull(purchases.refundedAt)),
          and(eq(licenses.status, 'trial'), gt(licenses.expiresAt, ctx.clock.now())),
        ),
      ),
    )
    .limit(1);
  if (!row) return undefined;
  const { status, expiresAt, ...found } = row;
  const owner = { ...found, packageId: packageIdOf({ name: row.toolName, packageId: row.packageId }) };
  const trialEndsAt = status === 'trial' ? (expiresAt?.getTime() ?? 0) : null;
  if (following) ctx.caches.feedOwners.set(token, { owner, trialEndsAt }, generation);
  return owner;
}

/**
 * Activations from before feed tokens had no token hash, so no feed could find them; each gets its hash here, at
 * start (startup.ts), once. The update check did this with an UPDATE on every call that offered an update, a write
 * on the path every installed copy polls (issue 69). Any number of starts may run it: it writes only null hashes.
 */
export async function fillUpdateTokenHashes(ctx: Pick<AppContext, 'db' | 'dataSecrets'>): Promise<number> {
  const missing = await ctx.db
    .select({ id: licenseActivations.id })
    .from(licenseActivations)
    .where(isNull(licenseActivations.updateTokenHash));
  for (const { id } of missing)
    await ctx.db
      .update(licenseActivations)
      .set({ updateTokenHash: updateTokenHash(ctx.dataSecrets, updateTokenOf(ctx.dataSecrets, id)) })
      .where(and(eq(licenseActivations.id, id), isNull(licenseActivations.updateTokenHash)));
  return missing.length;
}

/** Where a file of a release is downloaded under a token: the appcast's enclosures and the update check use it. */
export const artifactUrlOf = (publicUrl: string, token: string, artifact: { id: string; fileName: string }) =>
  `${updateUrlsOf(publicUrl, token).velopackUrl}files/${artifact.id}/${encodeURIComponent(artifact.fileName)}`;
