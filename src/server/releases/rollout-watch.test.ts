import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secondInstance } from '../../../test/support/app';
import {
  type ActivatedMachine,
  activatedMachines,
  type LicensedPurchase,
  licensedPurchase,
  windowsUpdateCheck,
} from '../../../test/support/license-fixtures';
import { deliverDueMail } from '../../../test/support/mail';
import { addRelease, updaterFiles } from '../../../test/support/release-fixtures';
import { addTool, createShopTestApp, type ShopTestApp } from '../../../test/support/shop-fixtures';
import { TestSmtpServer } from '../../../test/support/smtp';
import { WebhookReceiver } from '../../../test/support/webhook-receiver';
import type { UpdateCheckAnswer } from '../../shared/licenses';
import { auditLog } from '../db/schema/operator';
import { releases } from '../db/schema/releases';
import { cliActor } from '../operator/audit';
import { createWebhookWorker } from '../webhooks/delivery';
import { addWebhookEndpoint } from '../webhooks/operator';
import { publishRelease } from './operator';
import { STUCK_AFTER_MS, watchRollouts } from './rollout';

/**
 * `--halt-if-stuck` (issue 66): machines that downloaded a release and are still seen on the old version a day later
 * are stuck; past the operator's share the rollout watch halts the release, emails the firm and sends
 * release.rollout_changed, once, though both instances run the watch. The clock is the test's, moved by hand.
 */

const operator = cliActor('rollout-watch-tester');
const MACHINES = 10;
let t: ShopTestApp;
let second: Awaited<ReturnType<typeof secondInstance>>;
let smtp: TestSmtpServer;
let receiver: WebhookReceiver;
let purchase: LicensedPurchase;
let fleet: ActivatedMachine[];
let staged: string;

/** The update check of the machine running `version`, as the reference client sends it. */
async function updateCheck(app: FastifyInstance, machine: ActivatedMachine, version: string) {
  const answer = await windowsUpdateCheck({ app }, purchase, machine, version);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<UpdateCheckAnswer>();
}

beforeAll(async () => {
  smtp = await new TestSmtpServer().start();
  receiver = await new WebhookReceiver().start();
  t = await createShopTestApp({
    env: { WEBHOOKS_ALLOW_LOOPBACK: '1', SMTP_URL: smtp.url, MAIL_TO_FIRM: 'releases@firm.test' },
  });
  second = await secondInstance(t);
  const tool = await addTool(t, { name: 'Stuck Tool' });
  purchase = await licensedPurchase(t.ctx, { toolId: tool.id });
  await addRelease(t.ctx, {
    toolId: tool.id,
    version: '1.0.0',
    artifacts: updaterFiles('Stuck', '1.0.0', ['installer']),
  });
  const next = await addRelease(t.ctx, {
    toolId: tool.id,
    version: '1.1.0',
    state: 'draft',
    artifacts: updaterFiles('Stuck', '1.1.0', ['installer']),
  });
  staged = next.release.id;
  fleet = await activatedMachines(t.ctx, purchase.licenseId, MACHINES);
});
afterAll(async () => {
  await second?.close();
  await t?.close();
  await receiver?.close();
  await smtp?.stop();
});

describe('a rollout published with --halt-if-stuck 20', () => {
  it('is halted by the watch once 3 of 10 machines stay on 1.0.0 a day after downloading 1.1.0: one email, one webhook', async () => {
    const endpoint = await addWebhookEndpoint(t.ctx, operator, {
      url: receiver.url('/rollouts'),
      events: ['release.rollout_changed'],
      description: 'Release alerts',
    });
    await publishRelease(t.ctx, staged, operator, { rolloutPercent: 100, haltIfStuckPercent: 20 });

    // Day 0: every machine on 1.0.0 is offered 1.1.0 and downloads it (through both instances).
    for (const [index, machine] of fleet.entries()) {
      const app = index % 2 === 0 ? t.app : second.app;
      const { update } = await updateCheck(app, machine, '1.0.0');
      expect(update?.version).toBe('1.1.0');
      const download = await app.inject({ url: new URL(update?.artifact.url ?? '').pathname });
      expect(download.statusCode).toBe(200);
    }
    // Nothing is judged before a day has passed.
    expect(await watchRollouts(t.ctx)).toEqual({ halted: [] });

    // A day and an hour later: seven machines run 1.1.0, three are still seen on 1.0.0.
    t.clock.advance(STUCK_AFTER_MS + 60 * 60 * 1000);
    for (const [index, machine] of fleet.entries()) {
      await updateCheck(index % 2 === 0 ? second.app : t.app, machine, index < 3 ? '1.0.0' : '1.1.0');
    }
    // Both instances' watches run at once; only one halts it.
    const runs = await Promise.all([watchRollouts(t.ctx), watchRollouts(second.ctx)]);
    expect(runs.flatMap((run) => run.halted)).toEqual([staged]);
    expect(await watchRollouts(t.ctx)).toEqual({ halted: [] });

    const [halted] = await t.ctx.db.select().from(releases).where(eq(releases.id, staged));
    expect(halted).toMatchObject({ rolloutState: 'halted', rolloutPercent: 100 });
    // Halted: a machine still on 1.0.0 is offered nothing, a machine on 1.1.0 is not sent back.
    t.clock.advance(61_000);
    expect((await updateCheck(t.app, fleet[0] as ActivatedMachine, '1.0.0')).update).toBeNull();
    expect((await updateCheck(t.app, fleet[5] as ActivatedMachine, '1.1.0')).update).toBeNull();

    const audit = await t.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `release:${staged}`));
    expect(audit.map((entry) => [entry.action, entry.actor])).toEqual([
      ['release.publish', 'cli:rollout-watch-tester'],
      ['release.rollout', 'system:rollout-watch'],
    ]);

    await deliverDueMail(t.ctx);
    await deliverDueMail(t.ctx);
    const mail = await smtp.waitFor((message) => message.subject.includes('was halted'));
    expect(mail.to).toContain('releases@firm.test');
    expect(mail.subject).toBe('The rollout of Stuck Tool 1.1.0 was halted');
    expect(mail.text).toContain('3 of the 10 machines that downloaded Stuck Tool 1.1.0');
    expect(mail.text).toContain(`releases rollout ${staged} --resume`);
    expect(smtp.messages.filter((message) => message.subject.includes('was halted'))).toHaveLength(1);

    await createWebhookWorker(t.ctx).drain();
    await createWebhookWorker(second.ctx).drain();
    const sent = receiver.at('/rollouts').map((request) => WebhookReceiver.verify(request, endpoint.secret));
    expect(sent.map((payload) => payload.type)).toEqual(['release.rollout_changed']);
    expect(sent[0]?.data).toMatchObject({ releaseId: staged, percent: 100, state: 'halted' });
  });
});
