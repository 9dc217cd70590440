import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { hashSessionId, SESSION_TTL_MS } from '../src/server/auth/session';
import { openDatabase } from '../src/server/db/index';
import { sessions } from '../src/server/db/schema/accounts';
import { tools } from '../src/server/db/schema/catalogue';
import { createLocalStorage } from '../src/server/storage/index';
import { licensedPurchase } from '../test/support/license-fixtures';
import { addRelease } from '../test/support/release-fixtures';
import { expect, type Shop, test } from './fixtures';

/**
 * My Tools with releases, from the buyer's side: the current version with its notes (the server's sanitised HTML),
 * an installer per platform through a fresh 3-hour link, and the earlier versions behind a disclosure. The buyer's
 * purchase, releases and session are written into the database before the real server starts on it.
 */
test.describe.configure({ mode: 'serial' });

const TOOL = 'Ledger Reconciler';
const sessionId = randomBytes(32).toString('base64url');
test.use({ shopOptions: { name: 'releases-my-tools' } });

let shop: Shop;
let page: Page;

test.beforeAll(async ({ shop: started, openPage }) => {
  shop = started;
  // Written into the database with the server stopped (PGlite is one process), then the server starts on it.
  await shop.server.stop();
  const dataDir = shop.dataDir;
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  await database.migrate();
  const [tool] = await database.db
    .insert(tools)
    .values({
      name: TOOL,
      description: 'Matches bank statements against your books and lists what does not agree, offline.',
      device: 'Windows',
      priceInrPaise: 149_900,
    })
    .returning({ id: tools.id });
  if (!tool) throw new Error('tool insert returned no row');
  const purchase = await licensedPurchase(database.db, { toolId: tool.id });
  const target = { db: database.db, storage: createLocalStorage(path.join(dataDir, 'files')) };
  const installer = (version: string, platform: 'windows' | 'macos', size: number) => ({
    platform,
    arch: platform === 'macos' ? ('universal' as const) : ('x64' as const),
    kind: 'installer' as const,
    fileName: `LedgerReconciler-${version}-${platform === 'macos' ? 'mac.dmg' : 'setup.exe'}`,
    content: Buffer.concat([Buffer.from(`installer ${version} ${platform}\n`), Buffer.alloc(size)]),
  });
  await addRelease(target, {
    toolId: tool.id,
    version: '1.0.0',
    publishedAt: new Date('2026-08-14T09:00:00Z'),
    artifacts: [installer('1.0.0', 'windows', 3_100_000)],
  });
  await addRelease(target, {
    toolId: tool.id,
    version: '1.1.0',
    publishedAt: new Date('2026-11-20T09:00:00Z'),
    notesMarkdown: [
      '## Bank feeds',
      '',
      'Imports statements from **HDFC**, **ICICI** and **SBI** in CSV.',
      '',
      '- Matches UPI references',
      '- Faster on large ledgers',
      '',
      '<script>window.injected = true</script><img src=x onerror="window.injected = true">',
      '[More](javascript:window.injected=true)',
    ].join('\n'),
    artifacts: [installer('1.1.0', 'windows', 3_400_000), installer('1.1.0', 'macos', 4_200_000)],
  });
  await addRelease(target, {
    toolId: tool.id,
    version: '1.2.0-beta.1',
    channel: 'beta',
    artifacts: [installer('1.2.0-beta.1', 'windows', 10)],
  });
  await addRelease(target, {
    toolId: tool.id,
    version: '1.3.0',
    state: 'yanked',
    artifacts: [installer('1.3.0', 'windows', 10)],
  });
  const now = new Date();
  await database.db.insert(sessions).values({
    idHash: hashSessionId(sessionId),
    userId: purchase.userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
  });
  await database.close();

  await shop.server.start();
  page = await openPage({ timezoneId: 'Asia/Kolkata', locale: 'en-US', acceptDownloads: true });
  await page.context().addCookies([{ name: 'sessionid', value: sessionId, url: shop.url }]);
});

const card = () => page.getByRole('article', { name: `${TOOL} (Windows)`, exact: true });

test('My Tools shows the current version, its notes without anything unsafe, and an installer per platform', async () => {
  await page.goto(`${shop.url}/my-tools`);
  const version = card().getByRole('region', { name: 'Current version' });
  await expect(version.getByText('Version 1.1.0')).toBeVisible();
  await expect(version.getByRole('heading', { name: 'Bank feeds' })).toBeVisible();
  await expect(version.getByText('Matches UPI references')).toBeVisible();
  expect(await version.locator('script, img, [onerror], a[href^="javascript"]').count()).toBe(0);
  expect(await page.evaluate(() => (window as { injected?: boolean }).injected)).toBeUndefined();
  // Neither the beta nor the yanked release is offered to buyers.
  await expect(card().getByText('1.2.0-beta.1')).toHaveCount(0);
  await expect(card().getByText('1.3.0')).toHaveCount(0);

  const windows = version.getByRole('link', { name: `Download ${TOOL} 1.1.0 for Windows 64-bit, 3.2 MB` });
  await expect(version.getByRole('link', { name: `Download ${TOOL} 1.1.0 for macOS, 4.0 MB` })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), windows.click()]);
  expect(download.suggestedFilename()).toBe('LedgerReconciler-1.1.0-setup.exe');
  const saved = readFileSync((await download.path()) ?? '');
  expect(saved.subarray(0, 22).toString()).toBe('installer 1.1.0 window');
  expect(saved.length).toBe(3_400_000 + 'installer 1.1.0 windows\n'.length);
});

test('earlier versions open from a disclosure, and the page has no accessibility violations', async ({
  snap,
}) => {
  const version = card().getByRole('region', { name: 'Current version' });
  const earlier = version.getByText('Earlier versions');
  await expect(
    version.getByRole('link', { name: `Download ${TOOL} 1.0.0 for Windows 64-bit, 3.0 MB` }),
  ).toBeHidden();
  await earlier.click();
  await expect(
    version.getByRole('link', { name: `Download ${TOOL} 1.0.0 for Windows 64-bit, 3.0 MB` }),
  ).toBeVisible();

  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
  await snap('releases-my-tools-my-tools-versions');
});
