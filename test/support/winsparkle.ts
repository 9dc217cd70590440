import { XMLParser } from 'fast-xml-parser';

/**
 * WinSparkle's reading of an appcast, ported from its source (vslavik/winsparkle at baf83b1, 2026-07-23) so that
 * tests see a feed as a Windows app does — not as our own reading of the format:
 *
 * - `src/appcast.cpp`: `Appcast::Load`, with `OnStartElement` / `OnEndElement` (what an `<item>` and its
 *   `<enclosure>`s yield), `is_compatible_with_os_arch` and `find_best_enclosure_for_os_arch` (the `sparkle:os`
 *   markers, `windows-x64` / `windows-arm64` / `windows-x86` over the generic `windows`), and
 *   `is_compatible_with_windows_version` (`sparkle:minimumSystemVersion` against the running Windows through
 *   `VerifyVersionInfoW`, with its service-pack reading of a third part under 100);
 * - `src/updatechecker.cpp`: `UpdateChecker::CompareVersions` / `SplitVersionString` and `PerformUpdateCheck`
 *   (stable-sort by version, newest first; offer it when above the app's version).
 *
 * What WinSparkle never reads is not read here either: there is no `sparkle:channel` handling in its source.
 */

const NS_SPARKLE = 'http://www.andymatuschak.org/xml-namespaces/sparkle';

export type WindowsArch = 'x64' | 'arm64' | 'x86';

export type WinSparkleEnclosure = {
  url: string;
  os: string;
  edSignature: string;
  installerArguments: string;
};

export type WinSparkleItem = {
  version: string;
  shortVersionString: string;
  minOsVersion: string;
  criticalUpdate: boolean;
  title: string;
  enclosure: WinSparkleEnclosure;
};

/** OS_MARKER_ARCH as the build for `arch` defines it. */
const archMarker = (arch: WindowsArch) => `windows-${arch}`;

/** is_compatible_with_os_arch: no marker, the generic `windows`, or this build's own marker. */
function compatible(enclosure: WinSparkleEnclosure, arch: WindowsArch): boolean {
  return enclosure.os === '' || enclosure.os === 'windows' || enclosure.os === archMarker(arch);
}

/** find_best_enclosure_for_os_arch: this build's marker first, then `windows`, then the first compatible one. */
function bestEnclosure(
  enclosures: WinSparkleEnclosure[],
  arch: WindowsArch,
): WinSparkleEnclosure | undefined {
  const usable = enclosures.filter((enclosure) => compatible(enclosure, arch));
  return (
    usable.find((enclosure) => enclosure.os === archMarker(arch)) ??
    usable.find((enclosure) => enclosure.os === 'windows') ??
    usable[0]
  );
}

/** sscanf("%lu.%lu.%lu"): the leading numbers, stopping at the first part that is not one. */
function scanNumbers(text: string, separators: RegExp): number[] {
  const numbers: number[] = [];
  for (const part of text.split(separators)) {
    const match = /^\s*(\d+)/.exec(part);
    if (!match) break;
    numbers.push(Number(match[1]));
    if (match[0].length !== part.length) break;
  }
  return numbers;
}

/**
 * is_compatible_with_windows_version: VerifyVersionInfoW with VER_GREATER_EQUAL on major, minor and build, which
 * compares them in that order. An unparsable minimum is ignored; `major.minor-build` is the old spelling; a third
 * part under 100 is a service pack (the running Windows is taken to have none).
 */
function compatibleWithWindows(minimum: string, windows: string): boolean {
  if (minimum === '') return true;
  let wanted = scanNumbers(minimum, /\./);
  if (wanted.length === 0) return true;
  if (wanted.length === 2 && minimum.includes('-')) wanted = scanNumbers(minimum, /[.-]/);
  const running = scanNumbers(windows, /\./);
  const [major = 0, minor = 0, third = 0] = wanted;
  const [runMajor = 0, runMinor = 0, runBuild = 0] = running;
  const servicePack = wanted.length === 3 && third < 100;
  const build = servicePack ? 0 : third;
  const order = [runMajor - major, runMinor - minor, runBuild - build].find((difference) => difference !== 0);
  if (order !== undefined && order < 0) return false;
  return !(servicePack && third > 0 && order === undefined);
}

/**
 * Appcast::Load for a WinSparkle built for `arch`, running on Windows `windows` (e.g. 10.0.19045): the items it
 * keeps, in feed order. Names are matched by namespace URI as expat's namespace mode does, whatever the prefix.
 */
export function loadAppcast(xml: string, client: { arch: WindowsArch; windows: string }): WinSparkleItem[] {
  const document = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    isArray: (name) => name === 'item' || name === 'enclosure' || name === 'channel',
  }).parse(xml) as { rss?: Record<string, unknown> };
  const rss = document.rss ?? {};
  // The prefix bound to Sparkle's namespace on <rss> (expat resolves it; the feed declares it there).
  const prefix =
    Object.entries(rss)
      .find(([name, value]) => name.startsWith('@xmlns:') && value === NS_SPARKLE)?.[0]
      .slice('@xmlns:'.length) ?? '\u0000';
  const sparkle = (name: string) => `${prefix}:${name}`;
  const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));
  const items: WinSparkleItem[] = [];
  for (const channel of (rss.channel as Array<Record<string, unknown>> | undefined) ?? []) {
    for (const raw of (channel.item as Array<Record<string, unknown>> | undefined) ?? []) {
      let version = text(raw[sparkle('version')]);
      let shortVersionString = text(raw[sparkle('shortVersionString')]);
      const enclosures: WinSparkleEnclosure[] = [];
      for (const attributes of (raw.enclosure as Array<Record<string, string>> | undefined) ?? []) {
        const enclosure = {
          url: text(attributes['@url']),
          os: text(attributes[`@${sparkle('os')}`]),
          edSignature: text(attributes[`@${sparkle('edSignature')}`]),
          installerArguments: text(attributes[`@${sparkle('installerArguments')}`]),
        };
        // The legacy syntax with the version on the enclosure.
        if (attributes[`@${sparkle('version')}`] !== undefined)
          version = text(attributes[`@${sparkle('version')}`]);
        if (attributes[`@${sparkle('shortVersionString')}`] !== undefined)
          shortVersionString = text(attributes[`@${sparkle('shortVersionString')}`]);
        // Enclosure::IsValid: a download URL. Incompatible ones are kept to skip the whole item below.
        if (enclosure.url !== '') enclosures.push(enclosure);
      }
      const item: WinSparkleItem = {
        version,
        shortVersionString,
        minOsVersion: text(raw[sparkle('minimumSystemVersion')]),
        criticalUpdate: raw[sparkle('criticalUpdate')] !== undefined,
        title: text(raw.title),
        enclosure: { url: '', os: '', edSignature: '', installerArguments: '' },
      };
      if (enclosures.length > 0) {
        const best = bestEnclosure(enclosures, client.arch);
        // Every enclosure is for another OS or architecture: the item is not for this build.
        if (!best) continue;
        item.enclosure = best;
      }
      // Appcast::IsValid: a version and a download (no web-link items in our feeds).
      if (
        item.version !== '' &&
        item.enclosure.url !== '' &&
        compatibleWithWindows(item.minOsVersion, client.windows)
      )
        items.push(item);
    }
  }
  return items;
}

type Part = { type: 'number' | 'period' | 'string'; text: string };
const classify = (c: string): Part['type'] => (c === '.' ? 'period' : /[0-9]/.test(c) ? 'number' : 'string');

/** SplitVersionString: runs of one character class; every period is its own part. */
function splitVersion(version: string): Part[] {
  const parts: Part[] = [];
  for (const c of version) {
    const type = classify(c);
    const last = parts.at(-1);
    if (last && last.type === type && type !== 'period') last.text += c;
    else parts.push({ type, text: c });
  }
  return parts;
}

/** UpdateChecker::CompareVersions: negative, 0 or positive as `a` is older, equal or newer than `b`. */
export function compareVersions(a: string, b: string): number {
  const partsA = splitVersion(a);
  const partsB = splitVersion(b);
  const n = Math.min(partsA.length, partsB.length);
  for (let i = 0; i < n; i++) {
    const partA = partsA[i] as Part;
    const partB = partsB[i] as Part;
    if (partA.type === partB.type) {
      if (partA.type === 'string') {
        if (partA.text !== partB.text) return partA.text < partB.text ? -1 : 1;
      } else if (partA.type === 'number') {
        const difference = Number.parseInt(partA.text, 10) - Number.parseInt(partB.text, 10);
        if (difference !== 0) return Math.sign(difference);
      }
    } else if (partA.type !== 'string' && partB.type === 'string') {
      return 1; // 1.2.0 > 1.2rc1
    } else if (partA.type === 'string' && partB.type !== 'string') {
      return -1;
    } else {
      return partA.type === 'number' ? 1 : -1; // a number against a period: the period is invalid
    }
  }
  if (partsA.length === partsB.length) return 0;
  const longerIsA = partsA.length > partsB.length;
  const missing = (longerIsA ? partsA[n] : partsB[n]) as Part;
  // 1.5 > 1.5b3, but 1.5.1 > 1.5
  if (missing.type === 'string') return longerIsA ? -1 : 1;
  return longerIsA ? 1 : -1;
}

/**
 * PerformUpdateCheck: the items stable-sorted newest first by CompareVersions, and the first offered when it is
 * newer than the app's version (its version resource); null when WinSparkle says "no updates".
 */
export function checkForUpdate(
  xml: string,
  client: { arch: WindowsArch; windows: string; appVersion: string },
): WinSparkleItem | null {
  const all = loadAppcast(xml, client);
  const sorted = all
    .map((item, index) => ({ item, index }))
    .sort((a, b) => compareVersions(b.item.version, a.item.version) || a.index - b.index)
    .map(({ item }) => item);
  const newest = sorted[0];
  if (!newest || compareVersions(client.appVersion, newest.version) >= 0) return null;
  return newest;
}
