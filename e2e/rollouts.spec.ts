import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { openDatabase } from '../src/server/db/index';
import { tools } from '../src/server/db/schema/catalogue';
import { createLocalStorage } from '../src/server/storage/index';
import type { UpdateCheckAnswer } from '../src/shared/licenses';
import type { ToolAdoption } from '../src/shared/releases';
import { licensedPurchase } from '../test/support/license-fixtures';
import { addRelease } from '../test/support/release-fixtures';
import { expect, person, type Shop, test } from './fixtures';
import { authenticator } from './support/authenticator';
import { checkScreen as checkPage } from './support/check-screen';
import { startOperatorEnrolment } from './support/steps';

/**
 * A staged rollout on the dashboard's release page (issue 66): 1.1.0 published to half the machines from the command
 * line, twenty machines of a real license checking for updates, downloading and reporting the version they run
 * through the real server; the page's adoption table and chart agree with `releases adoption --json`, and the
 * operator halts, resumes and widens the rollout with a fresh code. axe at 390 and 1440 px; screenshots with SHOTS_DIR.
 */
test.describe.configure({ mode: 'serial' });

const TOOL = 'Rollout Reconciler';
const MACHINES = 20;
const operator = person(
  'Meera Rollouts',
  'meera.rollouts@example.in',
  '+919812345670',
  'Jal Mahal at noon 7',
);
test.use({ shopOptions: { name: 'rollouts' } });

let shop: Shop;
let page: Page;
let setupKey = '';
let toolId = '';
let licenseKey = '';
const nextCode = authenticator(() => setupKey);
const checkScreen = (name: string) => checkPage(page, `rollouts-${name}`);

const installer = (version: string) => ({
  platform: 'windows' as const,
  kind: 'installer' as const,
  fileName: `RolloutReconciler-${version}-setup.exe`,
  content: Buffer.from(`installer ${version}\n`),
});

async function licenseCall<T>(call: 'activate' | 'update-check', body: Record<string, string>): Promise<T> {
  const response = await fetch(`${shop.url}/api/licenses/${call}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ licenseKey, toolId, ...body }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

const updateCheck = (fingerprint: string, version: string) =>
  licenseCall<UpdateCheckAnswer>('update-check', { fingerprint, platform: 'windows', arch: 'x64', version });

async function adoptionFromCli(): Promise<ToolAdoption> {
  const run = await shop.admin('releases', 'adoption', TOOL, '--json');
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as ToolAdoption;
}

test.beforeAll(async ({ shop: started, openPage }) => {
  test.setTimeout(300_000);
  shop = started;
  // Written into the database with the server stopped (PGlite is one process), then the server starts on it.
  await shop.server.stop();
  const database = await openDatabase({ pgliteDir: path.join(shop.dataDir, 'pglite') });
  await database.migrate();
  const [tool] = await database.db
    .insert(tools)
    .values({
      name: TOOL,
      description: 'Matches bank statements against your books, staged to a share of machines first.',
      device: 'Windows',
      priceInrPaise: 149_900,
      activationLimit: MACHINES,
    })
    .returning({ id: tools.id });
  if (!tool) throw new Error('tool insert returned no row');
  toolId = tool.id;
  const purchase = await licensedPurchase(database.db, { toolId });
  licenseKey = purchase.licenseKey ?? '';
  const target = { db: database.db, storage: createLocalStorage(path.join(shop.dataDir, 'files')) };
  await addRelease(target, { toolId, version: '1.0.0', artifacts: [installer('1.0.0')] });
  await addRelease(target, { toolId, version: '1.1.0', state: 'draft', artifacts: [installer('1.1.0')] });
  await database.close();
  await shop.server.start();

  await shop.signUp(operator);
  expect((await shop.admin('operators', 'add', operator.email)).stderr).toBe('');
  page = await openPage({ timezoneId: 'Asia/Kolkata' });
});

test('half the machines are offered 1.1.0; the page’s adoption figures are the command line’s', async () => {
  test.setTimeout(180_000);
  const published = await shop.admin(
    'releases',
    'publish',
    TOOL,
    '1.1.0',
    '--rollout',
    '50',
    '--halt-if-stuck',
    '20',
  );
  expect(published.stderr).toBe('');
  expect(published.stdout).toContain('Rollout: 50 % of machines, rolling.');

  // Twenty machines on 1.0.0 check; of those offered 1.1.0, every other one downloads it and reports running it.
  let offered = 0;
  let running = 0;
  for (let index = 0; index < MACHINES; index += 1) {
    const fingerprint = `rollout-${index}-${randomBytes(6).toString('hex')}`;
    expect((await licenseCall<{ code: string }>('activate', { fingerprint })).code).toBe('VALID');
    const { update } = await updateCheck(fingerprint, '1.0.0');
    if (!update) continue;
    offered += 1;
    if (offered % 2 === 1) {
      expect((await fetch(update.artifact.url)).status).toBe(200);
      await updateCheck(fingerprint, '1.1.0');
      running += 1;
    }
  }
  // 50 % of 20 machines: far from none and from all.
  expect(offered).toBeGreaterThan(3);
  expect(offered).toBeLessThan(17);

  const cli = await adoptionFromCli();
  const byVersion = new Map(cli.versions.map((version) => [version.version, version]));
  expect(byVersion.get('1.1.0')).toMatchObject({
    machines: running,
    offered,
    downloaded: running,
    running,
    rollout: { percent: 50, state: 'rolling' },
  });
  expect(byVersion.get('1.0.0')?.machines).toBe(MACHINES - running);
  expect(cli.activeMachines).toBe(MACHINES);

  await page.goto(`${shop.url}/admin`);
  setupKey = await startOperatorEnrolment(page, operator);
  await page.getByLabel('The 6-digit code the app now shows').fill(await nextCode());
  await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
  await page.getByRole('button', { name: /open the dashboard/ }).click();
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Tools' }).click();
  await page.getByRole('link', { name: TOOL }).click();
  await expect(page.getByRole('heading', { level: 1, name: TOOL })).toBeVisible();

  const staged = page.getByTestId('release-1.1.0');
  // The newest release is open.
  await expect(staged.getByTestId('rollout-state')).toBeVisible();
  await expect(staged.getByTestId('rollout-state')).toContainText('50 % of machines, rolling');
  await expect(staged.getByTestId('rollout-state')).toContainText(
    'the watch halts it when more than 20 % of the machines that downloaded it are stuck',
  );

  // The adoption table, row by row, is `releases adoption --json`.
  const table = page.getByRole('table', { name: 'Versions the tool’s machines run' });
  await expect(table.getByRole('row')).toHaveCount(1 + cli.versions.length);
  for (const version of cli.versions) {
    const cells = await table
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: version.version, exact: true }) })
      .getByRole('cell')
      .allInnerTexts();
    expect(cells.slice(2).map((cell) => cell.trim())).toEqual([
      String(version.machines),
      `${(version.share * 100).toFixed(1)} %`,
      String(version.offered),
      String(version.downloaded),
      String(version.running),
    ]);
  }
  await expect(page.getByTestId('adoption-summary')).toContainText(`${cli.activeMachines} machines seen`);
  // The chart's figures (its table for screen readers) are the JSON's days: today holds every machine so far.
  const days = byVersion.get('1.1.0')?.days ?? [];
  const today = days.at(-1);
  await expect(page.locator('[data-testid="adoption-days"] tbody tr').last()).toHaveText(
    [today?.day, today?.offered, today?.downloaded, today?.running].join(''),
  );
  await expect(page.locator('.uplot canvas')).toBeVisible();
  await checkScreen('staged');
});

test('the operator halts, resumes and completes the rollout with a fresh code each time', async ({
  consoleWatch,
}) => {
  // Each change takes a code of its own time step: up to half a minute's wait for each.
  test.setTimeout(300_000);
  const staged = page.getByTestId('release-1.1.0');
  const code = staged.getByLabel('Code from your authenticator app (to change it)');
  const state = staged.getByTestId('rollout-state');

  // From the command line: one change at a time, and only wider; the page shows the new share once reloaded.
  const both = await shop.admin('releases', 'rollout', TOOL, '1.1.0', '--halt', '--resume');
  expect(both).toMatchObject({ code: 1, stdout: '' });
  expect(both.stderr).toContain('takes one of --percent N, --halt, --resume or --complete');
  const widened = await shop.admin('releases', 'rollout', TOOL, '1.1.0', '--percent', '60');
  expect(widened.stderr).toBe('');
  expect(widened.stdout).toContain('The rollout of 1.1.0: 60 % of machines, rolling.');
  await page.reload();
  await expect(state).toContainText('60 % of machines, rolling');

  // Narrowing is refused: machines offered it keep it.
  await staged.getByLabel('Widen to (% of machines)').fill('30');
  await code.fill(await nextCode());
  await staged.getByRole('button', { name: 'Widen' }).click();
  await expect(staged.getByRole('alert')).toContainText('it only widens');
  consoleWatch.allow(/409 \(Conflict\).*\/rollout\)$/);
  consoleWatch.allow(/400 \(Bad Request\).*\/rollout\)$/);

  await code.fill(await nextCode());
  await staged.getByRole('button', { name: 'Halt' }).click();
  await expect(state).toContainText('halted at 60 %');
  expect((await adoptionFromCli()).versions.find((v) => v.version === '1.1.0')?.rollout).toEqual({
    percent: 60,
    state: 'halted',
  });
  await checkScreen('halted');

  // Halted, the form has no share to widen: Enter in the code field sends nothing, the code stays for Resume (issue 63).
  const rolloutRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/rollout')) rolloutRequests.push(request.postData() ?? '');
  });
  await code.fill(await nextCode());
  await code.press('Enter');
  await staged.getByRole('button', { name: 'Resume' }).click();
  await expect(state).toContainText('60 % of machines, rolling');
  expect(rolloutRequests).toHaveLength(1);
  expect(rolloutRequests[0]).toContain('"resume"');
  await code.fill(await nextCode());
  await staged.getByRole('button', { name: 'Complete' }).click();
  await expect(state).toContainText('complete: every machine is offered it');
  await expect(
    page
      .getByRole('table', { name: 'Versions the tool’s machines run' })
      .getByRole('row', { name: /1\.1\.0/ }),
  ).toContainText('complete');

  const audit = await shop.admin('activity', '--search', 'release.rollout', '--json');
  expect(audit.stdout.match(/release\.rollout/g)?.length).toBe(4);
});
