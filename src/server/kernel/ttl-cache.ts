/**
 * What one instance may remember of rows that live in the database: a bounded map whose entries expire. Writes
 * made through this instance delete what they change at once; the TTL bounds how long a write made elsewhere
 * (another instance, the admin CLI) takes to show. Ages are measured with performance.now(), never the app's clock,
 * so a test that moves the clock cannot keep an entry alive.
 *
 * A look-up that started before a deletion must not store what it read afterwards: take `generation` before
 * reading the database and pass it to `set`, which ignores the value when anything was deleted in between.
 */
/**
 * Before a new key goes into a map that may hold `maxEntries`: when it is full, drops the oldest tenth (insertion
 * order) in one pass. Dropping one at a time would make every insert walk past all the slots deleted before it (a
 * Map keeps them until it is rebuilt): under a flood of new keys, a scan of tens of thousands of slots a request.
 */
export function makeRoom<K, V>(map: Map<K, V>, maxEntries: number): void {
  if (map.size < maxEntries) return;
  let excess = map.size - maxEntries + Math.max(1, Math.floor(maxEntries / 10));
  for (const key of map.keys()) {
    if (excess-- <= 0) break;
    map.delete(key);
  }
}

export class TtlCache<K, V> {
  readonly #entries = new Map<K, { value: V; storedAt: number }>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  #generation = 0;

  constructor(ttlMs: number, maxEntries: number) {
    this.#ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
  }

  get generation(): number {
    return this.#generation;
  }

  /** Entries held, expired ones included until they are next read or pushed out. */
  get size(): number {
    return this.#entries.size;
  }

  /** The value if it is younger than `maxAgeMs` (the cache's TTL unless the caller knows better). */
  get(key: K, maxAgeMs = this.#ttlMs): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (performance.now() - entry.storedAt < maxAgeMs) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: K, value: V, readAtGeneration: number): void {
    if (readAtGeneration !== this.#generation) return;
    this.#entries.delete(key);
    makeRoom(this.#entries, this.#maxEntries);
    this.#entries.set(key, { value, storedAt: performance.now() });
  }

  delete(key: K): void {
    this.#generation++;
    this.#entries.delete(key);
  }

  deleteWhere(matches: (value: V) => boolean): void {
    this.#generation++;
    for (const [key, entry] of this.#entries) if (matches(entry.value)) this.#entries.delete(key);
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }
}
