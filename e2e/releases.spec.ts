import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, person, type Shop, test } from './fixtures';
import { authenticator } from './support/authenticator';
import { checkScreen as checkPage } from './support/check-screen';
import { startOperatorEnrolment } from './support/steps';

/**
 * A tool's Releases in the dashboard, as an operator uses them: the seeded tool's release 1.0.0 (its file moved into
 * a release), a new draft with notes whose preview is the server's sanitised HTML, a file uploaded with a visible
 * progress bar (the upload throttled so it can be seen), its SHA-256 and signature shown, and publishing with a
 * fresh authenticator code. axe at 390 and 1440 px; screenshots when SHOTS_DIR is set.
 */

test.describe.configure({ mode: 'serial' });

const operator = person(
  'Kavya Releases',
  'kavya.releases@example.in',
  '+919812345679',
  'Hawa Mahal at dawn 9',
);

test.use({ shopOptions: { name: 'releases' } });

let shop: Shop;
let page: Page;
let setupKey = '';

const checkScreen = (name: string) => checkPage(page, `releases-${name}`);

const nextCode = authenticator(() => setupKey);

test.beforeAll(async ({ shop: started, openPage }) => {
  test.setTimeout(300_000);
  shop = started;
  await shop.signUp(operator);
  // The default catalogue is seeded when the shop is first asked for it.
  expect((await fetch(`${shop.url}/api/alltools/`)).status).toBe(200);
  const granted = await shop.admin('operators', 'add', operator.email);
  expect(granted.stderr).toBe('');
  page = await openPage({ timezoneId: 'Asia/Kolkata' });
});

test('the operator signs in with a second factor and opens a tool’s releases', async () => {
  test.setTimeout(120_000);
  await page.goto(`${shop.url}/admin`);
  setupKey = await startOperatorEnrolment(page, operator);
  await page.getByLabel('The 6-digit code the app now shows').fill(await nextCode());
  await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
  await page.getByRole('button', { name: /open the dashboard/ }).click();

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Tools' }).click();
  // The default catalogue has the toolkit for Windows and for macOS: the Windows one.
  await page
    .getByRole('row')
    .filter({ hasText: 'Windows' })
    .getByRole('link', { name: 'PDF Utility Toolkit' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'PDF Utility Toolkit' })).toBeVisible();
  // The file the tool had before releases is release 1.0.0's installer, signed.
  const first = page.getByTestId('release-1.0.0');
  await expect(first).toContainText('published');
  await expect(first.getByTestId('artifact-signature')).toContainText(/[A-Za-z0-9+/]{80,}={0,2}/);
  await expect(page.getByLabel('Velopack package id')).toHaveAttribute('placeholder', 'PDFUtilityToolkit');
});

test('a draft gets notes, a file uploaded with progress, and is published with a fresh code', async ({
  consoleWatch,
}) => {
  test.setTimeout(180_000);
  await page.getByLabel('Version', { exact: true }).fill('1.1.0');
  await page.locator('#new-release-buildNumber').fill('7');
  // A Windows tool's release asks for the Windows minimum only, and its build number without Sparkle's key (issue 63).
  await expect(page.getByLabel('Build number', { exact: true })).toBeVisible();
  await expect(page.locator('#new-release-minimumMacosVersion')).toHaveCount(0);
  // A macOS-style minimum for Windows is refused with the form WinSparkle reads.
  await page.locator('#new-release-minimumWindowsVersion').fill('10.0');
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.locator('#new-release-minimumWindowsVersion-error')).toHaveText(
    'Write the Windows version as major.minor.build, e.g. 10.0.17763.',
  );
  await page.locator('#new-release-minimumWindowsVersion').fill('10.0.17763');
  await page.getByRole('button', { name: 'Create draft' }).click();
  const draft = page.getByTestId('release-1.1.0');
  await expect(draft).toContainText('draft');
  await expect(draft).toContainText('build 7');
  await expect(draft.getByLabel('Minimum macOS')).toHaveCount(0);
  await expect(draft.getByLabel('Minimum Windows')).toHaveValue('10.0.17763');

  await draft
    .getByLabel('Release notes (Markdown)')
    .fill('## Faster merging\n\n- Batch mode\n\n<script>alert(1)</script> [click](javascript:alert(2))');
  await draft.getByRole('button', { name: 'Save notes' }).click();
  // The notes' top heading ("## Faster merging") is shown as h4, under the preview's own h3 (headingsUnder).
  await expect(draft.getByRole('heading', { level: 4, name: 'Faster merging' })).toBeVisible();
  expect(await draft.locator('script').count()).toBe(0);
  expect(await draft.locator('a[href^="javascript"]').count()).toBe(0);

  // 3 MB at 1 MB/s: the progress bar is there for the operator to watch.
  const bytes = randomBytes(3 * 1024 * 1024);
  const file = path.join(shop.dataDir, 'PdfUtilityToolkit-Setup-1.1.0.exe');
  writeFileSync(file, bytes);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 1024 * 1024,
  });
  await draft.getByLabel('File (at most 1 GB)').setInputFiles(file);
  await draft.getByRole('button', { name: 'Upload file' }).focus();
  await page.keyboard.press('Enter');
  const progress = draft.getByRole('progressbar');
  await expect(progress).toBeVisible();
  await expect(draft.getByText(/Uploading… \d+%/)).toBeVisible();
  await expect(draft.getByTestId('artifact-sha256')).toHaveText(
    createHash('sha256').update(bytes).digest('hex'),
    {
      timeout: 60_000,
    },
  );
  await expect(progress).toHaveCount(0);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(draft.getByTestId('artifact-signature')).toContainText(/[A-Za-z0-9+/]{80,}={0,2}/);
  // Said what happened, and focus stays on the release just changed, ready for its next file (issue 63).
  await expect(page.locator('#announcer')).toHaveText(
    'PdfUtilityToolkit-Setup-1.1.0.exe uploaded to 1.1.0, hashed and signed.',
  );
  await expect(draft.getByRole('button', { name: 'Upload file' })).toBeFocused();
  await checkScreen('draft');

  await draft.getByLabel(/Code from your authenticator app \(to publish\)/).fill('000000');
  await draft.getByRole('button', { name: 'Publish 1.1.0' }).click();
  await expect(draft.getByRole('alert')).toBeVisible();
  // The browser logs the refused request itself; that one is expected.
  consoleWatch.allow(/400 \(Bad Request\).*\/publish\)$/);
  // Enter in the code field publishes; the release's summary takes focus from the form that is gone, and the
  // live region says what happened (issue 63).
  await draft.getByLabel(/Code from your authenticator app \(to publish\)/).fill(await nextCode());
  await draft.getByLabel(/Code from your authenticator app \(to publish\)/).press('Enter');
  await expect(draft.locator('summary')).toContainText('published');
  await expect(page.locator('#announcer')).toHaveText('1.1.0 is published to every machine.');
  await expect(draft.locator('summary')).toBeFocused();
  await expect(draft.getByRole('button', { name: 'Yank 1.1.0' })).toBeVisible();
  await expect(draft.getByLabel('File (at most 1 GB)')).toHaveCount(0);
  await checkScreen('published');
});
