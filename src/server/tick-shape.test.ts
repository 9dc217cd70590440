import { describe, expect, it } from 'vitest';
import { keepNextTickShape } from './tick-shape';

describe('keepNextTickShape', () => {
  it('keeps one of nextTick’s own queue entries, the same one on every call', () => {
    const kept = keepNextTickShape() as { callback?: unknown; args?: unknown } | undefined;
    // If Node stopped naming its queue entries TickObject, nothing would be kept and this would say so.
    expect(kept).toBeDefined();
    expect(typeof kept?.callback).toBe('function');
    expect(kept && Object.keys(kept)).toEqual(['callback', 'args']);
    // Its async ids, under Node's own symbols: the literal whose shape is kept.
    expect(kept && Object.getOwnPropertySymbols(kept).map(String)).toEqual([
      'Symbol(async_id_symbol)',
      'Symbol(trigger_async_id_symbol)',
    ]);
    expect(keepNextTickShape()).toBe(kept);
  });
});
