import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testAppForFile } from '../../../test/support/file-apps';
import { fingerprint, type LicensedPurchase, licensedPurchase } from '../../../test/support/license-fixtures';
import type { LicenseAnswer, LicenseFilePayload } from '../../shared/licenses';
import { tools } from '../db/schema/catalogue';
import { licenseActivations } from '../db/schema/licenses';

/** Floating licenses (leases.ts, decision 049) through the real app, on a clock the test moves. */
const t = testAppForFile();
let addressCounter = 0;

const MINUTE = 60_000;

async function call(
  action: 'activate' | 'validate' | 'heartbeat' | 'deactivate',
  purchase: LicensedPurchase,
  machine: string,
) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/licenses/${action}`,
    headers: { 'content-type': 'application/json' },
    payload: { licenseKey: purchase.licenseKey, toolId: purchase.toolId, fingerprint: machine },
    remoteAddress: `10.9.${Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}`,
  });
  expect(response.statusCode).toBe(200);
  return response.json<LicenseAnswer>();
}

/** A purchase of a floating tool with `seats` seats and a heartbeat every `minutes`. */
async function floatingPurchase(seats: number, minutes = 1) {
  const purchase = await licensedPurchase(t.ctx, { activationLimit: seats });
  await t.ctx.db
    .update(tools)
    .set({ licenseModel: 'floating', heartbeatMinutes: minutes })
    .where(eq(tools.id, purchase.toolId));
  return purchase;
}

const payloadOf = (answer: LicenseAnswer): LicenseFilePayload =>
  JSON.parse(Buffer.from(JSON.parse(answer.licenseFile ?? '{}').payload, 'base64').toString('utf8'));

async function freedBy(licenseId: string) {
  const rows = await t.ctx.db
    .select({ by: licenseActivations.deactivatedBy })
    .from(licenseActivations)
    .where(eq(licenseActivations.licenseId, licenseId));
  return rows.map((row) => row.by).filter(Boolean);
}

describe('floating seats', () => {
  it('holds two leases, refuses a third machine, and gives a quiet machine’s seat back without a deactivation', async () => {
    const purchase = await floatingPurchase(2, 1);
    const [a, b, c] = [fingerprint('fa'), fingerprint('fb'), fingerprint('fc')];

    const first = await call('activate', purchase, a);
    const start = t.clock.now().getTime();
    expect(first).toMatchObject({
      valid: true,
      code: 'VALID',
      license: { activationLimit: 2, activationsUsed: 1 },
    });
    // The interval plus a grace of one interval.
    expect(first.leaseExpiresAt).toBe(new Date(start + 2 * MINUTE).toISOString());
    expect(first.heartbeatSeconds).toBe(60);
    // The offline file ends with the lease.
    expect(payloadOf(first).refreshBefore).toBe(first.leaseExpiresAt);
    expect(payloadOf(first).leaseExpiresAt).toBe(first.leaseExpiresAt);
    expect(await call('activate', purchase, b)).toMatchObject({ valid: true, code: 'VALID' });
    expect(await call('activate', purchase, c)).toMatchObject({
      valid: false,
      code: 'LIMIT_REACHED',
      license: { activationsUsed: 2 },
    });

    // Both machines beat once a minute; then b goes quiet while a keeps beating.
    t.clock.advance(MINUTE);
    const beat = await call('heartbeat', purchase, a);
    expect(beat).toMatchObject({ valid: true, code: 'VALID' });
    expect(beat.leaseExpiresAt).toBe(new Date(start + 3 * MINUTE).toISOString());
    expect(Date.parse(payloadOf(beat).refreshBefore)).toBeLessThanOrEqual(
      Date.parse(beat.leaseExpiresAt ?? ''),
    );
    expect(await call('heartbeat', purchase, b)).toMatchObject({ valid: true, code: 'VALID' });
    expect(await call('validate', purchase, b)).toMatchObject({ valid: true, code: 'VALID' });
    t.clock.advance(MINUTE);
    expect((await call('heartbeat', purchase, a)).code).toBe('VALID');
    // b's lease (renewed at +1 min) is still live at +2 min: the third machine waits.
    expect((await call('activate', purchase, c)).code).toBe('LIMIT_REACHED');
    t.clock.advance(MINUTE);
    expect((await call('heartbeat', purchase, a)).code).toBe('VALID');
    // At +3 min b's lease has lapsed: validate says so at once (also from this instance's memory).
    expect((await call('validate', purchase, b)).code).toBe('NOT_ACTIVATED');
    const third = await call('activate', purchase, c);
    expect(third).toMatchObject({ valid: true, code: 'VALID', license: { activationsUsed: 2 } });
    expect((await call('heartbeat', purchase, b)).code).toBe('NOT_ACTIVATED');
    expect((await call('activate', purchase, b)).code).toBe('LIMIT_REACHED');
    // b's seat went back as lapsed, which no allowance counts.
    expect(await freedBy(purchase.licenseId)).toEqual(['lapsed']);

    // A clean exit frees the seat at once, again outside the allowance, however often it happens.
    for (let round = 0; round < 4; round++) {
      expect(await call('deactivate', purchase, c)).toMatchObject({
        code: 'NOT_ACTIVATED',
        deactivated: true,
      });
      expect((await call('activate', purchase, c)).code).toBe('VALID');
    }
    expect((await call('activate', purchase, b)).code).toBe('LIMIT_REACHED');
    expect((await freedBy(purchase.licenseId)).filter((by) => by === 'released')).toHaveLength(4);
  });

  it('gives exactly 2 of 10 machines activating at once a seat', async () => {
    const purchase = await floatingPurchase(2, 10);
    const machines = Array.from({ length: 10 }, (_, index) => fingerprint(`race${index}`));
    const answers = await Promise.all(machines.map((machine) => call('activate', purchase, machine)));
    expect(answers.filter((answer) => answer.code === 'VALID')).toHaveLength(2);
    expect(answers.filter((answer) => answer.code === 'LIMIT_REACHED')).toHaveLength(8);
    const live = await t.ctx.db
      .select({ id: licenseActivations.id })
      .from(licenseActivations)
      .where(
        and(eq(licenseActivations.licenseId, purchase.licenseId), isNull(licenseActivations.deactivatedAt)),
      );
    expect(live).toHaveLength(2);
  });

  it('answers a per-device license’s heartbeat as validate, with no lease', async () => {
    const purchase = await licensedPurchase(t.ctx);
    const machine = fingerprint('pd');
    expect((await call('heartbeat', purchase, machine)).code).toBe('NOT_ACTIVATED');
    expect((await call('activate', purchase, machine)).leaseExpiresAt).toBeUndefined();
    const beat = await call('heartbeat', purchase, machine);
    expect(beat).toMatchObject({ valid: true, code: 'VALID' });
    expect(beat.leaseExpiresAt).toBeUndefined();
  });
});
