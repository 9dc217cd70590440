import { XMLBuilder } from 'fast-xml-parser';
import type { ArtifactArch, ArtifactPlatform } from '../../shared/releases';
import { renderNotes } from './notes';
import type { ArtifactRow, ReleaseRow } from './store';

export const SPARKLE_NAMESPACE = 'http://www.andymatuschak.org/xml-namespaces/sparkle';

/**
 * Every value goes through the builder, which escapes text and attributes and splits a `]]>` inside CDATA, so
 * nothing the operator typed (a tool name, release notes) can change the feed's structure.
 */
const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  cdataPropName: '__cdata',
  suppressEmptyNode: true,
  format: true,
});

/** RFC 822, as RSS 2.0 wants it: `Wed, 25 Nov 2026 10:00:00 +0000`. */
export const rfc822 = (date: Date) => date.toUTCString().replace('GMT', '+0000');

type Entry = { release: ReleaseRow; artifact: ArtifactRow };

/**
 * WinSparkle's `sparkle:os` markers (src/appcast.cpp, OS_MARKER_ARCH): it prefers the enclosure of its own build
 * within an item and takes the generic `windows` one otherwise.
 */
const WINDOWS_MARKERS: Record<ArtifactArch, string> = {
  x64: 'windows-x64',
  arm64: 'windows-arm64',
  x86: 'windows-x86',
  universal: 'windows',
};

/** Which archives an appcast lists: a query may narrow it to one OS and one architecture (docs/updates.md). */
export type AppcastFilter = { os?: ArtifactPlatform; arch?: ArtifactArch };

function enclosureOf(artifact: ArtifactRow, fileUrl: string, os: string) {
  return {
    '@_url': fileUrl,
    '@_length': artifact.size,
    '@_type': 'application/octet-stream',
    '@_sparkle:os': os,
    '@_sparkle:edSignature': artifact.signature,
    ...(artifact.installerArguments ? { '@_sparkle:installerArguments': artifact.installerArguments } : {}),
  };
}

function commonFields(release: ReleaseRow) {
  return {
    title: `Version ${release.version}`,
    pubDate: rfc822(release.publishedAt ?? release.createdAt),
  };
}

function flags(release: ReleaseRow, notes: string) {
  return {
    // Sparkle shows beta items only to apps that opt in to the channel (allowedChannels); WinSparkle never reads
    // it, which is why betas are only in the appcast that asks for them (?channel=beta).
    ...(release.channel === 'beta' ? { 'sparkle:channel': 'beta' } : {}),
    ...(release.critical ? { 'sparkle:criticalUpdate': '' } : {}),
    description: { __cdata: notes },
  };
}

/**
 * A release's Windows item: WinSparkle compares `sparkle:version` with the app's version resource, which it orders
 * as semver does (1.2.0-beta.1 < 1.2.0), so it is the semver; one enclosure per architecture, each with its marker;
 * the Windows minimum only.
 */
function windowsItem(release: ReleaseRow, artifacts: ArtifactRow[], fileUrl: (a: ArtifactRow) => string) {
  return {
    ...commonFields(release),
    'sparkle:version': release.version,
    'sparkle:shortVersionString': release.version,
    ...(release.minimumWindowsVersion
      ? { 'sparkle:minimumSystemVersion': release.minimumWindowsVersion }
      : {}),
    ...flags(release, renderNotes(release.notesMarkdown)),
    enclosure: artifacts.map((artifact) =>
      enclosureOf(artifact, fileUrl(artifact), WINDOWS_MARKERS[artifact.arch]),
    ),
  };
}

/**
 * A release's macOS item: Sparkle's comparator stops at the first `-`, so `sparkle:version` is the build number (the
 * app's CFBundleVersion) and the semver is only shown; the macOS minimum only; one archive.
 */
function macosItem(release: ReleaseRow, artifact: ArtifactRow, fileUrl: (a: ArtifactRow) => string) {
  return {
    ...commonFields(release),
    'sparkle:version': String(release.buildNumber),
    'sparkle:shortVersionString': release.version,
    ...(release.minimumMacosVersion ? { 'sparkle:minimumSystemVersion': release.minimumMacosVersion } : {}),
    ...flags(release, renderNotes(release.notesMarkdown)),
    enclosure: enclosureOf(artifact, fileUrl(artifact), 'macos'),
  };
}

/**
 * The macOS archive a Sparkle client of `arch` gets. Sparkle (2.6, the source checked) has no way to tell
 * arch-specific items apart (no hardware requirement), so without `&arch=` only a universal archive is listed;
 * with it, that architecture's own archive, else the universal one.
 */
function macosArchive(artifacts: ArtifactRow[], arch: ArtifactArch | undefined): ArtifactRow | undefined {
  const universal = artifacts.find((artifact) => artifact.arch === 'universal');
  if (!arch || arch === 'universal') return universal;
  return artifacts.find((artifact) => artifact.arch === arch) ?? universal;
}

/**
 * The appcast's items of `entries` (newest release first, each archive once): per release one Windows item with
 * the architectures that fit and one macOS item with the archive that fits.
 */
function itemsOf(entries: Entry[], filter: AppcastFilter, fileUrl: (a: ArtifactRow) => string) {
  const byRelease = new Map<string, { release: ReleaseRow; artifacts: ArtifactRow[] }>();
  for (const { release, artifact } of entries) {
    const group = byRelease.get(release.id) ?? { release, artifacts: [] };
    group.artifacts.push(artifact);
    byRelease.set(release.id, group);
  }
  const items = [];
  for (const { release, artifacts } of byRelease.values()) {
    const windows = artifacts.filter(
      (artifact) =>
        artifact.platform === 'windows' &&
        (!filter.arch || artifact.arch === filter.arch || artifact.arch === 'universal'),
    );
    if (windows.length > 0 && filter.os !== 'macos') items.push(windowsItem(release, windows, fileUrl));
    const archive = macosArchive(
      artifacts.filter((artifact) => artifact.platform === 'macos'),
      filter.arch,
    );
    if (archive && filter.os !== 'windows') items.push(macosItem(release, archive, fileUrl));
  }
  return items;
}

/**
 * A Sparkle 2 / WinSparkle appcast (RSS 2.0 with the sparkle namespace) of `entries`, which come newest first,
 * each enclosure under the same token (`fileUrl`).
 */
export function buildAppcast(
  toolName: string,
  entries: Entry[],
  filter: AppcastFilter,
  fileUrl: (artifact: ArtifactRow) => string,
): string {
  return builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'utf-8' },
    rss: {
      '@_version': '2.0',
      '@_xmlns:sparkle': SPARKLE_NAMESPACE,
      channel: {
        title: toolName,
        description: `Updates of ${toolName}`,
        language: 'en',
        item: itemsOf(entries, filter, fileUrl),
      },
    },
  });
}
