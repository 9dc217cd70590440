import { XMLBuilder } from 'fast-xml-parser';
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

function itemOf(release: ReleaseRow, artifact: ArtifactRow, fileUrl: string) {
  return {
    title: `Version ${release.version}`,
    pubDate: rfc822(release.publishedAt ?? release.createdAt),
    'sparkle:version': release.version,
    'sparkle:shortVersionString': release.version,
    ...(release.minimumOsVersion ? { 'sparkle:minimumSystemVersion': release.minimumOsVersion } : {}),
    // Sparkle shows beta items only to apps that opt in to the channel (allowedChannels).
    ...(release.channel === 'beta' ? { 'sparkle:channel': 'beta' } : {}),
    ...(release.critical ? { 'sparkle:criticalUpdate': '' } : {}),
    description: { __cdata: renderNotes(release.notesMarkdown) },
    enclosure: {
      '@_url': fileUrl,
      '@_length': artifact.size,
      '@_type': 'application/octet-stream',
      '@_sparkle:os': artifact.platform,
      '@_sparkle:edSignature': artifact.signature,
    },
  };
}

/**
 * A Sparkle 2 / WinSparkle appcast (RSS 2.0 with the sparkle namespace) of `entries`, which come newest first:
 * one item per archive, its enclosure under the same token (`fileUrl`).
 */
export function buildAppcast(
  toolName: string,
  entries: Array<{ release: ReleaseRow; artifact: ArtifactRow }>,
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
        item: entries.map(({ release, artifact }) => itemOf(release, artifact, fileUrl(artifact))),
      },
    },
  });
}
