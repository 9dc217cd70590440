import { XMLParser } from 'fast-xml-parser';
import yauzl from 'yauzl';
import type { VelopackType } from '../../shared/releases';

/** What a Velopack package says about itself in its `.nuspec`. */
export type NuspecIdentity = { id: string; version: string };

/** The most a `.nuspec` may be: a few KB in practice; a bigger one is not a package we made. */
const NUSPEC_MAX_BYTES = 1024 * 1024;

export class NotAPackageError extends Error {
  constructor(reason: string) {
    super(`This is not a Velopack package (.nupkg): ${reason}.`);
    this.name = 'NotAPackageError';
  }
}

/** Full or delta, as `vpk pack` names its packages: `<id>-<version>-full.nupkg`, `<id>-<version>-delta.nupkg`. */
export function velopackTypeOf(fileName: string): VelopackType | undefined {
  if (/-full\.nupkg$/i.test(fileName)) return 'Full';
  if (/-delta\.nupkg$/i.test(fileName)) return 'Delta';
  return undefined;
}

/** Opens the zip and reads the `.nuspec` at its root (the package's manifest), by yauzl, never by hand. */
function readNuspec(zip: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true }, (openError, archive) => {
      if (openError || !archive) return reject(new NotAPackageError('it is not a zip archive'));
      let found = false;
      archive.on('entry', (entry: yauzl.Entry) => {
        if (!/^[^/]+\.nuspec$/i.test(entry.fileName)) return archive.readEntry();
        found = true;
        if (entry.uncompressedSize > NUSPEC_MAX_BYTES)
          return reject(new NotAPackageError('its .nuspec is too large'));
        archive.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(new NotAPackageError('its .nuspec cannot be read'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', () => reject(new NotAPackageError('its .nuspec cannot be read')));
          stream.on('end', () => {
            archive.close();
            resolve(Buffer.concat(chunks).toString('utf8'));
          });
        });
      });
      archive.on('end', () => {
        if (!found) reject(new NotAPackageError('it has no .nuspec'));
      });
      archive.on('error', () => reject(new NotAPackageError('the zip archive is damaged')));
      archive.readEntry();
    });
  });
}

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  removeNSPrefix: true,
  processEntities: false,
});

/** The package id and version a `.nupkg` declares in its `.nuspec` (`<package><metadata><id>`, `<version>`). */
export async function nuspecIdentity(zip: Buffer): Promise<NuspecIdentity> {
  const xml = await readNuspec(zip);
  let parsed: { package?: { metadata?: { id?: unknown; version?: unknown } } };
  try {
    parsed = parser.parse(xml);
  } catch {
    throw new NotAPackageError('its .nuspec is not XML');
  }
  const metadata = parsed.package?.metadata;
  const id = typeof metadata?.id === 'string' ? metadata.id.trim() : '';
  const version = typeof metadata?.version === 'string' ? metadata.version.trim() : '';
  if (!id || !version) throw new NotAPackageError('its .nuspec names no id or version');
  return { id, version };
}
