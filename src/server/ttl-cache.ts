/**
 * What one instance may remember of rows that live in the database: a bounded map whose entries expire. Writes
 * made through this instance delete what they change at once; the TTL bounds how long a write made elsewhere
 * (another instance, the admin CLI) takes to show. Ages are measured with performance.now(), never the app's clock,
 * so a test that moves the clock cannot keep an entry alive.
 *
 * A look-up that started before a deletion must not store what it read afterwards: take `generation` before
 * reading the database and pass it to `set`, which ignores the value when anything was deleted in between.
 */
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

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (performance.now() - entry.storedAt < this.#ttlMs) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: K, value: V, readAtGeneration: number): void {
    if (readAtGeneration !== this.#generation) return;
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
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
