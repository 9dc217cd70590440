import { createHook } from 'node:async_hooks';

let kept: object | undefined;

/**
 * Keeps one of `process.nextTick`'s queue entries alive for the life of the process, so V8 keeps their shape.
 *
 * Node builds each entry as an object literal with computed keys, and V8 remembers that literal's shape only
 * weakly. Each garbage collection that finds no entry alive (an idle server, or the embedded database's backup at
 * start) throws the shape away, and the next call builds a new one. After a few of those, V8 stops specialising
 * the literal for good: every `nextTick` from then on takes V8's slow runtime path. An HTTP request makes about
 * five of them (its streams'), and the license API's hottest call cost about 2 µs more, 8% of its time
 * (docs/performance.md, decision 029). One entry kept alive keeps the shape, and the fast path, for good.
 *
 * The entry is caught with an async hook enabled around one `nextTick` only: no hook runs afterwards. Returns it
 * (the same one on every call).
 */
export function keepNextTickShape(): object | undefined {
  if (kept) return kept;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') kept ??= resource;
    },
  }).enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
  return kept;
}
