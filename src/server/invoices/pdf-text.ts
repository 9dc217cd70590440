import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';
import { isLayoutControl } from '../../shared/input-policy';
import { sfntFromWoff } from './woff';

/**
 * Which font file draws which characters on a tax document. Buyers write their names and addresses in the scripts
 * of India; Noto covers each in a file of its own, and a glyph missing from the chosen file prints as nothing. So
 * text is cut into runs by Unicode script and each run is set in its script's file: Latin in Noto Sans's Latin
 * file, the rupee sign and other Latin letters in its Latin Extended file, and each Indic script in its Noto Sans
 * file, whose OpenType rules fontkit applies to form conjuncts and place vowel signs.
 */

const INDIC_SCRIPTS = [
  'Devanagari',
  'Bengali',
  'Gujarati',
  'Gurmukhi',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Oriya',
] as const;
type IndicScript = (typeof INDIC_SCRIPTS)[number];
export type Face = 'latin' | 'latin-ext' | IndicScript;
export type Weight = 'regular' | 'bold';
export type Run = { text: string; face: Face };

const SCRIPT_PATTERNS = INDIC_SCRIPTS.map(
  (script) => [script, new RegExp(`^\\p{Script=${script}}$`, 'u')] as const,
);
/**
 * Characters of no script of their own that belong to the letters before them: combining marks, the joiners that
 * choose a conjunct's form, the dandas shared by the northern scripts, the dotted circle.
 */
const COMBINING_MARK = /^\p{M}$/u;
const CLINGS_TO_PREVIOUS = new Set([0x200c, 0x200d, 0x0964, 0x0965, 0x25cc]);
/** What Noto Sans's Latin file holds beyond U+0000–U+00FF and General Punctuation (fontsource's unicode-range). */
const LATIN_EXTRAS = new Set([
  0x0131, 0x0152, 0x0153, 0x02bb, 0x02bc, 0x02c6, 0x02da, 0x02dc, 0x0304, 0x0308, 0x0329, 0x20ac, 0x2122,
  0x2191, 0x2193, 0x2212, 0x2215, 0xfeff, 0xfffd,
]);

function faceOf(char: string, previous: Face | undefined): Face {
  for (const [script, pattern] of SCRIPT_PATTERNS) if (pattern.test(char)) return script;
  const code = char.codePointAt(0) ?? 0;
  if (COMBINING_MARK.test(char) || CLINGS_TO_PREVIOUS.has(code)) return previous ?? 'latin';
  return code <= 0xff || (code >= 0x2000 && code <= 0x206f) || LATIN_EXTRAS.has(code) ? 'latin' : 'latin-ext';
}

/** The text cut into runs that one font file each can draw, in order. */
export function runsOf(text: string): Run[] {
  const runs: Run[] = [];
  for (const char of text) {
    const last = runs.at(-1);
    const face = faceOf(char, last?.face);
    if (last && last.face === face) last.text += char;
    else runs.push({ text: char, face });
  }
  return runs;
}

/**
 * The text as it may be drawn. The input policy refuses control characters, but documents keep what was stored
 * before it did: C0 and C1 controls (U+0085 NEL breaks a line), tabs and the Unicode line and paragraph separators
 * become spaces, bidi overrides and isolates are dropped, and line feeds stay only where the text may hold several
 * lines (an address).
 */
export function printable(text: string, options: { multiline: boolean }): string {
  let out = '';
  for (const char of text.replace(/\r\n?/g, '\n')) {
    const unit = char.charCodeAt(0);
    if (char === '\n') out += options.multiline ? '\n' : ' ';
    else if (unit >= 0x202a && unit <= 0x202e) continue;
    else if (unit >= 0x2066 && unit <= 0x2069) continue;
    else if (unit < 0x20 || unit === 0x7f || isLayoutControl(unit)) out += ' ';
    else out += char;
  }
  return out;
}

const require = createRequire(import.meta.url);
const WEIGHTS: Record<Weight, 400 | 700> = { regular: 400, bold: 700 };

/** Each script's Noto Sans package, named in full so that the dependency check sees them in use. */
const PACKAGE_JSON: Record<IndicScript, string> = {
  Devanagari: require.resolve('@fontsource/noto-sans-devanagari/package.json'),
  Bengali: require.resolve('@fontsource/noto-sans-bengali/package.json'),
  Gujarati: require.resolve('@fontsource/noto-sans-gujarati/package.json'),
  Gurmukhi: require.resolve('@fontsource/noto-sans-gurmukhi/package.json'),
  Tamil: require.resolve('@fontsource/noto-sans-tamil/package.json'),
  Telugu: require.resolve('@fontsource/noto-sans-telugu/package.json'),
  Kannada: require.resolve('@fontsource/noto-sans-kannada/package.json'),
  Malayalam: require.resolve('@fontsource/noto-sans-malayalam/package.json'),
  Oriya: require.resolve('@fontsource/noto-sans-oriya/package.json'),
};

function fontFile(face: Face, weight: Weight): string {
  if (face === 'latin' || face === 'latin-ext')
    return require.resolve(`@fontsource/noto-sans/files/noto-sans-${face}-${WEIGHTS[weight]}-normal.woff`);
  const script = face.toLowerCase();
  const file = `noto-sans-${script}-${script}-${WEIGHTS[weight]}-normal.woff`;
  return path.join(path.dirname(PACKAGE_JSON[face]), 'files', file);
}

/** The first four keep the names they have always had, so a Latin-only document draws exactly as before. */
const LATIN_NAMES: Record<string, string> = {
  'latin regular': 'regular',
  'latin bold': 'bold',
  'latin-ext regular': 'symbol',
  'latin-ext bold': 'symbolBold',
};
const fontName = (face: Face, weight: Weight) => LATIN_NAMES[`${face} ${weight}`] ?? `${face}-${weight}`;

/**
 * The fonts of an app instance, each read and parsed once, when a document first needs it (most need only Latin),
 * then shared by every document it draws. pdfkit takes a parsed fontkit font as well as a file (its changelog,
 * 0.20.0: "Accept already-parsed fontkit Font instances"); given the file, it parsed the font anew for each document,
 * and fontkit inflated the WOFF's tables in JavaScript each time: 150–200 ms an invoice, on the event loop every
 * answer shares; parsed once (and inflated once, ./woff.ts), an invoice draws in 13–30 ms (docs/performance.md).
 */
export type PdfFonts = { fontOf(face: Face, weight: Weight): fontkit.Font };

declare module '../kernel/context' {
  interface AppContext {
    pdfFonts: PdfFonts;
  }
}

export function createPdfFonts(): PdfFonts {
  const loaded = new Map<string, fontkit.Font>();
  return {
    fontOf(face, weight) {
      const name = fontName(face, weight);
      const font =
        loaded.get(name) ??
        (fontkit.create(sfntFromWoff(readFileSync(fontFile(face, weight)))) as fontkit.Font);
      loaded.set(name, font);
      return font;
    },
  };
}

/** A document being drawn, with the fonts it draws from and those it has registered so far. */
export type TypesetDocument = PDFKit.PDFDocument & {
  readonly typeface: { fonts: PdfFonts; registered: Set<string> };
};

export const typeset = (doc: PDFKit.PDFDocument, fonts: PdfFonts): TypesetDocument =>
  Object.assign(doc, { typeface: { fonts, registered: new Set<string>() } });

/** Selects the font for a run in `doc`, registering its file with the document on first use. */
export function setFont(doc: TypesetDocument, face: Face, weight: Weight): PDFKit.PDFDocument {
  const name = fontName(face, weight);
  const { fonts, registered } = doc.typeface;
  if (!registered.has(name)) {
    // @types/pdfkit names only files and bytes as a font's source.
    doc.registerFont(name, fonts.fontOf(face, weight) as unknown as PDFKit.Mixins.PDFFontSource);
    registered.add(name);
  }
  return doc.font(name);
}

/**
 * fontkit 2.0 fails on mark attachments some Noto files leave empty (Gurmukhi's tippi and bindi over some bases:
 * "Cannot read properties of null (reading 'xCoordinate')"). A run it cannot position is drawn without the
 * above- and below-base mark positioning, then without any: the marks keep the place the font gives them by
 * default, which reads correctly, where a failure would lose the whole document.
 */
const FALLBACK_FEATURES: Array<Record<string, boolean>> = [
  { abvm: false, blwm: false },
  { abvm: false, blwm: false, mark: false, mkmk: false },
];
/** fontkit takes features switched on and off by name; pdfkit's types know only the list of those switched on. */
const switches = (features: Record<string, boolean>): PDFKit.Mixins.TextOptions => ({
  features: features as unknown as PDFKit.Mixins.OpenTypeFeatures[],
});

function laysOut(doc: TypesetDocument, run: Run, weight: Weight, options: PDFKit.Mixins.TextOptions) {
  try {
    setFont(doc, run.face, weight).widthOfString(run.text, options);
    return true;
  } catch (error) {
    if (error instanceof TypeError) return false;
    throw error;
  }
}

/**
 * The shaping options that draw every run of one line or paragraph: the fonts' own, unless fontkit fails on one.
 * One set for all runs, because pdfkit measures a paragraph's chained runs with the options of its first.
 */
export function shapingFor(doc: TypesetDocument, runs: Run[], weight: Weight): PDFKit.Mixins.TextOptions {
  for (const options of [{}, ...FALLBACK_FEATURES.map(switches)]) {
    if (runs.every((run) => laysOut(doc, run, weight, options))) return options;
  }
  return switches(FALLBACK_FEATURES.at(-1) ?? {});
}
