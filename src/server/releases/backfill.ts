import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { releaseArtifacts } from '../db/schema/releases';
import type { AppContext } from '../kernel/context';

/**
 * The migration that made each tool's one file the installer of its release 1.0.0 could not compute SHA-1 or sign
 * in SQL, so those artifacts have an empty signature. This fills them by reading each stored file once; run at
 * every start, it finds nothing to do after the first. A file missing from storage is left as it is and counted.
 */
export async function signMigratedArtifacts(
  ctx: Pick<AppContext, 'db' | 'storage' | 'releaseSigning'>,
): Promise<{ signed: number; missing: number }> {
  const rows = await ctx.db.select().from(releaseArtifacts).where(eq(releaseArtifacts.signature, ''));
  const signer = ctx.releaseSigning;
  let signed = 0;
  let missing = 0;
  for (const row of rows) {
    // Ed25519 signs the whole message, so the file is read into memory once (decision 034); these are the few
    // files that existed before releases, one at a time.
    const bytes = await ctx.storage.read(row.storageKey);
    if (!bytes) {
      missing++;
      continue;
    }
    await ctx.db
      .update(releaseArtifacts)
      .set({
        size: bytes.byteLength,
        sha1: createHash('sha1').update(bytes).digest('hex'),
        sha256: createHash('sha256').update(bytes).digest('hex'),
        signature: signer.sign(bytes),
        kid: signer.kid,
      })
      .where(eq(releaseArtifacts.id, row.id));
    signed++;
  }
  return { signed, missing };
}
