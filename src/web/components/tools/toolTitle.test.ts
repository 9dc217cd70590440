import { describe, expect, it } from 'vitest';
import { toolTitle } from './toolTitle';

describe('tool card words (docs/product.md §2, §4)', () => {
  it('puts the device in brackets after the name, and nothing for a tool without one', () => {
    expect(toolTitle({ name: 'PDF Utility Toolkit', device: 'Windows' })).toBe(
      'PDF Utility Toolkit (Windows)',
    );
    expect(toolTitle({ name: 'PDF Utility Toolkit', device: null })).toBe('PDF Utility Toolkit');
  });
});
