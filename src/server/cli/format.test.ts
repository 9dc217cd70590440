import { describe, expect, it } from 'vitest';
import { csvField, table } from './format';
import { sinceDate } from './lookup';

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

describe('sinceDate', () => {
  const now = new Date('2026-06-10T12:00:00Z');
  it('reads ages and dates, and nothing else', () => {
    expect(sinceDate('7d', now)).toEqual(new Date('2026-06-03T12:00:00.000Z'));
    expect(sinceDate('90m', now)).toEqual(new Date('2026-06-10T10:30:00.000Z'));
    expect(sinceDate('2026-06-01T09:30Z', now)).toEqual(new Date('2026-06-01T09:30:00.000Z'));
    expect(sinceDate('last week', now)).toBeUndefined();
  });

  it('says a moment a filter may not name is out of range', () => {
    expect(sinceDate('0099-06-15', now)).toBe('out of range');
    expect(sinceDate('999999d', now)).toBe('out of range');
  });
});
