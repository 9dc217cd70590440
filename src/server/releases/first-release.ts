import { createHash } from 'node:crypto';
import type { ArtifactArch, ArtifactPlatform } from '../../shared/releases';
import type { Tx } from '../db';
import type { tools } from '../db/schema/catalogue';
import { releaseArtifacts, releases } from '../db/schema/releases';
import type { AppContext } from '../kernel/context';

/** Where a tool's one file runs, by the tool's device, as the releases migration decides it for existing files. */
export function installerTarget(device: (typeof tools.$inferSelect)['device']): {
  platform: ArtifactPlatform;
  arch: ArtifactArch;
} {
  return device === 'macOS' ? { platform: 'macos', arch: 'universal' } : { platform: 'windows', arch: 'x64' };
}

/**
 * Release 1.0.0, published, with `bytes` (already stored under `storageKey`) as its installer: what the default
 * catalogue's sample files get, as the migration gave the files that existed before releases.
 */
export async function insertFirstRelease(
  tx: Tx,
  ctx: Pick<AppContext, 'releaseSigning'>,
  tool: { id: string; device: (typeof tools.$inferSelect)['device'] },
  file: { fileName: string; storageKey: string; bytes: Uint8Array },
  at: Date,
): Promise<void> {
  const [release] = await tx
    .insert(releases)
    .values({
      toolId: tool.id,
      version: '1.0.0',
      buildNumber: 1,
      state: 'published',
      publishedAt: at,
      createdAt: at,
    })
    .returning({ id: releases.id });
  if (!release) throw new Error('release insert returned no row');
  const signer = ctx.releaseSigning;
  await tx.insert(releaseArtifacts).values({
    releaseId: release.id,
    ...installerTarget(tool.device),
    kind: 'installer',
    fileName: file.fileName,
    storageKey: file.storageKey,
    size: file.bytes.byteLength,
    sha1: createHash('sha1').update(file.bytes).digest('hex'),
    sha256: createHash('sha256').update(file.bytes).digest('hex'),
    signature: signer.sign(file.bytes),
    kid: signer.kid,
    createdAt: at,
  });
}
