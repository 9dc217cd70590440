import type { ArtifactArch, ArtifactPlatform } from '../../shared/releases';
import { renderNotes } from './notes';
import type { ArtifactRow, ReleaseRow } from './store';

type Channel = { platform: ArtifactPlatform; arches: readonly ArtifactArch[]; includeBeta: boolean };

/**
 * Velopack's channels as `vpk pack --channel` names them: one channel is one build. `win` is the default Windows
 * build (x64, or one package for any architecture), `win-x64` / `win-arm64` / `win-x86` each architecture's own;
 * `osx` the universal Mac build, `osx-x64` / `osx-arm64` each architecture's. Each has a `-beta` form that lists
 * the stable releases too, so a beta tester moves on to a stable version newer than their beta.
 */
const BUILDS: Record<string, Omit<Channel, 'includeBeta'>> = {
  win: { platform: 'windows', arches: ['x64', 'universal'] },
  'win-x64': { platform: 'windows', arches: ['x64'] },
  'win-arm64': { platform: 'windows', arches: ['arm64'] },
  'win-x86': { platform: 'windows', arches: ['x86'] },
  osx: { platform: 'macos', arches: ['universal'] },
  'osx-x64': { platform: 'macos', arches: ['x64'] },
  'osx-arm64': { platform: 'macos', arches: ['arm64'] },
};

const CHANNELS: Record<string, Channel> = Object.fromEntries(
  Object.entries(BUILDS).flatMap(([name, build]) => [
    [name, { ...build, includeBeta: false }],
    [`${name}-beta`, { ...build, includeBeta: true }],
  ]),
);

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
