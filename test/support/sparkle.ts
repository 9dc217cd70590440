import { XMLParser } from 'fast-xml-parser';

/**
 * Sparkle 2's reading of an appcast, ported from its source (sparkle-project/Sparkle at fa4eaa9, 2024-06-30, the
 * 2.6 line apps ship) so that tests see a feed as a Mac app does:
 *
 * - `SUAppcastItem -initWithDictionary:…`: the version from the enclosure's `sparkle:version` attribute or the
 *   item's `<sparkle:version>`, `sparkle:os` from the enclosure, `<sparkle:channel>`, `<sparkle:minimumSystemVersion>`,
 *   `<sparkle:criticalUpdate>`; `-isMacOsUpdate` (no `sparkle:os`, or `macos`).
 * - `SUAppcastDriver +filterAppcast:forMacOSAndAllowedChannels:` (macOS items of the default channel or an allowed
 *   one), `+filterSupportedAppcast:…` (the minimum OS through `SPUAppcastItemStateResolver
 *   -isMinimumOperatingSystemVersionOK:`), `+bestItemFromAppcastItems:comparator:` (the first of equal versions)
 *   and the "is it newer than the host" test.
 * - `SUStandardVersionComparator -compareVersion:toVersion:` with `-splitVersionString:` (which stops at the first
 *   `-`) and `-balanceVersionPartsA:partsB:`.
 *
 * This version reads no hardware requirement: an item says nothing about the Mac's architecture.
 */

export type SparkleItem = {
  versionString: string;
  displayVersionString: string;
  osString: string | undefined;
  channel: string | undefined;
  minimumSystemVersion: string | undefined;
  criticalUpdate: boolean;
  fileURL: string;
  edSignature: string;
};

const NS_SPARKLE = 'http://www.andymatuschak.org/xml-namespaces/sparkle';

/** The items of the feed as SUAppcast builds them (items without a version are dropped, as Sparkle logs and skips). */
export function parseAppcast(xml: string): SparkleItem[] {
  const document = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseTagValue: false,
    parseAttributeValue: false,
    isArray: (name) => name === 'item' || name === 'enclosure',
  }).parse(xml) as { rss?: Record<string, unknown> };
  const rss = document.rss ?? {};
  const prefix =
    Object.entries(rss)
      .find(([name, value]) => name.startsWith('@xmlns:') && value === NS_SPARKLE)?.[0]
      .slice('@xmlns:'.length) ?? 'sparkle';
  const sparkle = (name: string) => `${prefix}:${name}`;
  const channel = (rss.channel ?? {}) as Record<string, unknown>;
  const items: SparkleItem[] = [];
  for (const raw of (channel.item as Array<Record<string, unknown>> | undefined) ?? []) {
    // SUAppcast -bestNodeInNodes:name: keeps one node per element name, by xml:lang; without one every node is
    // "en" and the first is taken.
    const enclosure = ((raw.enclosure as Array<Record<string, string>> | undefined) ?? [])[0] ?? {};
    const version = enclosure[`@${sparkle('version')}`] ?? (raw[sparkle('version')] as string | undefined);
    if (version === undefined) continue;
    const display =
      enclosure[`@${sparkle('shortVersionString')}`] ??
      (raw[sparkle('shortVersionString')] as string | undefined) ??
      version;
    const rawChannel = raw[sparkle('channel')] as string | undefined;
    items.push({
      versionString: String(version),
      displayVersionString: String(display),
      osString: enclosure[`@${sparkle('os')}`],
      // A zero-length channel or one with characters outside [a-zA-Z0-9._-] is ignored (the default channel).
      channel: rawChannel && /^[A-Za-z0-9._-]+$/.test(rawChannel) ? rawChannel : undefined,
      minimumSystemVersion: raw[sparkle('minimumSystemVersion')] as string | undefined,
      criticalUpdate: raw[sparkle('criticalUpdate')] !== undefined,
      fileURL: enclosure['@url'] ?? '',
      edSignature: enclosure[`@${sparkle('edSignature')}`] ?? '',
    });
  }
  return items;
}

type CharacterType = 'number' | 'string' | 'period' | 'punctuation' | 'whitespace' | 'dash';

function typeOf(character: string): CharacterType {
  if (character === '.') return 'period';
  if (character === '-') return 'dash';
  if (/\d/.test(character)) return 'number';
  if (/\s/.test(character)) return 'whitespace';
  if (/[\p{P}]/u.test(character)) return 'punctuation';
  return 'string';
}

const isSeparator = (type: CharacterType) =>
  type === 'period' || type === 'punctuation' || type === 'whitespace';

/** -isEqualCharacterTypeClassForTypeA:typeB: every kind of separator is one class. */
const sameClass = (a: CharacterType, b: CharacterType) => (isSeparator(a) ? isSeparator(b) : a === b);

/** -splitVersionString: runs of one type, each separator its own part, and nothing from the first dash on. */
function splitVersion(version: string): string[] {
  const parts: string[] = [];
  if (version.length === 0) return parts;
  let current = version.charAt(0);
  let oldType = typeOf(current);
  for (const character of version.slice(1)) {
    const newType = typeOf(character);
    if (newType === 'dash') break;
    if (oldType !== newType || isSeparator(oldType)) {
      parts.push(current);
      current = character;
    } else {
      current += character;
    }
    oldType = newType;
  }
  parts.push(current);
  return parts;
}

/** -countOfNumberAndPeriodStartingParts: */
function leadingNumberAndPeriodParts(parts: string[]): number {
  let count = 0;
  for (const part of parts) {
    const type = typeOf(part.charAt(0));
    if (type !== 'number' && type !== 'period') break;
    count++;
  }
  return count;
}

/** -balanceVersionPartsA:partsB: "1.1" against "1.0.0" becomes "1.1.0". */
function balance(a: string[], b: string[]): void {
  const countA = leadingNumberAndPeriodParts(a);
  const countB = leadingNumberAndPeriodParts(b);
  const [shorter, longer, from, to] = countA > countB ? [b, a, countB, countA] : [a, b, countA, countB];
  for (let index = from; index < to; index++) {
    shorter.splice(index, 0, typeOf((longer[index] ?? '').charAt(0)) === 'period' ? '.' : '0');
  }
}

/** -compareVersion:toVersion: negative, 0 or positive as `a` is older, equal or newer than `b`. */
export function compareVersions(a: string, b: string): number {
  const partsA = splitVersion(a);
  const partsB = splitVersion(b);
  balance(partsA, partsB);
  const n = Math.min(partsA.length, partsB.length);
  for (let i = 0; i < n; i++) {
    const partA = partsA[i] ?? '';
    const partB = partsB[i] ?? '';
    const typeA = typeOf(partA.charAt(0));
    const typeB = typeOf(partB.charAt(0));
    if (sameClass(typeA, typeB)) {
      if (typeA === 'number') {
        const difference = Number(partA) - Number(partB);
        if (difference !== 0) return Math.sign(difference);
      } else if (typeA === 'string' && partA !== partB) {
        return partA < partB ? -1 : 1;
      }
    } else if (typeA !== 'string' && typeB === 'string') {
      return 1;
    } else if (typeA === 'string' && typeB !== 'string') {
      return -1;
    } else {
      return typeA === 'number' ? 1 : -1;
    }
  }
  if (partsA.length === partsB.length) return 0;
  const longerIsA = partsA.length > partsB.length;
  const missing = (longerIsA ? partsA[n] : partsB[n]) ?? '';
  // 1.5 > 1.5b3 (a string part makes the longer one older), 1.5.1 > 1.5
  if (typeOf(missing.charAt(0)) === 'string') return longerIsA ? -1 : 1;
  return longerIsA ? 1 : -1;
}

/**
 * What Sparkle offers an app whose CFBundleVersion is `hostVersion`, on macOS `systemVersion`, opted in to
 * `allowedChannels` (the delegate's allowedChannels(for:)): the best macOS item it may install, if newer; else null.
 */
export function bestUpdate(
  xml: string,
  host: { hostVersion: string; systemVersion: string; allowedChannels?: readonly string[] },
): SparkleItem | null {
  const allowed = new Set(host.allowedChannels ?? []);
  const candidates = parseAppcast(xml)
    .filter((item) => item.osString === undefined || item.osString === 'macos')
    .filter((item) => item.channel === undefined || allowed.has(item.channel))
    .filter(
      (item) =>
        !item.minimumSystemVersion || compareVersions(item.minimumSystemVersion, host.systemVersion) <= 0,
    );
  let best: SparkleItem | undefined;
  for (const candidate of candidates) {
    // Of equal versions the first stays.
    if (!best || compareVersions(best.versionString, candidate.versionString) < 0) best = candidate;
  }
  return best && compareVersions(host.hostVersion, best.versionString) < 0 ? best : null;
}
