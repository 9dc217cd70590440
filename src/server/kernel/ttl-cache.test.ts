import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('forgets an entry once its time is up', async () => {
    const cache = new TtlCache<string, number>(30, 10);
    cache.set('a', 1, cache.generation);
    expect(cache.get('a')).toBe(1);
    await sleep(40);
    expect(cache.get('a')).toBeUndefined();
  });

  it('does not store what a look-up read before a deletion', () => {
    const cache = new TtlCache<string, number>(60_000, 10);
    const before = cache.generation;
    cache.delete('a');
    cache.set('a', 1, before);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', 2, cache.generation);
    expect(cache.get('a')).toBe(2);
  });

  it('deletes every entry that matches, and keeps the rest', () => {
    const cache = new TtlCache<string, { user: string }>(60_000, 10);
    cache.set('s1', { user: 'u1' }, cache.generation);
    cache.set('s2', { user: 'u1' }, cache.generation);
    cache.set('s3', { user: 'u2' }, cache.generation);
    cache.deleteWhere((value) => value.user === 'u1');
    expect([cache.get('s1'), cache.get('s2'), cache.get('s3')]).toEqual([
      undefined,
      undefined,
      { user: 'u2' },
    ]);
  });

  it('holds at most its limit, dropping the oldest entry first', () => {
    const cache = new TtlCache<number, number>(60_000, 3);
    for (let i = 1; i <= 4; i++) cache.set(i, i, cache.generation);
    expect([1, 2, 3, 4].map((key) => cache.get(key))).toEqual([undefined, 2, 3, 4]);
  });
});
