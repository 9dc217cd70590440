import { inflateSync } from 'node:zlib';

const WOFF_SIGNATURE = 0x774f4646; // 'wOFF'
const WOFF_HEADER = 44;
const WOFF_ENTRY = 20;
const SFNT_HEADER = 12;
const SFNT_ENTRY = 16;

const padded = (length: number) => (length + 3) & ~3;

/**
 * A WOFF 1.0 font as the TrueType/OpenType file it wraps (W3C WOFF 1.0, §4–5), every table copied byte for byte.
 * The Noto Sans files come from npm as WOFF only, and fontkit reads a WOFF's table by inflating it, in JavaScript,
 * each time it reads from it (for every glyph a document's subset takes): inflated once here, with Node's zlib.
 */
export function sfntFromWoff(woff: Buffer): Buffer {
  if (woff.length < WOFF_HEADER || woff.readUInt32BE(0) !== WOFF_SIGNATURE)
    throw new Error('not a WOFF 1.0 font');
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, index) => {
    const at = WOFF_HEADER + index * WOFF_ENTRY;
    const offset = woff.readUInt32BE(at + 4);
    const compLength = woff.readUInt32BE(at + 8);
    const origLength = woff.readUInt32BE(at + 12);
    const stored = woff.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(stored) : stored;
    if (data.length !== origLength)
      throw new Error(`WOFF table ${index}: ${data.length} bytes, expected ${origLength}`);
    return { tag: woff.readUInt32BE(at), checksum: woff.readUInt32BE(at + 16), data };
  });
  // The directory in ascending tag order, as OpenType asks (WOFF asks the same of its own).
  tables.sort((a, b) => a.tag - b.tag);

  const directoryEnd = SFNT_HEADER + numTables * SFNT_ENTRY;
  const sfnt = Buffer.alloc(directoryEnd + tables.reduce((sum, table) => sum + padded(table.data.length), 0));
  const power = 2 ** Math.floor(Math.log2(numTables));
  sfnt.writeUInt32BE(flavor, 0);
  sfnt.writeUInt16BE(numTables, 4);
  sfnt.writeUInt16BE(power * 16, 6);
  sfnt.writeUInt16BE(Math.log2(power), 8);
  sfnt.writeUInt16BE(numTables * 16 - power * 16, 10);
  let offset = directoryEnd;
  tables.forEach((table, index) => {
    const at = SFNT_HEADER + index * SFNT_ENTRY;
    sfnt.writeUInt32BE(table.tag, at);
    sfnt.writeUInt32BE(table.checksum, at + 4);
    sfnt.writeUInt32BE(offset, at + 8);
    sfnt.writeUInt32BE(table.data.length, at + 12);
    table.data.copy(sfnt, offset);
    offset += padded(table.data.length);
  });
  return sfnt;
}
