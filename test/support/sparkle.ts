import { XMLParser } from 'fast-xml-parser';

/**
 * Sparkle 2's reading of an appcast, ported from its source (sparkle-project/Sparkle at fa4eaa9, 2024-06-30, the
 * 2.6 line apps ship) so that tests see a feed as a Mac app does:
 *
 * - `SUAppcast -parseAppcastItemsFromXMLData:…`: one dictionary per `<item>` (the `sparkle:` names by namespace URI,
 *   `<sparkle:informationalUpdate>` as the set of its `<sparkle:version>` and `<sparkle:belowVersion>` children),
 *   and an item that fails to parse fails the whole feed (the method returns nil: the app reports a feed error).
 * - `SUAppcastItem -initWithDictionary:…`: the version from the enclosure's `sparkle:version` attribute, the item's
 *   `<sparkle:version>` or the enclosure file name's last `_` part; `<link>` as the info URL (http or https only); an
 *   item needs an enclosure or an info URL; an informational update is one with an info URL and either no enclosure or
 *   a `<sparkle:informationalUpdate>`; `sparkle:os` from the enclosure; `<sparkle:channel>`,
 *   `<sparkle:minimumSystemVersion>`, `<sparkle:minimumAutoupdateVersion>`, `<sparkle:criticalUpdate>`,
 *   `<sparkle:phasedRolloutInterval>` (`integerValue`), and `pubDate` read as `E, dd MMM yyyy HH:mm:ss Z` (en_US);
 *   `-isMacOsUpdate` (no `sparkle:os`, or `macos`).
 * - `SPUAppcastItemStateResolver`: informational for the host's version (an empty set: every version; `<`-prefixed
 *   entries: hosts below it), a major upgrade when the host is below `minimumAutoupdateVersion`, critical.
 * - `SUAppcastDriver -appcastDidFinishLoading:inBackground:`: macOS items of the default channel or an allowed one;
 *   a first pass that leaves out major upgrades and a second one without that test when the first finds nothing
 *   newer; each with `+filterSupportedAppcast:…` (the minimum OS, and on background checks
 *   `+itemIsReadyForPhasedRollout:…`: a critical item, or one without interval or date, is ready; otherwise group g
 *   waits g × interval after the pubDate); `+bestItemFromAppcastItems:comparator:` (the first of equal versions) and
 *   `-isItemNewer:`. `SUPhasedUpdateGroupInfo` draws the group, 0–6, once per install.
 * - `SUStandardVersionComparator -compareVersion:toVersion:` with `-splitVersionString:` (which stops at the first
 *   `-`) and `-balanceVersionPartsA:partsB:`.
 *
 * This version reads no hardware requirement: an item says nothing about the Mac's architecture. Skipped updates
 * (the user's "Skip This Version") are not modelled: the tests' hosts never skip one.
 */

export type SparkleItem = {
  versionString: string;
  displayVersionString: string;
  osString: string | undefined;
  channel: string | undefined;
  minimumSystemVersion: string | undefined;
  minimumAutoupdateVersion: string | undefined;
  /** `<sparkle:criticalUpdate>` is present (without a version attribute, critical for every host). */
  criticalUpdate: boolean;
  /** The item's `pubDate` as Sparkle's date formatter reads it; null when absent or not in its format. */
  date: Date | null;
  /** Seconds, from `<sparkle:phasedRolloutInterval>`; null without one. */
  phasedRolloutInterval: number | null;
  /** `<link>`, when it is an http(s) URL. */
  infoURL: string | undefined;
  /** The host versions it is informational for (`<x` for hosts below x; empty: all); null: not informational. */
  informationalUpdateVersions: ReadonlySet<string> | null;
  fileURL: string;
  edSignature: string;
};

/** What Sparkle decides about an item for one host (SPUAppcastItemState). */
export type Offered = SparkleItem & { informationOnly: boolean; majorUpgrade: boolean };

const NS_SPARKLE = 'http://www.andymatuschak.org/xml-namespaces/sparkle';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** NSDateFormatter with `E, dd MMM yyyy HH:mm:ss Z` in en_US: `Wed, 25 Nov 2026 10:00:00 +0000`. */
export function parsePubDate(text: string | undefined): Date | null {
  const match = text
    ? /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{1,2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/.exec(
        text.trim(),
      )
    : null;
  if (!match) return null;
  const [, day, month, year, hours, minutes, seconds, sign, offsetHours, offsetMinutes] = match;
  const monthIndex = MONTHS.indexOf(month ?? '');
  if (monthIndex < 0) return null;
  const offset = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000;
  return new Date(
    Date.UTC(Number(year), monthIndex, Number(day), Number(hours), Number(minutes), Number(seconds)) - offset,
  );
}

/** NSString -integerValue: the leading integer, 0 when there is none. */
const integerValue = (text: string) => Number.parseInt(text.trim(), 10) || 0;

const isHttp = (url: string | undefined) => url !== undefined && /^https?:/i.test(url.trim());

/** A feed Sparkle refuses whole: SUAppcast returns nil and the app shows "An error occurred while parsing the update feed." */
export class AppcastParseError extends Error {}

/** The items of the feed as SUAppcast builds them; throws AppcastParseError where Sparkle fails the feed. */
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
  const text = (value: unknown) =>
    value === undefined || value === null || typeof value === 'object' ? undefined : String(value).trim();
  const channel = (rss.channel ?? {}) as Record<string, unknown>;
  const items: SparkleItem[] = [];
  for (const raw of (channel.item as Array<Record<string, unknown>> | undefined) ?? []) {
    // SUAppcast -bestNodeInNodes:name: keeps one node per element name, by xml:lang; without one every node is
    // "en" and the first is taken.
    const enclosure = ((raw.enclosure as Array<Record<string, string>> | undefined) ?? [])[0];
    const fileName = enclosure?.['@url']?.split('_');
    const version =
      enclosure?.[`@${sparkle('version')}`] ??
      text(raw[sparkle('version')]) ??
      (fileName && fileName.length > 1 ? fileName.at(-1)?.replace(/\.[^.]*$/, '') : undefined);
    if (version === undefined) throw new AppcastParseError('Feed item lacks sparkle:version element');
    const link = text(raw.link);
    const infoURL = isHttp(link) ? link : undefined;
    if (!enclosure && !infoURL) throw new AppcastParseError('No enclosure in feed item');
    const fileURL = enclosure?.['@url'];
    if (!fileURL && !infoURL) throw new AppcastParseError("Feed item's enclosure lacks URL");
    if (fileURL && !isHttp(fileURL))
      throw new AppcastParseError('File URLs must have a http or https URL scheme');
    const informational = raw[sparkle('informationalUpdate')];
    const informationalEntries = (name: string) => {
      const value =
        informational && typeof informational === 'object'
          ? (informational as Record<string, unknown>)[sparkle(name)]
          : undefined;
      return (Array.isArray(value) ? value : value === undefined ? [] : [value]).map(String);
    };
    const display =
      enclosure?.[`@${sparkle('shortVersionString')}`] ?? text(raw[sparkle('shortVersionString')]) ?? version;
    const rawChannel = text(raw[sparkle('channel')]);
    const interval = text(raw[sparkle('phasedRolloutInterval')]);
    items.push({
      versionString: String(version),
      displayVersionString: String(display),
      osString: enclosure?.[`@${sparkle('os')}`],
      // A zero-length channel or one with characters outside [a-zA-Z0-9._-] is ignored (the default channel).
      channel: rawChannel && /^[A-Za-z0-9._-]+$/.test(rawChannel) ? rawChannel : undefined,
      minimumSystemVersion: text(raw[sparkle('minimumSystemVersion')]),
      minimumAutoupdateVersion: text(raw[sparkle('minimumAutoupdateVersion')]),
      criticalUpdate: raw[sparkle('criticalUpdate')] !== undefined,
      date: parsePubDate(text(raw.pubDate)),
      phasedRolloutInterval: interval === undefined ? null : integerValue(interval),
      infoURL,
      // With an info URL: informational without an enclosure, or as <sparkle:informationalUpdate> says.
      informationalUpdateVersions: !infoURL
        ? null
        : !enclosure
          ? new Set()
          : informational === undefined
            ? null
            : new Set([
                ...informationalEntries('version'),
                ...informationalEntries('belowVersion').map((below) => `<${below}`),
              ]),
      fileURL: fileURL ?? '',
      edSignature: enclosure?.[`@${sparkle('edSignature')}`] ?? '',
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

/** SPUAppcastItemStateResolver -isInformationalUpdateWithInformationalUpdateVersions: for this host. */
function informationalFor(item: SparkleItem, hostVersion: string): boolean {
  const versions = item.informationalUpdateVersions;
  if (versions === null) return false;
  if (versions.size === 0 || versions.has(hostVersion)) return true;
  return [...versions].some(
    (entry) => entry.startsWith('<') && compareVersions(hostVersion, entry.slice(1)) < 0,
  );
}

/** +isMinimumAutoupdateVersionOK:hostVersion:versionComparator: (a major upgrade is one that fails it). */
const minimumAutoupdateOK = (item: SparkleItem, hostVersion: string) =>
  !item.minimumAutoupdateVersion || compareVersions(hostVersion, item.minimumAutoupdateVersion) >= 0;

/** +itemIsReadyForPhasedRollout:phasedUpdateGroup:currentDate:…: only background checks have a group. */
function readyForPhasedRollout(item: SparkleItem, background: SparkleHost['background']): boolean {
  if (!background || item.criticalUpdate) return true;
  if (item.phasedRolloutInterval === null || item.date === null) return true;
  const sinceRelease = (background.now.getTime() - item.date.getTime()) / 1000;
  return sinceRelease >= item.phasedRolloutInterval * background.group;
}

/** +bestItemFromAppcastItems:comparator: of equal versions the first stays. */
function bestItem(items: SparkleItem[]): SparkleItem | undefined {
  let best: SparkleItem | undefined;
  for (const candidate of items) {
    if (!best || compareVersions(best.versionString, candidate.versionString) < 0) best = candidate;
  }
  return best;
}

export type SparkleHost = {
  /** The app's CFBundleVersion. */
  hostVersion: string;
  /** The running macOS. */
  systemVersion: string;
  /** The delegate's allowedChannels(for:). */
  allowedChannels?: readonly string[];
  /**
   * A background (scheduled) check, with the install's phased group (0–6) and the moment of the check; a user's
   * "Check for Updates…" has none, and Sparkle then ignores phased rollouts.
   */
  background?: { group: number; now: Date };
};

/**
 * What Sparkle offers the host (SUAppcastDriver -appcastDidFinishLoading:inBackground:): the best macOS item it may
 * take, if newer than the host, with whether it is only informational; else null. Throws AppcastParseError for a
 * feed Sparkle refuses.
 */
export function bestUpdate(xml: string, host: SparkleHost): Offered | null {
  const allowed = new Set(host.allowedChannels ?? []);
  const macOS = parseAppcast(xml)
    .filter((item) => item.osString === undefined || item.osString === 'macos')
    .filter((item) => item.channel === undefined || allowed.has(item.channel));
  const supported = (testMinimumAutoupdateVersion: boolean) =>
    macOS.filter(
      (item) =>
        (!item.minimumSystemVersion || compareVersions(item.minimumSystemVersion, host.systemVersion) <= 0) &&
        readyForPhasedRollout(item, host.background) &&
        (!testMinimumAutoupdateVersion || minimumAutoupdateOK(item, host.hostVersion)),
    );
  const isNewer = (item: SparkleItem | undefined): item is SparkleItem =>
    item !== undefined && compareVersions(host.hostVersion, item.versionString) < 0;
  // Updates that pass the minimum autoupdate version first; the others only when none of those is newer.
  const first = bestItem(supported(true));
  const found = isNewer(first) ? first : bestItem(supported(false));
  if (!isNewer(found)) return null;
  return {
    ...found,
    informationOnly: informationalFor(found, host.hostVersion),
    majorUpgrade: !minimumAutoupdateOK(found, host.hostVersion),
  };
}
