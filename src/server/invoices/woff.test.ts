import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import { sfntFromWoff } from './woff';

const require = createRequire(import.meta.url);
/** Every WOFF file, both weights, of the Noto packages the documents draw from (Noto Sans and each Indic script). */
const fonts = [
  'noto-sans',
  'noto-sans-devanagari',
  'noto-sans-bengali',
  'noto-sans-gujarati',
  'noto-sans-gurmukhi',
  'noto-sans-tamil',
  'noto-sans-telugu',
  'noto-sans-kannada',
  'noto-sans-malayalam',
  'noto-sans-oriya',
].flatMap((name) => {
  const folder = path.join(path.dirname(require.resolve(`@fontsource/${name}/package.json`)), 'files');
  return readdirSync(folder)
    .filter((file) => /-(400|700)-normal\.woff$/.test(file) && !/(cyrillic|greek|vietnamese)/.test(file))
    .map((file) => path.join(folder, file));
});

/** OpenType's table checksum: the sum of its big-endian 32-bit words, the last padded with zeros. */
function checksum(table: Buffer): number {
  const words = Buffer.concat([table, Buffer.alloc((4 - (table.length % 4)) % 4)]);
  let sum = 0;
  for (let at = 0; at < words.length; at += 4) sum = (sum + words.readUInt32BE(at)) >>> 0;
  return sum;
}

describe('a WOFF font as the TrueType file it wraps', () => {
  it.each(fonts.map((file) => [path.basename(file), file]))('%s', (_, file) => {
    const woff = readFileSync(file);
    const sfnt = sfntFromWoff(woff);
    const numTables = sfnt.readUInt16BE(4);
    expect(numTables).toBe(woff.readUInt16BE(12));
    expect(sfnt.readUInt32BE(0)).toBe(woff.readUInt32BE(4));
    // The font's total size as the WOFF header gives it.
    expect(sfnt.length).toBe(woff.readUInt32BE(16));
    let previous = -1;
    for (let index = 0; index < numTables; index++) {
      const at = 12 + index * 16;
      const tag = sfnt.readUInt32BE(at);
      const offset = sfnt.readUInt32BE(at + 8);
      const table = sfnt.subarray(offset, offset + sfnt.readUInt32BE(at + 12));
      expect(tag).toBeGreaterThan(previous);
      previous = tag;
      expect(offset % 4).toBe(0);
      // Each table's bytes give the checksum the font's maker wrote for the original (head's counts its own
      // adjustment out).
      const sum = tag === 0x68656164 ? (checksum(table) - table.readUInt32BE(8)) >>> 0 : checksum(table);
      expect(sum, `table ${tag.toString(16)}`).toBe(sfnt.readUInt32BE(at + 4));
    }
    // fontkit reads it as the same font, and lays text out the same.
    const fromWoff = fontkit.create(woff) as fontkit.Font;
    const fromSfnt = fontkit.create(sfnt) as fontkit.Font;
    expect(fromSfnt.type).toBe('TTF');
    expect(fromSfnt.numGlyphs).toBe(fromWoff.numGlyphs);
    expect(fromSfnt.postscriptName).toBe(fromWoff.postscriptName);
    const text = 'Asha ₹1,499 श्रीमती क्षमा ਅੰਮ੍ਰਿਤਸਰ தமிழ்நாடு কলকাতা';
    const glyphs = (font: fontkit.Font) => font.layout(text).glyphs.map((glyph) => glyph.id);
    expect(glyphs(fromSfnt)).toEqual(glyphs(fromWoff));
  });

  it('refuses what is not a WOFF 1.0 font', () => {
    expect(() =>
      sfntFromWoff(Buffer.from('wOF2 and more bytes than a header needs, forty-four or so')),
    ).toThrow('not a WOFF 1.0 font');
  });
});
