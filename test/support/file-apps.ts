import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './app';
import { createShopTestApp, type ShopTestApp } from './shop-fixtures';

/**
 * The app a whole test file (or `describe` block) shares, started before its first test and closed after its last,
 * so that a file does not repeat the same `let t` / `beforeAll` / `afterAll`. The object is filled in by that first
 * hook: read its fields in hooks and tests, not while the file loads. Kept apart from `app.ts`, which scripts run
 * outside vitest import.
 */
function sharedForFile<T extends { close(): Promise<void> }>(start: () => Promise<T>): T {
  const shared = {} as T;
  beforeAll(async () => {
    Object.assign(shared, await start());
  });
  afterAll(() => shared.close?.());
  return shared;
}

/** `createTestApp(options)` for the whole file. */
export function testAppForFile(options: Parameters<typeof createTestApp>[0] = {}): TestApp {
  return sharedForFile(() => createTestApp(options));
}

/** `createShopTestApp(options)` (listening on a port, with its own DATA_DIR) for the whole file. */
export function shopTestAppForFile(options: Parameters<typeof createShopTestApp>[0] = {}): ShopTestApp {
  return sharedForFile(() => createShopTestApp(options));
}
