import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  findHostileText,
  INPUT_MESSAGES,
  multiLineText,
  singleLineText,
  textProblem,
  utf8Length,
  withTextPolicy,
} from './input-policy';

describe('the text policy', () => {
  it('counts UTF-8 bytes as Buffer does, surrogate pairs as four', () => {
    for (const sample of ['', 'abc', 'é', '€uro', '😀', 'नमस्ते', 'a😀b€']) {
      expect(utf8Length(sample)).toBe(Buffer.byteLength(sample, 'utf8'));
    }
  });

  it('refuses NUL, other C0 controls and DEL everywhere; tab and line breaks only outside multi-line fields', () => {
    expect(textProblem('a\u0000b')).toBe(INPUT_MESSAGES.controlCharacter);
    expect(textProblem('a\u0000b', { multiline: true })).toBe(INPUT_MESSAGES.controlCharacter);
    expect(textProblem('bell\u0007', { multiline: true })).toBe(INPUT_MESSAGES.controlCharacter);
    expect(textProblem('del\u007f')).toBe(INPUT_MESSAGES.controlCharacter);
    expect(textProblem('Eve\r\nBcc: x@example.com')).toBe(INPUT_MESSAGES.lineBreak);
    expect(textProblem('tab\there')).toBe(INPUT_MESSAGES.controlCharacter);
    expect(textProblem('line one\r\n\tline two', { multiline: true })).toBeNull();
    expect(textProblem('Asha Verma')).toBeNull();
  });

  it('refuses C1 controls, line and paragraph separators and bidi overrides, even in multi-line fields', () => {
    for (const control of [
      '\u0085',
      '\u0080',
      '\u009f',
      '\u2028',
      '\u2029',
      '\u202e',
      '\u202a',
      '\u2066',
      '\u2069',
    ]) {
      expect(textProblem(`12 MI Road${control}Jaipur`, { multiline: true }), control).toBe(
        INPUT_MESSAGES.controlCharacter,
      );
    }
    // Joiners shape Indic conjuncts; they are text, not controls.
    expect(textProblem('क्\u200dष', { multiline: true })).toBeNull();
    expect(textProblem('राम निवास, जयपुर')).toBeNull();
  });

  it('refuses lone surrogates and the replacement character of invalid UTF-8, but takes emoji', () => {
    expect(textProblem('\ud800')).toBe(INPUT_MESSAGES.invalidText);
    expect(textProblem('x\udc00y')).toBe(INPUT_MESSAGES.invalidText);
    expect(textProblem('\ud83d')).toBe(INPUT_MESSAGES.invalidText);
    expect(textProblem('bad byte \ufffd')).toBe(INPUT_MESSAGES.invalidText);
    expect(textProblem('😀 fine')).toBeNull();
  });

  it('takes every printable ASCII character in one pass, but not its neighbours, and holds its byte limit', () => {
    const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
    expect(textProblem(printable)).toBeNull();
    expect(textProblem(`${printable}\u001f`)).toBe(INPUT_MESSAGES.controlCharacter);
    expect(textProblem(`${printable}\u007f`)).toBe(INPUT_MESSAGES.controlCharacter);
    expect(textProblem('a'.repeat(12), { maxBytes: 12 })).toBeNull();
    expect(textProblem('a'.repeat(13), { maxBytes: 12 })).toBe(INPUT_MESSAGES.tooManyBytes(12));
  });

  it('holds a limit in bytes as well as characters', () => {
    const field = singleLineText(12);
    expect(field.safeParse('a'.repeat(12)).success).toBe(true);
    expect(field.safeParse('€'.repeat(4)).success).toBe(true);
    const euros = field.safeParse('€'.repeat(5));
    expect(euros.success).toBe(false);
    expect(euros.error?.issues[0]?.message).toBe(INPUT_MESSAGES.tooManyBytes(12));
    expect(field.safeParse('a'.repeat(13)).error?.issues[0]?.message).toBe(INPUT_MESSAGES.tooLong(12));
    expect(multiLineText(20).safeParse('two\nlines').success).toBe(true);
    expect(field.safeParse('two\nlines').error?.issues[0]?.message).toBe(INPUT_MESSAGES.lineBreak);
  });

  it('adds the policy to an existing schema and keeps its own messages', () => {
    const name = withTextPolicy(z.string().max(5, 'Too long'), { maxBytes: 5 });
    expect(name.safeParse('abcdef').error?.issues[0]?.message).toBe('Too long');
    expect(name.safeParse('a\u0000').error?.issues[0]?.message).toBe(INPUT_MESSAGES.controlCharacter);
    expect(name.parse('abc')).toBe('abc');
  });

  it('finds the first hostile string anywhere in a parsed body, keys included', () => {
    expect(findHostileText({ a: 'ok', b: { c: ['fine', 'x\u0000'] } })).toEqual({
      path: 'b.c.1',
      message: INPUT_MESSAGES.controlCharacter,
    });
    expect(findHostileText({ 'bad\u0000key': 'v' })?.message).toBe(INPUT_MESSAGES.controlCharacter);
    expect(findHostileText({ text: 'multi\nline\tok', n: 3, nothing: null })).toBeNull();
  });
});
