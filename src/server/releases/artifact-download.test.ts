import { describe, expect, it } from 'vitest';
import { requestedRange } from './artifact-download';

describe('requestedRange', () => {
  it('reads the single byte ranges a resuming download sends', () => {
    expect(requestedRange(undefined, 1000)).toBeUndefined();
    expect(requestedRange('bytes=0-499', 1000)).toEqual({ start: 0, end: 499 });
    expect(requestedRange('bytes=500-', 1000)).toEqual({ start: 500, end: 999 });
    expect(requestedRange('bytes=900-5000', 1000)).toEqual({ start: 900, end: 999 });
    expect(requestedRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(requestedRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
  });

  it('answers the whole file for what it need not honour, and 416 for what cannot be satisfied', () => {
    expect(requestedRange('items=0-1', 1000)).toBeUndefined();
    expect(requestedRange('bytes=0-1,5-9', 1000)).toBeUndefined();
    for (const header of ['bytes=1000-', 'bytes=9-3', 'bytes=-0', 'bytes=-', 'bytes=a-b', 'bytes=1-2-3']) {
      expect(requestedRange(header, 1000), header).toBe('unsatisfiable');
    }
    expect(requestedRange('bytes=0-', 0)).toBe('unsatisfiable');
  });
});
