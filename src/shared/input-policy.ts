import { z } from 'zod';

/**
 * One policy for every piece of text the site accepts (docs/decisions/012-input-policy.md): no NUL or other C0
 * control characters (line breaks and tabs only where a field is meant to hold several lines), no C1 controls,
 * Unicode line or paragraph separators or bidi overrides (they reflow or reorder text), no lone UTF-16
 * surrogates (they cannot be stored or mailed as UTF-8) nor the U+FFFD that invalid UTF-8 decodes to, single-line
 * fields never hold CR or LF (no header or subject injection), and every length limit holds in UTF-8 bytes as well
 * as in characters.
 */

export const INPUT_MESSAGES = {
  controlCharacter: 'Must not contain control characters',
  lineBreak: 'Must be a single line',
  invalidText: 'Contains characters that are not valid text',
  tooLong: (max: number) => `Must be at most ${max} characters`,
  tooManyBytes: (max: number) =>
    `Must be at most ${max} bytes (letters outside A–Z, and emoji, count as 2 to 4 bytes)`,
  tooDeep: (max: number) => `Is nested too deeply (at most ${max} levels of lists and objects)`,
} as const;

/** How deep request data may nest: far beyond any form or API body here, far below what could exhaust a stack. */
export const MAX_INPUT_DEPTH = 32;

/** Tab, line feed and carriage return: the only control characters a multi-line field may hold. */
const MULTILINE_CONTROLS = new Set([0x09, 0x0a, 0x0d]);

/**
 * Invisible characters that change how text after them is laid out wherever it is shown (a tax invoice, an email,
 * the dashboard): C1 controls (U+0085 NEL breaks a line), the Unicode line and paragraph separators, and the bidi
 * embeddings, overrides and isolates that can reorder what a reader sees ("Trojan Source").
 */
export const isLayoutControl = (unit: number) =>
  (unit >= 0x80 && unit <= 0x9f) ||
  unit === 0x2028 ||
  unit === 0x2029 ||
  (unit >= 0x202a && unit <= 0x202e) ||
  (unit >= 0x2066 && unit <= 0x2069);

/** True when `value` holds a control character (C0, DEL, C1, or a layout control) the field's shape does not allow. */
function hasForbiddenControl(value: string, multiline: boolean): boolean {
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if ((unit < 0x20 || unit === 0x7f) && !(multiline && MULTILINE_CONTROLS.has(unit))) return true;
    if (isLayoutControl(unit)) return true;
  }
  return false;
}
const LINE_BREAK = /[\r\n]/;
/**
 * A high surrogate not followed by a low one, a low one not preceded by a high one, or U+FFFD: what a decoder
 * makes of bytes that were not UTF-8 (a form body cannot carry a lone surrogate; it arrives as U+FFFD).
 */
const INVALID_TEXT = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\uFFFD/;

/** Length in UTF-8 bytes, the unit storage, mail and the network count in. */
export function utf8Length(value: string): number {
  let bytes = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

export type TextShape = {
  /** Tabs and line breaks allowed (messages, addresses); otherwise CR, LF and tab are refused. */
  multiline?: boolean;
  /** The most UTF-8 bytes the field may hold. */
  maxBytes?: number;
};

/** Printable ASCII: no control, separator, surrogate or U+FFFD, and one byte a character. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The first rule of the policy that `value` breaks, as the message to show, or null. */
export function textProblem(value: string, shape: TextShape = {}): string | null {
  // Most text (keys, ids, emails, most names) is printable ASCII, which only the byte limit can refuse: one pass.
  const ascii = PRINTABLE_ASCII.test(value);
  if (!ascii) {
    if (INVALID_TEXT.test(value)) return INPUT_MESSAGES.invalidText;
    if (!shape.multiline && LINE_BREAK.test(value)) return INPUT_MESSAGES.lineBreak;
    if (hasForbiddenControl(value, shape.multiline ?? false)) return INPUT_MESSAGES.controlCharacter;
  }
  if (shape.maxBytes !== undefined && (ascii ? value.length : utf8Length(value)) > shape.maxBytes)
    return INPUT_MESSAGES.tooManyBytes(shape.maxBytes);
  return null;
}

/**
 * Adds the policy to a string schema, keeping its own checks and messages. The policy's issue aborts the rest, so
 * the field error says what is wrong with the bytes rather than a later rule tripping over them.
 */
export function withTextPolicy<S extends z.ZodString>(schema: S, shape: TextShape = {}): S {
  return schema.check(
    z.superRefine((value: string, ctx) => {
      const problem = textProblem(value, shape);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value, continue: false });
    }),
  ) as S;
}

/** A single-line text field of at most `max` characters and `max` bytes. */
export const singleLineText = (max: number, message?: string) =>
  withTextPolicy(z.string({ error: message }).max(max, message ?? INPUT_MESSAGES.tooLong(max)), {
    maxBytes: max,
  });

/** A multi-line text field (tabs and line breaks allowed) of at most `max` characters and `max` bytes. */
export const multiLineText = (max: number, message?: string) =>
  withTextPolicy(z.string({ error: message }).max(max, message ?? INPUT_MESSAGES.tooLong(max)), {
    multiline: true,
    maxBytes: max,
  });

export type HostileText = { path: string; message: string };

/**
 * Walks any parsed body (JSON, form fields, a webhook's event) and reports the first string, key or value, that
 * breaks the policy for multi-line text: the floor every field meets before its own schema adds stricter rules.
 */
export function findHostileText(value: unknown): HostileText | null {
  // An explicit stack instead of recursion, and a depth limit (issue 63): a body nested 100,000 deep is a 400 with
  // a field error, never a stack overflow.
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { path, depth } = next;
    if (typeof next.value === 'string') {
      const message = textProblem(next.value, { multiline: true });
      if (message) return { path: path || '_', message };
      continue;
    }
    if (!next.value || typeof next.value !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH)
      return { path: path || '_', message: INPUT_MESSAGES.tooDeep(MAX_INPUT_DEPTH) };
    const isArray = Array.isArray(next.value);
    const entries = isArray
      ? (next.value as unknown[]).map((item, index) => [String(index), item] as const)
      : Object.entries(next.value);
    const children = [];
    for (const [key, item] of entries) {
      const keyProblem = isArray ? null : textProblem(key, {});
      if (keyProblem) return { path: path || '_', message: keyProblem };
      children.push({ value: item, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
    // Pushed last first, so fields are walked in order and the first hostile one is named.
    for (let index = children.length - 1; index >= 0; index--)
      stack.push(children[index] as (typeof children)[0]);
  }
  return null;
}
