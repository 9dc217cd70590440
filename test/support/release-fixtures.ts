import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buildZip } from '../../src/server/shop/zip';

/**
 * A small but real Velopack package: a zip with `<id>.nuspec` at its root naming the id and version, as
 * `vpk pack` writes it, and a stand-in for the app's files (random, so each package's hashes differ).
 */
export function nupkg(id: string, version: string, options: { channel?: string } = {}): Buffer {
  const nuspec = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<package xmlns="http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd">',
    '  <metadata>',
    `    <id>${id}</id>`,
    `    <title>${id}</title>`,
    `    <version>${version}</version>`,
    '    <authors>Pinkcity Advisors</authors>',
    '    <description>A test package</description>',
    `    <channel>${options.channel ?? 'win'}</channel>`,
    '    <mainExe>App.exe</mainExe>',
    '  </metadata>',
    '</package>',
  ].join('\n');
  return buildZip([
    { name: `${id}.nuspec`, content: nuspec },
    { name: 'lib/app/App.exe', content: randomBytes(2048) },
  ]);
}

/** Bytes as the stream an upload arrives as. */
export const streamOf = (bytes: Uint8Array) => Readable.from([Buffer.from(bytes)]);
