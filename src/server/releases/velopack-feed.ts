import type { ArtifactPlatform } from '../../shared/releases';
import { renderNotes } from './notes';
import type { ArtifactRow, ReleaseRow } from './store';

/**
 * Velopack's channels: the OS (`win`, `osx`) and its beta (`win-beta`, `osx-beta`). A beta channel also lists the
 * stable releases, so a beta tester moves on to a stable version newer than their beta.
 */
const CHANNELS: Record<string, { platform: ArtifactPlatform; includeBeta: boolean }> = {
  win: { platform: 'windows', includeBeta: false },
  'win-beta': { platform: 'windows', includeBeta: true },
  osx: { platform: 'macos', includeBeta: false },
  'osx-beta': { platform: 'macos', includeBeta: true },
};

export const velopackChannel = (name: string) => (Object.hasOwn(CHANNELS, name) ? CHANNELS[name] : undefined);

type Entry = { release: ReleaseRow; artifact: ArtifactRow };

/**
 * `releases.<channel>.json`: the packages of the channel with what the client checks them by. `FileName` is
 * relative, so the client downloads it from the same token's folder.
 */
export function velopackFeed(packageId: string, entries: Entry[]) {
  return {
    Assets: entries.map(({ release, artifact }) => ({
      PackageId: packageId,
      Version: release.version,
      Type: artifact.velopackType ?? 'Full',
      FileName: artifact.fileName,
      SHA1: artifact.sha1,
      SHA256: artifact.sha256,
      Size: artifact.size,
      NotesMarkdown: release.notesMarkdown,
      NotesHtml: renderNotes(release.notesMarkdown),
    })),
  };
}

/** The legacy Squirrel `RELEASES` file: `SHA1 FileName Size`, one line per package, oldest first as Squirrel wrote it. */
export function squirrelReleases(entries: Entry[]): string {
  return entries
    .toReversed()
    .map(({ artifact }) => `${artifact.sha1.toUpperCase()} ${artifact.fileName} ${artifact.size}\n`)
    .join('');
}
