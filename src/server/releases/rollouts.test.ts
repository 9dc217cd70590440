import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secondInstance } from '../../../test/support/app';
import {
  type ActivatedMachine,
  activatedMachines,
  type LicensedPurchase,
  licensedPurchase,
  windowsUpdateCheck,
} from '../../../test/support/license-fixtures';
import { addRelease, updaterFiles } from '../../../test/support/release-fixtures';
import { addTool, createShopTestApp, type ShopTestApp } from '../../../test/support/shop-fixtures';
import * as sparkle from '../../../test/support/sparkle';
import { installedVelopackApp } from '../../../test/support/velopack';
import * as winsparkle from '../../../test/support/winsparkle';
import type { UpdateCheckAnswer } from '../../shared/licenses';
import { tools } from '../db/schema/catalogue';
import { auditLog } from '../db/schema/operator';
import { releases } from '../db/schema/releases';
import { webhookDeliveries } from '../db/schema/webhooks';
import { cliActor } from '../operator/audit';
import { addWebhookEndpoint } from '../webhooks/operator';
import { rolloutPlace } from './offer';
import { publishRelease } from './operator';
import { changeRollout } from './rollout';

/**
 * Staged rollouts (issue 66) as 1,000 machines see them through every client: the update check, the appcast read
 * by ports of Sparkle's and WinSparkle's own code, and Velopack's feed, on this instance and a second one on the same
 * database. A machine's answer is the same from all of them, and follows `hash(activation, release) mod 100`.
 */

const MACHINES = 1000;
const PACKAGE = 'RolloutTool';
const operator = cliActor('rollout-tester');

let t: ShopTestApp;
let second: Awaited<ReturnType<typeof secondInstance>>;
let purchase: LicensedPurchase;
let fleet: ActivatedMachine[];
let staged: string;
/** Build numbers (Sparkle's sparkle:version) by version. */
const builds = new Map<string, number>();

const files = (version: string) =>
  updaterFiles('Rollout', version, ['installer', 'winsparkle', 'sparkle', 'velopack'], PACKAGE);

/** Each request from its own address, as machines in the field call: the per-address limit is not what is tested. */
const addressOf = (index: number) => `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
const pathOf = (url: string) => new URL(url).pathname;

/**
 * Runs `each` for every machine, ten at a time. The license API counts 60 calls a minute per key and every machine
 * here shares one license: the test's clock (both instances read it) moves a minute on every 50 machines.
 */
async function forEachMachine(each: (machine: ActivatedMachine, index: number) => Promise<void>) {
  for (let start = 0; start < fleet.length; start += 10) {
    if (start % 50 === 0) t.clock.advance(61_000);
    await Promise.all(fleet.slice(start, start + 10).map((machine, offset) => each(machine, start + offset)));
  }
}

type Answer = {
  check: string | null;
  sparkle: string | null;
  winsparkle: string | null;
  velopack: string | null;
};

/** What each client offers the machine running `version`, from `app`. */
async function answerOf(
  app: FastifyInstance,
  machine: ActivatedMachine,
  index: number,
  version = '1.0.0',
): Promise<Answer> {
  const remoteAddress = addressOf(index);
  const checked = await windowsUpdateCheck({ app }, purchase, machine, version, remoteAddress);
  expect(checked.statusCode, checked.body).toBe(200);
  // One appcast URL serves both: Sparkle reads its Mac items, WinSparkle its Windows items.
  const [appcast, velopack] = await Promise.all([
    app.inject({
      url: pathOf(machine.appcastUrl),
      remoteAddress,
      headers: { 'user-agent': `Rollout Tool/${version} Sparkle/2.6.4` },
    }),
    app.inject({
      url: `${pathOf(machine.velopackUrl)}releases.win.json?localVersion=${version}&id=${PACKAGE}`,
      remoteAddress,
    }),
  ]);
  const offeredBySparkle = sparkle.bestUpdate(appcast.body, {
    hostVersion: String(builds.get(version)),
    systemVersion: '14.5',
  });
  const [newest] = velopack
    .json<{ Assets: Array<{ Version: string }> }>()
    .Assets.map((asset) => asset.Version);
  return {
    check: checked.json<UpdateCheckAnswer>().update?.version ?? null,
    sparkle: offeredBySparkle?.displayVersionString ?? null,
    winsparkle:
      winsparkle.checkForUpdate(appcast.body, { arch: 'x64', windows: '10.0.19045', appVersion: version })
        ?.version ?? null,
    // Velopack takes the feed's newest package when it is above the running version (AllowVersionDowngrade off).
    velopack: newest && semver.gt(newest, version) ? newest : null,
  };
}

/** The machines (by index) every client on both instances offers 1.1.0, after checking they all agree. */
async function offeredEverywhere(): Promise<Set<number>> {
  const offered = new Set<number>();
  await forEachMachine(async (machine, index) => {
    const [here, there] = await Promise.all([
      answerOf(t.app, machine, index),
      answerOf(second.app, machine, index),
    ]);
    const all = [here.check, here.sparkle, here.winsparkle, here.velopack, ...Object.values(there)];
    expect(new Set(all).size, `machine ${index}: ${JSON.stringify({ here, there })}`).toBe(1);
    if (here.check === '1.1.0') offered.add(index);
  });
  return offered;
}

/** The machines whose Velopack feed lists 1.1.0 (the cheapest client to ask of a thousand machines). */
async function velopackOffered(app: FastifyInstance): Promise<Set<number>> {
  const offered = new Set<number>();
  await forEachMachine(async (machine, index) => {
    const feed = await app.inject({
      url: `${pathOf(machine.velopackUrl)}releases.win.json?localVersion=1.0.0`,
      remoteAddress: addressOf(index),
    });
    if (feed.json<{ Assets: Array<{ Version: string }> }>().Assets.some((asset) => asset.Version === '1.1.0'))
      offered.add(index);
  });
  return offered;
}

const placeOf = (index: number) => rolloutPlace(fleet[index]?.activationId ?? '', staged);

beforeAll(async () => {
  t = await createShopTestApp({ env: { WEBHOOKS_ALLOW_LOOPBACK: '1', LOG_LEVEL: 'error' } });
  second = await secondInstance(t);
  const tool = await addTool(t, { name: 'Rollout Tool', packageId: PACKAGE });
  await t.ctx.db.update(tools).set({ activationLimit: MACHINES }).where(eq(tools.id, tool.id));
  purchase = await licensedPurchase(t.ctx, { toolId: tool.id });
  const signer = t.ctx.releaseSigning;
  const first = await addRelease(
    t.ctx,
    { toolId: tool.id, version: '1.0.0', artifacts: files('1.0.0') },
    signer,
  );
  builds.set('1.0.0', first.release.buildNumber);
  const next = await addRelease(
    t.ctx,
    { toolId: tool.id, version: '1.1.0', state: 'draft', artifacts: files('1.1.0') },
    signer,
  );
  builds.set('1.1.0', next.release.buildNumber);
  staged = next.release.id;
  fleet = await activatedMachines(t.ctx, purchase.licenseId, MACHINES);
  await addWebhookEndpoint(t.ctx, operator, {
    url: 'http://127.0.0.1:9/rollouts',
    events: ['release.rollout_changed'],
    description: 'Rollout changes',
  });
}, 120_000);
afterAll(async () => {
  await second?.close();
  await t?.close();
});

describe('a staged release across 1,000 machines', () => {
  let firstTenth: Set<number>;

  it('at 10 % is offered to 6–14 % of the machines, the same by every client and on both instances', async () => {
    const started = performance.now();
    await publishRelease(t.ctx, staged, operator, { rolloutPercent: 10 });
    firstTenth = await offeredEverywhere();
    console.info(
      `rollout at 10 %: ${firstTenth.size} of ${MACHINES} machines offered 1.1.0 (${Math.round(performance.now() - started)} ms)`,
    );
    expect(firstTenth.size).toBeGreaterThanOrEqual(60);
    expect(firstTenth.size).toBeLessThanOrEqual(140);
    // Exactly the machines whose place in this release's rollout is below 10.
    expect([...firstTenth].every((index) => placeOf(index) < 10)).toBe(true);
    expect(fleet.filter((_, index) => placeOf(index) < 10).length).toBe(firstTenth.size);
  }, 600_000);

  it('at 50 % keeps every machine of the first 10 % and adds others', async () => {
    const widened = await changeRollout(t.ctx, staged, { action: 'percent', percent: 50 }, operator);
    expect(widened.rolloutState).toBe('rolling');
    const half = await velopackOffered(second.app);
    console.info(`rollout at 50 %: ${half.size} of ${MACHINES} machines offered 1.1.0`);
    expect([...firstTenth].filter((index) => !half.has(index))).toEqual([]);
    expect(half.size).toBeGreaterThanOrEqual(400);
    expect(half.size).toBeLessThanOrEqual(600);
    expect(await velopackOffered(t.app)).toEqual(half);
    await expect(changeRollout(t.ctx, staged, { action: 'percent', percent: 30 }, operator)).rejects.toThrow(
      /only widens/,
    );
  }, 600_000);

  it('halted: no machine is newly offered it, and a machine that installed it is not offered the older release', async () => {
    await changeRollout(t.ctx, staged, { action: 'halt' }, operator);
    expect((await velopackOffered(t.app)).size).toBe(0);
    const [installed] = [...firstTenth];
    const machine = fleet[installed ?? 0] as ActivatedMachine;
    // On 1.1.0 already: every client sees nothing newer, and none goes back to 1.0.0.
    expect(await answerOf(second.app, machine, installed ?? 0, '1.1.0')).toEqual({
      check: null,
      sparkle: null,
      winsparkle: null,
      velopack: null,
    });
  }, 600_000);

  it('completed: every machine gets it; each change is audited and sent as release.rollout_changed', async () => {
    await changeRollout(t.ctx, staged, { action: 'resume' }, operator);
    await changeRollout(t.ctx, staged, { action: 'complete' }, operator);
    expect((await velopackOffered(t.app)).size).toBe(MACHINES);

    const changes = await t.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `release:${staged}`));
    expect(changes.map((entry) => [entry.action, (entry.after as { rollout: unknown }).rollout])).toEqual([
      [
        'release.publish',
        { percent: 10, state: 'rolling', phasedIntervalSeconds: null, haltIfStuckPercent: null },
      ],
      [
        'release.rollout',
        { percent: 50, state: 'rolling', phasedIntervalSeconds: null, haltIfStuckPercent: null },
      ],
      [
        'release.rollout',
        { percent: 50, state: 'halted', phasedIntervalSeconds: null, haltIfStuckPercent: null },
      ],
      [
        'release.rollout',
        { percent: 50, state: 'rolling', phasedIntervalSeconds: null, haltIfStuckPercent: null },
      ],
      [
        'release.rollout',
        { percent: 100, state: 'complete', phasedIntervalSeconds: null, haltIfStuckPercent: null },
      ],
    ]);
    const sent = await t.ctx.db
      .select({ payload: webhookDeliveries.payload })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.event, 'release.rollout_changed'));
    expect(sent.map(({ payload }) => (payload as { data: unknown }).data)).toEqual(
      [
        [50, 'rolling'],
        [50, 'halted'],
        [50, 'rolling'],
        [100, 'complete'],
      ].map(([percent, state]) => ({
        releaseId: staged,
        percent,
        state,
        toolId: purchase.toolId,
        version: '1.1.0',
      })),
    );
  }, 600_000);
});

describe('a machine outside the share', () => {
  it('stays on 1.0.0 with the real Velopack client and WinSparkle, and installs 1.1.0 once the rollout reaches it', async () => {
    const tool = await addTool(t, { name: 'Rollout Client Tool', packageId: 'RolloutClient' });
    const owner = await licensedPurchase(t.ctx, { toolId: tool.id });
    const velopackFiles = (version: string) =>
      updaterFiles('RolloutClient', version, ['velopack', 'winsparkle']);
    await addRelease(t.ctx, { toolId: tool.id, version: '1.0.0', artifacts: velopackFiles('1.0.0') });
    const next = await addRelease(t.ctx, {
      toolId: tool.id,
      version: '1.1.0',
      state: 'draft',
      artifacts: velopackFiles('1.1.0'),
    });
    const machines = await activatedMachines(t.ctx, owner.licenseId, 40);
    // A machine whose place is 10–49: outside a 10 % rollout, inside a 50 % one.
    const outside = machines.find((machine) => {
      const place = rolloutPlace(machine.activationId, next.release.id);
      return place >= 10 && place < 50;
    });
    if (!outside) throw new Error('no machine with a place between 10 and 49 among 40');
    await publishRelease(t.ctx, next.release.id, operator, { rolloutPercent: 10 });

    const winSparkleOffer = async () =>
      winsparkle.checkForUpdate(
        await (
          await fetch(outside.appcastUrl, {
            headers: { 'user-agent': 'RolloutClient/1.0.0 WinSparkle/0.8.3' },
          })
        ).text(),
        { arch: 'x64', windows: '10.0.22631', appVersion: '1.0.0' },
      )?.version ?? null;
    const app = installedVelopackApp(outside.velopackUrl, 'RolloutClient', '1.0.0', 'win');
    try {
      expect(await app.manager.checkForUpdatesAsync()).toBeNull();
      expect(await winSparkleOffer()).toBeNull();

      await changeRollout(t.ctx, next.release.id, { action: 'percent', percent: 50 }, operator);
      const update = await app.manager.checkForUpdatesAsync();
      expect(update?.TargetFullRelease.Version).toBe('1.1.0');
      if (!update) throw new Error('no update after widening');
      await app.manager.downloadUpdateAsync(update);
      expect(update.TargetFullRelease.SHA256).toBe(
        next.artifacts.find((artifact) => artifact.kind === 'velopack')?.sha256,
      );
      expect(await winSparkleOffer()).toBe('1.1.0');
    } finally {
      app.remove();
    }
  }, 120_000);
});

describe('Sparkle’s own phased rollout on top', () => {
  it('a release published with --phased-interval 1d carries sparkle:phasedRolloutInterval and a pubDate Sparkle reads', async () => {
    const tool = await addTool(t, { name: 'Phased Tool' });
    const owner = await licensedPurchase(t.ctx, { toolId: tool.id });
    const archive = (version: string) => ({
      platform: 'macos' as const,
      arch: 'universal' as const,
      kind: 'sparkle' as const,
      fileName: `Phased-${version}.zip`,
      content: Buffer.from(`phased ${version}`),
    });
    await addRelease(t.ctx, { toolId: tool.id, version: '1.0.0', artifacts: [archive('1.0.0')] });
    const next = await addRelease(t.ctx, {
      toolId: tool.id,
      version: '1.1.0',
      state: 'draft',
      artifacts: [archive('1.1.0')],
    });
    await publishRelease(t.ctx, next.release.id, operator, { rolloutPercent: 100, phasedInterval: 86_400 });
    const [published] = await t.ctx.db.select().from(releases).where(eq(releases.id, next.release.id));
    const [machine] = await activatedMachines(t.ctx, owner.licenseId, 1);
    const xml = await (await fetch(machine?.appcastUrl ?? '')).text();
    expect(xml).toContain('<sparkle:phasedRolloutInterval>86400</sparkle:phasedRolloutInterval>');
    const [item] = sparkle.parseAppcast(xml);
    expect(item).toMatchObject({ displayVersionString: '1.1.0', phasedRolloutInterval: 86_400 });
    expect(item?.date?.toISOString()).toBe(published?.publishedAt?.toISOString());

    // Group g of Sparkle's 7 gets it g days after the pubDate, on background checks; "Check for Updates…" at once.
    const pubDate = published?.publishedAt?.getTime() ?? 0;
    const host = { hostVersion: String(next.release.buildNumber - 1), systemVersion: '14.5' };
    const at = (days: number) => new Date(pubDate + days * 86_400_000 + 1000);
    expect(sparkle.bestUpdate(xml, { ...host, background: { group: 3, now: at(2) } })).toBeNull();
    expect(
      sparkle.bestUpdate(xml, { ...host, background: { group: 3, now: at(3) } })?.displayVersionString,
    ).toBe('1.1.0');
    expect(
      sparkle.bestUpdate(xml, { ...host, background: { group: 0, now: at(0) } })?.displayVersionString,
    ).toBe('1.1.0');
    expect(sparkle.bestUpdate(xml, host)?.displayVersionString).toBe('1.1.0');
  });
});
