import semver from 'semver';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../../test/support/client';
import { shopTestAppForFile } from '../../../../test/support/file-apps';
import {
  type ActivatedMachine,
  activatedMachines,
  licenseApiCall,
} from '../../../../test/support/license-fixtures';
import { addRelease, updaterFiles } from '../../../../test/support/release-fixtures';
import {
  addToolWithUpdatePeriod,
  DAY_0,
  dayOf,
  myLicenseOf,
} from '../../../../test/support/renewal-fixtures';
import { INR_BILLING, loginAs, newBuyer, payThroughEmulator } from '../../../../test/support/shop-fixtures';
import * as winsparkle from '../../../../test/support/winsparkle';
import type { UpdateCheckAnswer } from '../../../shared/licenses';
import { addMonths } from '../../../shared/update-periods';
import { refundOrder } from '../refund';

/**
 * Issue 65's update period as the three updaters see it, with a moved clock: a license bought on day 0 with 12
 * months of updates is offered 1.1.0 (published on day 100) and not 1.2.0 (day 400) by the update check, the
 * appcast as WinSparkle reads it and Velopack's feed, while validate still answers VALID; the update check names
 * 1.2.0 under `renewal`; a renewal paid on day 380 brings 1.2.0, and its refund takes it away again.
 */

const PACKAGE = 'PeriodTool';

const t = shopTestAppForFile();
let toolId: string;

const onDay = (day: number) => t.clock.set(dayOf(day));
const pathOf = (url: string) => new URL(url).pathname;

const files = (version: string) => updaterFiles('Period', version, ['winsparkle', 'velopack'], PACKAGE);

beforeAll(async () => {
  onDay(0);
  toolId = await addToolWithUpdatePeriod(
    t,
    {
      name: 'Period Tool',
      device: 'Windows',
      priceInrPaise: 1499_00,
      activationLimit: 2,
      packageId: PACKAGE,
    },
    'period-test',
    '9',
  );
  for (const [version, day] of [
    ['1.0.0', 0],
    ['1.1.0', 100],
    ['1.2.0', 400],
  ] as const) {
    await addRelease(
      t.ctx,
      { toolId, version, publishedAt: dayOf(day), artifacts: files(version) },
      t.ctx.releaseSigning,
    );
  }
}, 120_000);

const myLicense = (client: TestClient) => myLicenseOf(client, toolId);

type Offered = {
  check: string | null;
  winsparkle: string | null;
  velopack: string | null;
  answer: UpdateCheckAnswer;
};

/** What each updater offers the machine running 1.0.0 today. */
async function offeredTo(licenseKey: string, machine: ActivatedMachine): Promise<Offered> {
  const checked = await t.app.inject({
    method: 'POST',
    url: '/api/licenses/update-check',
    payload: {
      licenseKey,
      toolId,
      fingerprint: machine.fingerprint,
      platform: 'windows',
      arch: 'x64',
      version: '1.0.0',
    },
  });
  expect(checked.statusCode, checked.body).toBe(200);
  const answer = checked.json<UpdateCheckAnswer>();
  const appcast = await t.app.inject({ url: pathOf(machine.appcastUrl) });
  const feed = await t.app.inject({
    url: `${pathOf(machine.velopackUrl)}releases.win.json?localVersion=1.0.0&id=${PACKAGE}`,
  });
  const newest = feed
    .json<{ Assets: Array<{ Version: string }> }>()
    .Assets.map((asset) => asset.Version)
    .sort(semver.rcompare)[0];
  return {
    answer,
    check: answer.update?.version ?? null,
    winsparkle:
      winsparkle.checkForUpdate(appcast.body, { arch: 'x64', windows: '10.0.19045', appVersion: '1.0.0' })
        ?.version ?? null,
    velopack: newest && semver.gt(newest, '1.0.0') ? newest : null,
  };
}

async function validate(licenseKey: string, machine: ActivatedMachine) {
  const response = await licenseApiCall(t, 'validate', {
    licenseKey,
    toolId,
    fingerprint: machine.fingerprint,
  });
  return response.json<{ code: string; updatesUntil?: string | null }>();
}

describe('an update period in the feeds', () => {
  it('offers the releases of the period, names the next under renewal, and a renewal brings it until refunded', async () => {
    onDay(0);
    const buyer = await newBuyer(t);
    await payThroughEmulator(t, buyer.client, { toolId, currency: 'INR', billingDetails: INR_BILLING });
    const license = await myLicense(buyer.client);
    const licenseKey = license.licenseKey ?? '';
    const end = addMonths(DAY_0, 12);
    expect(license.updatesUntil).toBe(end.toISOString());
    const [machine] = await activatedMachines(t.ctx, license.licenseId, 1);
    if (!machine) throw new Error('no machine');

    // Day 400: 1.2.0 was published after the period ended; every updater offers 1.1.0, and validate still says VALID.
    onDay(400);
    expect(await validate(licenseKey, machine)).toMatchObject({
      code: 'VALID',
      updatesUntil: end.toISOString(),
    });
    const before = await offeredTo(licenseKey, machine);
    expect(before).toMatchObject({ check: '1.1.0', winsparkle: '1.1.0', velopack: '1.1.0' });
    expect(before.answer.renewal).toMatchObject({ version: '1.2.0', price: 599_00, currency: 'INR' });

    // Renewed on day 380, within the period's last 60 days: until day 365 + 12 months, and 1.2.0 is offered.
    onDay(380);
    const client = await loginAs(t, buyer.user);
    const renewal = await payThroughEmulator(t, client, {
      renewLicenseId: license.licenseId,
      currency: 'INR',
      billingDetails: INR_BILLING,
    });
    expect(renewal).toMatchObject({ status: 'paid', kind: 'renewal', amount: 599_00 });
    const renewedTo = addMonths(end, 12);
    expect((await myLicense(client)).updatesUntil).toBe(renewedTo.toISOString());
    onDay(400);
    const renewed = await offeredTo(licenseKey, machine);
    expect(renewed).toMatchObject({ check: '1.2.0', winsparkle: '1.2.0', velopack: '1.2.0' });
    expect(renewed.answer.renewal).toBeNull();

    // Refunded: the period ends on day 365 again, and 1.2.0 goes from every feed.
    await refundOrder(t.ctx, { orderId: renewal.id, source: 'admin', reason: 'Bought by mistake' });
    const refunded = await offeredTo(licenseKey, machine);
    expect(refunded).toMatchObject({ check: '1.1.0', winsparkle: '1.1.0', velopack: '1.1.0' });
    expect(await validate(licenseKey, machine)).toMatchObject({
      code: 'VALID',
      updatesUntil: end.toISOString(),
    });
  });
});
