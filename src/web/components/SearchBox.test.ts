import { describe, expect, it } from 'vitest';
import { matchesSearch } from './SearchBox';

describe('search', () => {
  it('matches every word, in any field, ignoring case', () => {
    expect(matchesSearch('pdf MACOS', 'PDF Utility Toolkit', 'Merge files', 'macOS')).toBe(true);
    expect(matchesSearch('pdf linux', 'PDF Utility Toolkit', 'Merge files', 'macOS')).toBe(false);
    expect(matchesSearch('  ', 'anything')).toBe(true);
    expect(matchesSearch('merge', 'PDF Utility Toolkit', null, undefined, 'Merge files')).toBe(true);
  });
});
