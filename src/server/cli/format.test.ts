import { describe, expect, it } from 'vitest';
import { csvField, table } from './format';
import { CommandError } from './framework';
import { parseSince } from './lookup';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CommandError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('output', () => {
  it('neutralises spreadsheet formulas and quotes CSV fields', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvField(null)).toBe('');
  });

  it('keeps table rows on one line whatever a customer typed', () => {
    const text = table(['NAME', 'NOTE'], [['Asha\nVerma\u001b[31m', 'ok']], 'none');
    expect(text.split('\n')).toEqual([
      'NAME             NOTE',
      '---------------  ----',
      'Asha Verma [31m  ok',
    ]);
  });
});

describe('parseSince', () => {
  const now = new Date('2026-06-10T12:00:00Z');
  it('reads ages and dates', () => {
    expect(parseSince('7d', now).toISOString()).toBe('2026-06-03T12:00:00.000Z');
    expect(parseSince('90m', now).toISOString()).toBe('2026-06-10T10:30:00.000Z');
    expect(parseSince('2026-06-01T09:30Z', now).toISOString()).toBe('2026-06-01T09:30:00.000Z');
    expect(refusal(() => parseSince('last week', now))).toMatch(/not a date or an age/);
  });
});
