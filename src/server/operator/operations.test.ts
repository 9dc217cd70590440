import { count, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/support/client';
import { commandLineOn } from '../../../test/support/command-line';
import { verifiedOperator } from '../../../test/support/dashboard-helpers';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { addTool, buyThroughEmulator, newBuyer } from '../../../test/support/shop-fixtures';
import { newWebhookEndpointSchema } from '../../shared/webhooks';
import { type CommandLineEnv, runCommandLine } from '../cli/command-line';
import { tools } from '../db/schema/catalogue';
import { contactMessages } from '../db/schema/contact';
import { licenseActivations, licenses } from '../db/schema/licenses';
import { auditLog } from '../db/schema/operator';
import { purchases } from '../db/schema/orders';
import { webhookEndpoints } from '../db/schema/webhooks';
import { revealLicenseKey } from '../licenses/secrets-at-rest';
import { addWebhookEndpoint, setWebhookEndpointEnabled } from '../webhooks/operator';
import { cliActor } from './audit';

/**
 * The operator layer seen from both adapters: the command line's dispatcher (run in this process on the test's
 * database) and the dashboard over HTTP. Each operation writes its audit row in its own transaction.
 */

const t = shopTestAppForFile({ env: { WEBHOOKS_ALLOW_LOOPBACK: '1' } });
let dashboard: TestClient;
let cli: CommandLineEnv;

beforeAll(async () => {
  dashboard = (await verifiedOperator(t)).client;
  cli = commandLineOn(t);
}, 60_000);

const auditRows = async () => (await t.ctx.db.select({ n: count() }).from(auditLog))[0]?.n ?? 0;

/**
 * A real constraint that fails every commit after an audit row was written: a deferred trigger on the audit log
 * raises at commit, when the operation's change and its audit row are both in the transaction.
 */
async function withCommitsRefused(run: () => Promise<void>): Promise<void> {
  await t.ctx.db.execute(
    sql.raw(
      `create or replace function refuse_audited_commit() returns trigger language plpgsql as $$ begin raise exception 'commit refused after the audit row'; end $$`,
    ),
  );
  await t.ctx.db.execute(
    sql.raw(
      'create constraint trigger refuse_audited_commit after insert on audit_log deferrable initially deferred for each row execute function refuse_audited_commit()',
    ),
  );
  try {
    await run();
  } finally {
    await t.ctx.db.execute(sql.raw('drop trigger refuse_audited_commit on audit_log'));
  }
}

/** A license of `toolId` bought through the emulator, active on `machines` machines through the license API. */
async function licenseOnMachines(toolId: string, machines: number) {
  const buyer = await newBuyer(t);
  const order = await buyThroughEmulator(t, buyer.client, toolId);
  const [license] = await t.ctx.db
    .select({ id: licenses.id, licenseKeySealed: licenses.licenseKeySealed })
    .from(licenses)
    .innerJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .where(eq(purchases.orderId, order.id));
  const key = license ? revealLicenseKey(t.ctx.dataSecrets, license) : null;
  if (!license || !key) throw new Error('no license key');
  for (let machine = 1; machine <= machines; machine++) {
    const activated = await t.app.inject({
      method: 'POST',
      url: '/api/licenses/activate',
      payload: { licenseKey: key, toolId, fingerprint: `machine-${license.id}-${machine}` },
      remoteAddress: `10.9.${machine}.${Math.floor(Math.random() * 250) + 1}`,
    });
    expect(activated.statusCode, activated.body).toBe(200);
  }
  return license;
}

describe('an operation and its audit row commit together or not at all', () => {
  it('from the command line: a refused commit leaves neither the new price nor an audit row', async () => {
    const tool = await addTool(t, { priceInrPaise: 49_900 });
    const before = await auditRows();
    await withCommitsRefused(async () => {
      const run = await runCommandLine(['tools', 'set-price', tool.id, '--price-inr', '777'], cli);
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toMatch(/^admin: /);
    });
    const [after] = await t.ctx.db.select().from(tools).where(eq(tools.id, tool.id));
    expect(after?.priceInrPaise).toBe(49_900);
    expect(await auditRows()).toBe(before);

    // The same command with commits allowed changes the price and writes its row.
    expect((await runCommandLine(['tools', 'set-price', tool.id, '--price-inr', '777'], cli)).exitCode).toBe(
      0,
    );
    const [entry] = await t.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `tool:${tool.id}`));
    expect(entry).toMatchObject({
      actor: 'cli:tester',
      action: 'tool.update',
      after: { pricePaise: 77_700 },
    });
  });

  it('from the dashboard: a refused commit leaves the message unhandled and the device active, with no audit row', async () => {
    const [message] = await t.ctx.db
      .insert(contactMessages)
      .values({ name: 'Atomic', email: 'atomic@example.com', relatedTo: 'Products', description: 'Hello' })
      .returning({ id: contactMessages.id });
    const tool = await addTool(t, { device: 'Windows' });
    const license = await licenseOnMachines(tool.id, 1);
    const [device] = await t.ctx.db
      .select({ id: licenseActivations.id })
      .from(licenseActivations)
      .where(eq(licenseActivations.licenseId, license.id));
    const before = await auditRows();
    await withCommitsRefused(async () => {
      const handled = await dashboard.post(`/api/admin/messages/${message?.id}/handled`, {});
      expect(handled.statusCode).toBe(500);
      const freed = await dashboard.post(
        `/api/admin/licenses/${license.id}/devices/${device?.id}/deactivate`,
        {},
      );
      expect(freed.statusCode).toBe(500);
    });
    const [unchanged] = await t.ctx.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.id, message?.id ?? ''));
    expect(unchanged?.handledAt).toBeNull();
    const [stillActive] = await t.ctx.db
      .select()
      .from(licenseActivations)
      .where(eq(licenseActivations.id, device?.id ?? ''));
    expect(stillActive?.deactivatedAt).toBeNull();
    expect(await auditRows()).toBe(before);
  });

  it('webhooks: a refused commit adds no endpoint and leaves a disabled one disabled, with no audit row', async () => {
    const added = await addWebhookEndpoint(
      t.ctx,
      cliActor('tester'),
      newWebhookEndpointSchema.parse({
        url: 'http://127.0.0.1:9/atomic',
        events: ['order.paid'],
      }),
    );
    await setWebhookEndpointEnabled(t.ctx, cliActor('tester'), added.id, false);
    const before = await auditRows();
    const endpoints = (await t.ctx.db.select().from(webhookEndpoints)).length;
    await withCommitsRefused(async () => {
      const refused = await runCommandLine(
        ['webhooks', 'add', 'http://127.0.0.1:9/never', '--events', 'order.paid'],
        cli,
      );
      expect(refused.exitCode).toBe(1);
      expect((await runCommandLine(['webhooks', 'enable', added.id], cli)).exitCode).toBe(1);
    });
    expect((await t.ctx.db.select().from(webhookEndpoints)).length).toBe(endpoints);
    const [still] = await t.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, added.id));
    expect(still?.enabled).toBe(false);
    expect(await auditRows()).toBe(before);
  });
});

/** What the dashboard's tool editor sends for a Windows tool it leaves as it is. */
const editorFieldsOf = (tool: typeof tools.$inferSelect) => ({
  name: tool.name,
  description: tool.description,
  device: 'Windows',
  priceINR: String(tool.priceInrPaise / 100),
  priceUSD: '',
  comingSoon: false,
  active: true,
  delivery: 'license_key',
  activationLimit: String(tool.activationLimit),
});

describe('the activation limit', () => {
  it('cannot go below the devices active on a license without saying how many, from either adapter', async () => {
    const tool = await addTool(t, { device: 'Windows', activationLimit: 3 });
    const license = await licenseOnMachines(tool.id, 3);
    const editorFields = editorFieldsOf(tool);

    const fromCli = await runCommandLine(['tools', 'edit', tool.id, '--activation-limit', '2'], cli);
    expect(fromCli.exitCode).toBe(1);
    expect(fromCli.stderr).toMatch(
      /^admin: 3 devices are active on one of .+ licenses, more than a limit of 2/,
    );

    const fromDashboard = await dashboard.post(`/api/admin/tools/${tool.id}`, {
      ...editorFields,
      activationLimit: '1',
    });
    expect(fromDashboard.statusCode).toBe(409);
    expect(fromDashboard.json().message).toMatch(
      /^3 devices are active on one of .+ licenses, more than a limit of 1/,
    );
    const [unchanged] = await t.ctx.db.select().from(tools).where(eq(tools.id, tool.id));
    expect(unchanged?.activationLimit).toBe(3);

    // Freeing a device makes room; raising the limit or keeping it is never refused.
    expect((await runCommandLine(['tools', 'edit', tool.id, '--activation-limit', '5'], cli)).exitCode).toBe(
      0,
    );
    const [device] = await t.ctx.db
      .select({ id: licenseActivations.id })
      .from(licenseActivations)
      .where(eq(licenseActivations.licenseId, license.id));
    expect(
      (await dashboard.post(`/api/admin/licenses/${license.id}/devices/${device?.id}/deactivate`, {}))
        .statusCode,
    ).toBe(200);
    const lowered = await dashboard.post(`/api/admin/tools/${tool.id}`, {
      ...editorFields,
      activationLimit: '2',
    });
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect(lowered.json().activationLimit).toBe(2);
  });
});

describe('the license model', () => {
  it('turns floating with a heartbeat and back to per device from either adapter, audited, refusing a bad interval', async () => {
    const tool = await addTool(t, { device: 'Windows' });
    const auditOf = async () =>
      (
        await t.ctx.db
          .select()
          .from(auditLog)
          .where(eq(auditLog.target, `tool:${tool.id}`))
      ).map((row) => ({
        before: row.before,
        after: row.after,
      }));

    const floating = await runCommandLine(
      ['tools', 'edit', tool.id, '--floating', '--heartbeat', '10m'],
      cli,
    );
    expect(floating.exitCode, floating.stderr).toBe(0);
    expect(floating.stdout).toMatch(/floating, heartbeat every 10 min/);
    const refused = await runCommandLine(['tools', 'edit', tool.id, '--heartbeat', '0m'], cli);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/--heartbeat "0m": A heartbeat interval in whole minutes from 1 to 1440/);

    const editorFields = editorFieldsOf(tool);
    const badInterval = await dashboard.post(`/api/admin/tools/${tool.id}`, {
      ...editorFields,
      licenseModel: 'floating',
      heartbeatMinutes: 'soon',
    });
    expect(badInterval.statusCode).toBe(400);
    expect(badInterval.json().fieldErrors.heartbeatMinutes).toMatch(/^A heartbeat interval/);
    const fromDashboard = await dashboard.post(`/api/admin/tools/${tool.id}`, {
      ...editorFields,
      licenseModel: 'floating',
      heartbeatMinutes: '2',
    });
    expect(fromDashboard.statusCode, fromDashboard.body).toBe(200);
    expect(fromDashboard.json()).toMatchObject({ licenseModel: 'floating', heartbeatMinutes: 2 });
    expect((await runCommandLine(['tools', 'edit', tool.id, '--per-device'], cli)).exitCode).toBe(0);

    const [stored] = await t.ctx.db.select().from(tools).where(eq(tools.id, tool.id));
    expect(stored).toMatchObject({ licenseModel: 'per-device', heartbeatMinutes: 2 });
    expect(await auditOf()).toEqual([
      { before: { licenseModel: 'per-device' }, after: { licenseModel: 'floating' } },
      { before: { heartbeatMinutes: 10 }, after: { heartbeatMinutes: 2 } },
      { before: { licenseModel: 'floating' }, after: { licenseModel: 'per-device' } },
    ]);
  });
});
