import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../../test/support/app';
import { createTestDatabase } from '../../../test/support/database';
import { fingerprint } from '../../../test/support/license-fixtures';
import { openedMails } from '../../../test/support/mail';
import { freePort } from '../../../test/support/processes';
import { addToolWithUpdatePeriod, DAY_0, dayOf, myLicenseOf } from '../../../test/support/renewal-fixtures';
import { TEST_DATA_SECRET_KEY } from '../../../test/support/settings';
import { eventually, INR_BILLING, newBuyer, payThroughEmulator } from '../../../test/support/shop-fixtures';
import { addMonths } from '../../shared/update-periods';
import { outbox } from '../db/schema/mail';
import { followLicenseChanges } from '../licenses/change-feed';
import { reinstateLicense, suspendLicense } from '../licenses/operator';
import { cliActor } from '../operator/audit';
import { sendRenewalReminders } from './renewal-reminders';

/**
 * Issue 65's must-shows that need two instances on one PostgreSQL, as behind a load balancer: the renewal reminders
 * of days 335, 358 and 365 go once each whichever instance's job runs, and a suspension by hand reaches the other
 * instance's answers (SUSPENDED with the reason) within a second, its update feed with it; reinstating restores both.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let a: TestApp & { baseUrl: string; dataDir: string };
let b: TestApp;
let toolId: string;
const followers: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  if (!database.url) throw new Error('this test needs PostgreSQL');
  const port = await freePort();
  const env = {
    DATABASE_URL: database.url,
    DATA_SECRET_KEY: TEST_DATA_SECRET_KEY,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
  const first = await openTestApp({ env, now: DAY_0 });
  await first.app.listen({ port, host: '127.0.0.1' });
  a = { ...first, baseUrl: env.PUBLIC_URL, dataDir: first.config.dataDir };
  b = await openTestApp({ env, now: DAY_0 });
  // As main.ts does: each instance hears license changes as they commit.
  for (const instance of [a, b]) followers.push(await followLicenseChanges(instance.ctx, instance.database));
  toolId = await addToolWithUpdatePeriod(
    a,
    { name: 'GST Helper', device: 'Windows', priceInrPaise: 1499_00 },
    'renewals-test',
  );
}, 120_000);
afterAll(async () => {
  for (const follower of followers) await follower.close();
  await b?.close();
  await a?.close();
  await database?.close();
});

const onDay = (day: number) => {
  for (const instance of [a, b]) instance.clock.set(dayOf(day));
};

async function boughtLicense() {
  onDay(0);
  const buyer = await newBuyer(a);
  await payThroughEmulator(a, buyer.client, { toolId, currency: 'INR', billingDetails: INR_BILLING });
  const license = await myLicenseOf(buyer.client, toolId);
  if (!license.licenseKey) throw new Error('no license');
  return { ...buyer, license: { ...license, licenseKey: license.licenseKey } };
}

async function licenseCall(
  instance: TestApp,
  action: 'activate' | 'validate',
  licenseKey: string,
  machine: string,
) {
  const response = await instance.app.inject({
    method: 'POST',
    url: `/api/licenses/${action}`,
    headers: { 'content-type': 'application/json' },
    payload: { licenseKey, toolId, fingerprint: machine },
  });
  return response.json<{ code: string; reason?: string; updates?: { appcastUrl: string } }>();
}

describe('two instances on one PostgreSQL', () => {
  it('send the reminders of days 335, 358 and 365 once each, whichever instance runs the job', async () => {
    const { user } = await boughtLicense();
    const reminders = async () =>
      openedMails(a.ctx, await a.ctx.db.select().from(outbox).where(eq(outbox.to, user.email))).filter(
        (mail) => mail.kind.startsWith('renewal-'),
      );
    const end = addMonths(DAY_0, 12);
    for (const [day, count, subject] of [
      [334, 0, ''],
      [335, 1, 'end on 3 Mar 2027'],
      [340, 1, ''],
      [358, 2, 'end on 3 Mar 2027'],
      [365, 3, 'have ended'],
      [380, 3, ''],
    ] as const) {
      onDay(day);
      // Both instances' jobs at once, as two servers' timers may fire together.
      await Promise.all([
        sendRenewalReminders(a.ctx),
        sendRenewalReminders(b.ctx),
        sendRenewalReminders(a.ctx),
      ]);
      const sent = await reminders();
      expect(sent, `day ${day}`).toHaveLength(count);
      if (subject) expect(sent.at(-1)?.subject).toContain(subject);
    }
    const [last] = (await reminders()).slice(-1);
    expect(last?.text).toContain('Renew updates for ₹599.00');
    expect(last?.text).toContain(`/my-tools?renew=`);
    expect(end.getTime()).toBe(dayOf(365).getTime());
  });

  it('answer SUSPENDED with the reason on the other instance within a second, the feed gone, until reinstated', async () => {
    const { license } = await boughtLicense();
    const machine = fingerprint('desk');
    const activated = await licenseCall(a, 'activate', license.licenseKey, machine);
    const feed = activated.updates?.appcastUrl ?? '';
    expect((await licenseCall(b, 'validate', license.licenseKey, machine)).code).toBe('VALID');
    const feedPath = new URL(feed).pathname;
    expect((await b.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(200);

    await suspendLicense(
      a.ctx,
      { license: { licenseKey: license.licenseKey }, reason: 'Key shared on a public forum.' },
      cliActor('ops'),
    );
    const started = Date.now();
    const suspended = await eventually(async () => {
      const answer = await licenseCall(b, 'validate', license.licenseKey, machine);
      return answer.code === 'SUSPENDED' ? answer : undefined;
    });
    expect(suspended).toEqual({ valid: false, code: 'SUSPENDED', reason: 'Key shared on a public forum.' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await b.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(404);

    await reinstateLicense(a.ctx, { license: { licenseKey: license.licenseKey } }, cliActor('ops'));
    await eventually(async () =>
      (await licenseCall(b, 'validate', license.licenseKey, machine)).code === 'VALID' ? true : undefined,
    );
    expect((await b.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(200);
  });
});
