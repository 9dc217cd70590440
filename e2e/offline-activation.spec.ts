import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import type { PublicKey } from '../packages/license-client/src/index';
import { hashSessionId, SESSION_TTL_MS } from '../src/server/auth/session';
import { type Database, openDatabase } from '../src/server/db/index';
import { sessions } from '../src/server/db/schema/accounts';
import { toolEditions, tools } from '../src/server/db/schema/catalogue';
import { licenses } from '../src/server/db/schema/licenses';
import { formatDate } from '../src/web/lib/dates';
import { emptyPostgresDatabase } from '../test/support/database';
import { licensedPurchase } from '../test/support/license-fixtures';
import { type OfflineComputer, offlineComputer } from '../test/support/offline-computer';
import { expect, test } from './fixtures';
import { checkScreen } from './support/check-screen';
import { expectVisibleFocus, tabTo } from './support/focus';
import { type RunningServer, startServer } from './support/server';

/**
 * A computer that never goes online (issue 67), end to end: the reference client on a computer with no network
 * (its own network namespace) makes a request and saves it as a file; the buyer, signed in, uploads it on My Tools
 * with the keyboard alone and downloads the response; the computer loads it and runs with its edition until the
 * file's end, which a clock moved past refuses; a renewal is pasted; the code the computer shows when it gives its
 * license up frees the seat. On the embedded database at a phone's width, and again on PostgreSQL (when
 * TEST_DATABASE_URL names a server) at a desktop's; every screen checked with axe at 390 and 1440 px.
 */
test.describe.configure({ mode: 'serial' });
test.use({ shopOptions: { name: 'offline-activation' } });

const TOOL = 'Audit Trail Inspector';
const MACHINE = { fingerprint: 'win-audit-room-0a1b2c3d4e5f', name: 'Audit room PC' };
const DAY_MS = 24 * 60 * 60 * 1000;
/** A day as My Tools writes it in India (the browser's zone here), whatever zone this process runs in. */
const dayInIndia = (date: Date) => formatDate(date, 'dayAndTimeInIndia').split(',')[0];

/** The shop's database as the journey needs it: a tool with a Pro edition, its buyer's license and session. */
async function prepare(db: Database, sessionId: string) {
  const [tool] = await db
    .insert(tools)
    .values({
      name: TOOL,
      description: 'Checks a ledger’s audit trail on the machine where the books are kept, offline.',
      device: 'Windows',
      priceInrPaise: 249_900,
    })
    .returning({ id: tools.id });
  if (!tool) throw new Error('tool insert returned no row');
  const [edition] = await db
    .insert(toolEditions)
    .values({ toolId: tool.id, name: 'Pro', position: 2, priceInrPaise: 249_900, entitlements: ['ocr'] })
    .returning({ id: toolEditions.id });
  const purchase = await licensedPurchase(db, { toolId: tool.id });
  await db.update(licenses).set({ editionId: edition?.id }).where(eq(licenses.id, purchase.licenseId));
  const now = new Date();
  await db.insert(sessions).values({
    idHash: hashSessionId(sessionId),
    userId: purchase.userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
  });
  return { toolId: tool.id };
}

const drivers = process.env.TEST_DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const);

for (const driver of drivers) {
  test.describe(`on ${driver}`, () => {
    const width = driver === 'pglite' ? 390 : 1440;
    const height = width < 768 ? 844 : 900;
    let url = '';
    let page: Page;
    let toolId = '';
    let computer: OfflineComputer;
    let ownServer: RunningServer | undefined;
    let dropDatabase: (() => Promise<void>) | undefined;
    const sessionId = randomBytes(32).toString('base64url');

    test.beforeAll(async ({ shop, openPage }) => {
      test.setTimeout(240_000);
      if (driver === 'pglite') {
        // Written with the server stopped (PGlite is one process), then the server starts on it.
        await shop.server.stop();
        const database = await openDatabase({ pgliteDir: path.join(shop.dataDir, 'pglite') });
        await database.migrate();
        ({ toolId } = await prepare(database.db, sessionId));
        await database.close();
        await shop.server.start();
        url = shop.url;
      } else {
        const postgres = await emptyPostgresDatabase();
        dropDatabase = postgres.drop;
        const database = await openDatabase({ databaseUrl: postgres.url, pgliteDir: '' });
        await database.migrate();
        ({ toolId } = await prepare(database.db, sessionId));
        await database.close();
        ownServer = await startServer({ DATABASE_URL: postgres.url });
        url = ownServer.url;
      }
      const keys = (await (await fetch(`${url}/api/licenses/public-keys`)).json()) as { keys: PublicKey[] };
      computer = offlineComputer(keys.keys, url);
      page = await openPage({
        viewport: { width, height },
        timezoneId: 'Asia/Kolkata',
        locale: 'en-IN',
        acceptDownloads: true,
      });
      await page.context().addCookies([{ name: 'sessionid', value: sessionId, url }]);
    });
    test.afterAll(async () => {
      await page?.context().close();
      await ownServer?.close();
      await dropDatabase?.();
    });

    const card = () => page.getByRole('article', { name: `${TOOL} (Windows)`, exact: true });
    const devices = () => card().getByRole('list', { name: 'Devices' });
    const requestFile = () => path.join(computer.folder, 'activation-request.txt');
    const responseFile = () => path.join(computer.folder, 'activation-response.json');
    const check = async (name: string) => {
      await checkScreen(page, `offline-activation-${driver}-${name}`);
      await page.setViewportSize({ width, height });
    };

    test('the computer makes its request with no network, and saves it as a file', async () => {
      const made = await computer.run({ command: 'request', ...MACHINE, toolId, requestFile: requestFile() });
      expect(made.network).toBe('unreachable');
      expect(made.request).toMatch(/^PCA-OFFLINE-1\./);
      expect(made.request?.length).toBeLessThanOrEqual(1000);
    });

    test('the buyer uploads the request on My Tools with the keyboard alone and saves the response', async () => {
      await page.goto(`${url}/my-tools`);
      await expect(
        card().getByText('No device yet: enter the key in the tool to activate it.'),
      ).toBeVisible();
      await tabTo(page, 'Activate a computer without internet', { max: 80 });
      await page.keyboard.press('Enter');
      await expectVisibleFocus(page, 'the form opens on its request field', 'Activation request');
      await check('form');

      await tabTo(page, 'Or choose the request file');
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
      await chooser.setFiles(requestFile());
      await expect(card().getByLabel('Activation request')).toHaveValue(/^PCA-OFFLINE-1\.[\w-]+$/);

      await tabTo(page, 'Get the response file');
      await page.keyboard.press('Enter');
      const link = card().getByRole('link', { name: 'Download the response file' });
      await expectVisibleFocus(page, 'the response is ready', 'Download the response file');
      const ends = dayInIndia(new Date(Date.now() + 365 * DAY_MS));
      await expect(card().getByText(`activated without internet until ${ends}`)).toBeVisible();
      const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
      expect(download.suggestedFilename()).toBe('audit-trail-inspector-activation-response.json');
      await download.saveAs(responseFile());
      await expect(link).toBeVisible();

      // The device list shows the computer as offline, with its name and the file's end.
      const row = devices().getByRole('listitem').filter({ hasText: MACHINE.name });
      await expect(row.getByText(`Offline · its license file works until ${ends}`)).toBeVisible();
      await expect(card().getByText('1 of 2 devices')).toBeVisible();
      await check('response');
      await tabTo(page, 'Done');
      await page.keyboard.press('Enter');
      await expectVisibleFocus(page, 'Done gives focus back', 'Activate a computer without internet');
    });

    test('the computer loads the response without a network and runs with its edition until the file ends', async () => {
      const loaded = await computer.run({ command: 'activate', responseFile: responseFile() });
      expect(loaded.network).toBe('unreachable');
      expect(loaded.check).toMatchObject({ valid: true, status: 'active', edition: { name: 'Pro' } });
      expect(loaded.check?.entitlements).toEqual(['ocr']);
      const endsAt = Date.parse(loaded.check?.endsAt ?? '');
      expect(Math.abs(endsAt - (Date.now() + 365 * DAY_MS))).toBeLessThan(10 * 60_000);

      expect((await computer.run({ command: 'check', fingerprint: MACHINE.fingerprint })).check?.valid).toBe(
        true,
      );
      // The same computer a year and a day later, by its own clock.
      const late = await computer.run(
        { command: 'check', fingerprint: MACHINE.fingerprint },
        { daysAhead: 366 },
      );
      expect(late.refusal).toMatchObject({ valid: false, reason: 'expired' });
    });

    test('a renewal is a pasted request for the same seat', async () => {
      const renewal = await computer.run({
        command: 'request',
        ...MACHINE,
        toolId,
        requestFile: requestFile(),
      });
      await expectVisibleFocus(page, 'focus is where Done left it', 'Activate a computer without internet');
      await page.keyboard.press('Enter');
      await expectVisibleFocus(page, 'the form opens again', 'Activation request');
      // A paste, as the keyboard makes it (Ctrl+V puts the text in as one insertion).
      await page.keyboard.insertText(renewal.request ?? '');
      await tabTo(page, 'Get the response file');
      await page.keyboard.press('Enter');
      await expectVisibleFocus(page, 'the renewal is ready', 'Download the response file');
      const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
      await download.saveAs(responseFile());
      expect((await computer.run({ command: 'activate', responseFile: responseFile() })).check?.valid).toBe(
        true,
      );
      await expect(card().getByText('1 of 2 devices')).toBeVisible();
    });

    test('the code the computer shows when it gives its license up frees the seat', async () => {
      const given = await computer.run({ command: 'deactivate' });
      expect(given.network).toBe('unreachable');
      expect(given.code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
      expect(
        (await computer.run({ command: 'check', fingerprint: MACHINE.fingerprint })).refusal?.reason,
      ).toBe('not-activated');

      await tabTo(page, `Enter the deactivation code of ${MACHINE.name}`, { back: true });
      await page.keyboard.press('Enter');
      await expectVisibleFocus(page, 'the code form opens on its field', 'Deactivation code');
      await page.keyboard.type(given.code ?? '');
      await check('code');
      await page.keyboard.press('Enter');
      const said = page.getByRole('note').filter({
        hasText: `${MACHINE.name} is deactivated: its seat is free. A deactivation code does not count against your monthly deactivations.`,
      });
      await expect(said).toBeVisible();
      await expect(
        card().getByText('No device yet: enter the key in the tool to activate it.'),
      ).toBeVisible();
      await expectVisibleFocus(
        page,
        'focus stays in the license panel',
        /Copy license key|Activate a computer/,
      );
      // Checked once the toast has gone: axe reads a fading toast's colours as they are in that instant.
      await expect(said).toBeHidden({ timeout: 15_000 });
      await check('freed');
    });
  });
}
