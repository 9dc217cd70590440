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

/** What Sparkle compares and checks on a Mac item: the build number, the semver shown, the macOS minimum. */
function macosVersions(release: ReleaseRow) {
  return {
    'sparkle:version': String(release.buildNumber),
    'sparkle:shortVersionString': release.version,
    ...(release.minimumMacosVersion ? { 'sparkle:minimumSystemVersion': release.minimumMacosVersion } : {}),
  };
}

/**
 * A release's macOS item: Sparkle's comparator stops at the first `-`, so `sparkle:version` is the build number (the
 * app's CFBundleVersion) and the semver is only shown; the macOS minimum only; one archive. With Sparkle's own
 * phased rollout (`--phased-interval`), each Mac's group g (0–6) gets it g intervals after the item's pubDate, on
 * background checks (SUAppcastDriver +itemIsReadyForPhasedRollout:…); WinSparkle never reads it.
 */
function macosItem(release: ReleaseRow, artifact: ArtifactRow, fileUrl: (a: ArtifactRow) => string) {
  return {
    ...commonFields(release),
    ...macosVersions(release),
    ...(release.phasedRolloutIntervalSeconds
      ? { 'sparkle:phasedRolloutInterval': release.phasedRolloutIntervalSeconds }
      : {}),
    ...flags(release, renderNotes(release.notesMarkdown)),
    enclosure: enclosureOf(artifact, fileUrl(artifact), 'macos'),
  };
}

/** What a release beyond the license's update period is announced with (decision 060). */
export type Announcement = { entries: Entry[]; renewalUrl: string };

/**
 * A release beyond the license's update period, announced to Sparkle and to no other client (decision 060), read as
 * Sparkle 2 reads it (SUAppcastItem -initWithDictionary:…, SPUAppcastItemStateResolver, SUAppcastDriver):
 *
 * - `<sparkle:informationalUpdate/>` with a `<link>`: shown with "Learn More…" opening the link (the renewal page),
 *   never downloaded or installed; not critical, whatever the release is;
 * - `sparkle:minimumAutoupdateVersion` at its own build: every Mac below it takes it for a major upgrade, which
 *   Sparkle's first pass leaves out, so a release the Mac may still install is offered before it and the
 *   announcement comes once the Mac has everything it may install;
 * - an enclosure marked `sparkle:os="macos"` pointing at the renewal page, without a signature: WinSparkle skips an
 *   item whose enclosures are all for another OS (appcast.cpp), where a link-only item would be its "web link"
 *   update; a Sparkle too old to know informational items finds no signature and installs nothing.
 */
function informationalItem(release: ReleaseRow, renewalUrl: string) {
  const notes = `<p>This version came out after your updates ended: renew them to install it.</p>${renderNotes(release.notesMarkdown)}`;
  return {
    ...commonFields(release),
    ...macosVersions(release),
    'sparkle:minimumAutoupdateVersion': String(release.buildNumber),
    'sparkle:informationalUpdate': '',
    link: renewalUrl,
    ...flags({ ...release, critical: false }, notes),
    enclosure: { '@_url': renewalUrl, '@_length': 0, '@_type': 'text/html', '@_sparkle:os': 'macos' },
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

/** `entries` by release, in their order, each with its files. */
function byRelease(entries: Entry[]) {
  const groups = new Map<string, { release: ReleaseRow; artifacts: ArtifactRow[] }>();
  for (const { release, artifact } of entries) {
    const group = groups.get(release.id) ?? { release, artifacts: [] };
    group.artifacts.push(artifact);
    groups.set(release.id, group);
  }
  return [...groups.values()];
}

/** The announced release's informational item, when it has a Mac archive that this URL would serve. */
function announcementItems(announcement: Announcement | undefined, filter: AppcastFilter) {
  if (!announcement || filter.os === 'windows') return [];
  return byRelease(announcement.entries).flatMap(({ release, artifacts }) =>
    macosArchive(
      artifacts.filter((artifact) => artifact.platform === 'macos'),
      filter.arch,
    )
      ? [informationalItem(release, announcement.renewalUrl)]
      : [],
  );
}

/**
 * The appcast's items of `entries` (newest release first, each archive once): per release one Windows item with
 * the architectures that fit and one macOS item with the archive that fits.
 */
function itemsOf(entries: Entry[], filter: AppcastFilter, fileUrl: (a: ArtifactRow) => string) {
  const items = [];
  for (const { release, artifacts } of byRelease(entries)) {
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
 * each enclosure under the same token (`fileUrl`), and the announcement of a newer release beyond the license's
 * update period, if any.
 */
export function buildAppcast(
  toolName: string,
  entries: Entry[],
  filter: AppcastFilter,
  fileUrl: (artifact: ArtifactRow) => string,
  announcement?: Announcement,
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
        item: [...announcementItems(announcement, filter), ...itemsOf(entries, filter, fileUrl)],
      },
    },
  });
}
