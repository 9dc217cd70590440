import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createTestApp, type TestApp } from './app';
import { createShopTestApp, type ShopTestApp } from './shop-fixtures';
import { TestSmtpServer } from './smtp';

/**
 * What a whole test file (or `describe` block) shares, made by `make` in `beforeAll` and filled into the object
 * returned now, so that a file does not repeat the same `let x` / `beforeAll(x = …)`. Read its fields in hooks and
 * tests, not while the file loads. Kept apart from `app.ts`, which scripts run outside vitest import.
 */
export function sharedForFile<T extends object>(make: () => Promise<T>): T {
  const shared = {} as T;
  beforeAll(async () => {
    Object.assign(shared, await make());
  });
  return shared;
}

function closedAfterFile<T extends { close(): Promise<void> }>(start: () => Promise<T>): T {
  const shared = sharedForFile(start);
  afterAll(() => shared.close?.());
  return shared;
}

/** `createTestApp(options)` for the whole file, closed after its last test. */
export function testAppForFile(options: Parameters<typeof createTestApp>[0] = {}): TestApp {
  return closedAfterFile(() => createTestApp(options));
}

/** `createShopTestApp(options)` (listening on a port, with its own DATA_DIR) for the whole file, closed after it. */
export function shopTestAppForFile(options: Parameters<typeof createShopTestApp>[0] = {}): ShopTestApp {
  return closedAfterFile(() => createShopTestApp(options));
}

/**
 * A test SMTP server and an app whose mail goes to it (`start` is `createTestApp` or `createShopTestApp`, given
 * `env` and SMTP_URL): for the whole file or block, or, with `each`, a fresh pair for every test (no mail of an
 * earlier test in `smtp.messages`). The app is closed before the server stops.
 */
export function appWithSmtp<T extends TestApp>(
  start: (options: { env: Record<string, string> }) => Promise<T>,
  { env = {}, each = false }: { env?: Record<string, string>; each?: boolean } = {},
): { t: T; smtp: TestSmtpServer } {
  const t = {} as T;
  const smtp = new TestSmtpServer();
  const [before, after] = each ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    smtp.messages.length = 0;
    await smtp.start(0);
    Object.assign(t, await start({ env: { SMTP_URL: smtp.url, ...env } }));
  });
  after(async () => {
    await t.close?.();
    await smtp.stop();
  });
  return { t, smtp };
}
