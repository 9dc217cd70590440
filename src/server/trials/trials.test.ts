import { and, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { commandLineOn } from '../../../test/support/command-line';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { fingerprint } from '../../../test/support/license-fixtures';
import { openedMails } from '../../../test/support/mail';
import { answerChecker } from '../../../test/support/openapi';
import { addRelease, windowsInstaller } from '../../../test/support/release-fixtures';
import {
  addTool,
  buyThroughEmulator,
  buyTool,
  catalogueRows,
  downloadLinkIn,
  loginAs,
  newBuyer,
} from '../../../test/support/shop-fixtures';
import type { PurchasedTool } from '../../shared/shop';
import { TEAM_INVITATION_PATH } from '../../shared/teams';
import { TRIAL_MESSAGES } from '../../shared/trials';
import { invalidateCatalogue } from '../catalogue/catalogue-cache';
import { runCommandLine } from '../cli/command-line';
import { users } from '../db/schema/accounts';
import { tools } from '../db/schema/catalogue';
import { invoices } from '../db/schema/invoices';
import { licenseActivations, licenses } from '../db/schema/licenses';
import { outbox } from '../db/schema/mail';
import { auditLog } from '../db/schema/operator';
import { trials } from '../db/schema/trials';
import { cliActor } from '../operator/audit';
import { endTrial, extendTrial } from './operator';
import { sendTrialEmails } from './reminders';
import { DAY_MS } from './trials';

const t = shopTestAppForFile();
/** Every license API answer and started trial here is checked against the OpenAPI document's schema. */
let matchesDocument: Awaited<ReturnType<typeof answerChecker>>;
beforeAll(async () => {
  matchesDocument = await answerChecker(t.app);
  // The default catalogue (its Windows tool has a download file) is seeded only into an empty tools table.
  await catalogueRows(t);
});

async function licenseApi(operation: 'activate' | 'validate', body: Record<string, unknown>) {
  const response = await t.app.inject({ method: 'POST', url: `/api/licenses/${operation}`, payload: body });
  matchesDocument('POST', `/api/licenses/${operation}`, response);
  return response;
}

/** The key of the newest trial delivery email to `email`. */
async function trialKeyOf(email: string): Promise<string> {
  const rows = openedMails(
    t.ctx,
    await t.ctx.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.to, email), eq(outbox.kind, 'trial-delivery'))),
  );
  const key = /[23456789A-Z]{5}(-[23456789A-Z]{5}){3}/.exec(rows.at(-1)?.text ?? '')?.[0];
  if (!key) throw new Error('no trial key emailed');
  return key;
}

async function startedTrial(trialDays = 14) {
  const tool = await addTool(t, { trialDays, device: 'Windows' });
  const buyer = await newBuyer(t);
  const started = await buyer.client.post('/api/trials/', { toolId: tool.id });
  matchesDocument('POST', '/api/trials/', started);
  expect(started.statusCode).toBe(200);
  return { tool, ...buyer, key: await trialKeyOf(buyer.user.email), answer: started.json() };
}

describe('starting a trial', () => {
  it('creates a trial license ending trialDays from now and emails its key with the end date', async () => {
    const { tool, user, answer } = await startedTrial(14);
    expect(answer.expiresAt).toBe(new Date(t.clock.now().getTime() + 14 * DAY_MS).toISOString());
    const [mail] = openedMails(t.ctx, await t.ctx.db.select().from(outbox).where(eq(outbox.to, user.email)));
    expect(mail?.subject).toContain('free trial');
    expect(mail?.text).toMatch(/ends on/);
    expect(mail?.text).toContain(`${t.baseUrl}/utility-tools`);
    const tools = (await (await newBuyer(t)).client.get('/api/alltools/')).json();
    expect(tools.find((row: { _id: string }) => row._id === tool.id)).toMatchObject({ trialDays: 14 });
  });

  it('emails a download link that works while the trial runs, and not after it ended', async () => {
    const { windows } = await catalogueRows(t);
    await t.ctx.db.update(tools).set({ trialDays: 7 }).where(eq(tools.id, windows.id));
    invalidateCatalogue(t.ctx);
    const { user, client } = await newBuyer(t);
    expect((await client.post('/api/trials/', { toolId: windows.id })).statusCode).toBe(200);
    const [mail] = openedMails(
      t.ctx,
      await t.ctx.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.to, user.email), eq(outbox.kind, 'trial-delivery'))),
    );
    const link = downloadLinkIn(mail?.text ?? '').replace(t.baseUrl, '');
    const json = { accept: 'application/json' };
    const download = await t.app.inject({ method: 'GET', url: link, headers: json });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload).toEqual(await t.ctx.storage.read(windows.fileKey ?? ''));
    await t.ctx.db.update(tools).set({ trialDays: 0 }).where(eq(tools.id, windows.id));
    invalidateCatalogue(t.ctx);
    t.clock.advance(2 * 60 * 60 * 1000);
    const [trial] = await t.ctx.db.select().from(trials).where(eq(trials.userId, user.id));
    await endTrial(t.ctx, trial?.id ?? '', cliActor('asha'));
    expect((await t.app.inject({ method: 'GET', url: link, headers: json })).statusCode).toBe(404);
  });

  it('answers 409 for a second trial of the same tool, and 404 or 400 when there is no trial to start', async () => {
    const { tool, client } = await startedTrial();
    const again = await client.post('/api/trials/', { toolId: tool.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You have already had a free trial of this tool.');
    const noTrial = await addTool(t, { trialDays: 0 });
    expect((await client.post('/api/trials/', { toolId: noTrial.id })).statusCode).toBe(404);
    const soon = await addTool(t, { trialDays: 7, comingSoon: true });
    expect((await client.post('/api/trials/', { toolId: soon.id })).statusCode).toBe(400);
    const anonymous = await t.client();
    expect((await anonymous.post('/api/trials/', { toolId: tool.id })).statusCode).toBe(401);
  });

  it('starts one trial when the same account asks five times at once; the others get 409', async () => {
    const tool = await addTool(t, { trialDays: 14 });
    const { user, client } = await newBuyer(t);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => client.post('/api/trials/', { toolId: tool.id })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await t.ctx.db.select().from(trials).where(eq(trials.userId, user.id))).toHaveLength(1);
  });

  it('shows on My Tools with its end and on the catalogue as started', async () => {
    const { tool, client, answer } = await startedTrial(14);
    const mine = (await client.get('/api/my-tools/')).json();
    expect(mine).toEqual([expect.objectContaining({ _id: tool.id, trialEndsAt: answer.expiresAt })]);
    const catalogue = (await client.get('/api/alltools/')).json();
    expect(catalogue.find((row: { _id: string }) => row._id === tool.id)).toMatchObject({
      purchased: false,
      trialStarted: true,
      trialEndsAt: answer.expiresAt,
    });
  });

  it('lists its key and end on My Tools’ licenses, and after buying the same key as the bought license', async () => {
    const { tool, user, client, key, answer } = await startedTrial(14);
    const before = (await client.get('/api/my-licenses/')).json();
    expect(before).toEqual([
      expect.objectContaining({
        toolId: tool.id,
        licenseKey: key,
        status: 'trial',
        expiresAt: answer.expiresAt,
      }),
    ]);
    await buyTool(t, await loginAs(t, user), tool.id);
    const after = (await (await loginAs(t, user)).get('/api/my-licenses/')).json();
    expect(after).toEqual([expect.objectContaining({ toolId: tool.id, licenseKey: key, status: 'active' })]);
    expect(after[0]).not.toHaveProperty('expiresAt');
    const mine = (await (await loginAs(t, user)).get('/api/my-tools/')).json() as PurchasedTool[];
    expect(mine).toEqual([expect.objectContaining({ _id: tool.id, purchaseDate: expect.any(String) })]);
    expect(mine[0]).not.toHaveProperty('trialEndsAt');
  });

  it('lists its tool’s current version on My Tools, whose installer downloads while the trial runs', async () => {
    const { tool, client, answer, key } = await startedTrial(14);
    const release = await addRelease(t.ctx, {
      toolId: tool.id,
      version: '2.0.0',
      artifacts: [windowsInstaller()],
    });
    const [mine] = (await client.get('/api/my-tools/')).json<PurchasedTool[]>();
    expect(mine).toMatchObject({ trialEndsAt: answer.expiresAt, currentVersion: { version: '2.0.0' } });
    const installerUrl = `/api/my-tools/installers/${release.artifacts[0]?.id}`;
    const button = await client.get(installerUrl);
    expect(button.statusCode).toBe(303);
    expect((await client.get(String(button.headers.location))).rawPayload.toString()).toBe('MZ');

    await endTrial(t.ctx, key, cliActor('asha'));
    expect((await client.get(installerUrl, { accept: 'application/json' })).statusCode).toBe(404);
  });
});

describe('a tool already covered', () => {
  it('refuses a trial to the owner of a team license and to each member holding a seat, saying why', async () => {
    const tool = await addTool(t, { trialDays: 14, device: 'Windows' });
    const owner = await newBuyer(t);
    await buyThroughEmulator(t, owner.client, tool.id, { seats: 2 });
    const licenseId = (await owner.client.get('/api/my-tools/')).json<PurchasedTool[]>()[0]?.team?.licenseId;
    const member = await newBuyer(t);
    const invited = await owner.client.post(`/api/teams/${licenseId}/invitations`, {
      email: member.user.email,
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const [mail] = openedMails(
      t.ctx,
      await t.ctx.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.to, member.user.email), eq(outbox.kind, 'team-invitation'))),
    );
    const token = new RegExp(`${TEAM_INVITATION_PATH}([\\w-]+)`).exec(mail?.text ?? '')?.[1];
    expect((await member.client.post(`/api/team-invitations/${token}/accept`, {})).statusCode).toBe(200);

    const refusedOwner = await owner.client.post('/api/trials/', { toolId: tool.id });
    expect(refusedOwner.statusCode).toBe(409);
    expect(refusedOwner.json().message).toBe(TRIAL_MESSAGES.alreadyOwned);
    const refusedMember = await member.client.post('/api/trials/', { toolId: tool.id });
    expect(refusedMember.statusCode).toBe(409);
    expect(refusedMember.json().message).toBe(TRIAL_MESSAGES.coveredBySeat);
    const [{ value: started } = { value: -1 }] = await t.ctx.db
      .select({ value: count() })
      .from(trials)
      .where(eq(trials.toolId, tool.id));
    expect(started).toBe(0);
  }, 60_000);
});

describe('a trial through the license API', () => {
  it('answers TRIAL with expiresAt on one machine, then EXPIRED once the server clock passes the end', async () => {
    const { tool, key, answer } = await startedTrial(14);
    const machine = fingerprint();
    const activated = await licenseApi('activate', {
      licenseKey: key,
      toolId: tool.id,
      fingerprint: machine,
    });
    expect(activated.json()).toMatchObject({ valid: true, code: 'TRIAL', expiresAt: answer.expiresAt });
    const payload = JSON.parse(
      Buffer.from(JSON.parse(activated.json().licenseFile).payload, 'base64').toString('utf8'),
    );
    expect(payload).toMatchObject({ status: 'trial', expiresAt: answer.expiresAt });
    expect(Date.parse(payload.refreshBefore)).toBeLessThanOrEqual(Date.parse(answer.expiresAt));
    const second = await licenseApi('activate', {
      licenseKey: key,
      toolId: tool.id,
      fingerprint: fingerprint(),
    });
    expect(second.json().code).toBe('LIMIT_REACHED');
    const validated = await licenseApi('validate', {
      licenseKey: key,
      toolId: tool.id,
      fingerprint: machine,
    });
    expect(validated.json()).toMatchObject({ valid: true, code: 'TRIAL', expiresAt: answer.expiresAt });
    // A running trial gets updates like a bought license; its feed dies with the trial.
    const appcastPath = new URL(activated.json().updates.appcastUrl).pathname;
    expect((await t.app.inject({ method: 'GET', url: appcastPath })).statusCode).toBe(200);

    t.clock.advance(15 * DAY_MS);
    expect((await t.app.inject({ method: 'GET', url: appcastPath })).statusCode).toBe(404);
    // Straight after a TRIAL answer: the remembered row must not answer past the end.
    expect(
      (await licenseApi('validate', { licenseKey: key, toolId: tool.id, fingerprint: machine })).json(),
    ).toEqual({ valid: false, code: 'EXPIRED' });
    expect(
      (await licenseApi('activate', { licenseKey: key, toolId: tool.id, fingerprint: machine })).json(),
    ).toMatchObject({ valid: false, code: 'EXPIRED' });
  });

  it('refuses a second account’s trial on a machine that already had one: TRIAL_USED', async () => {
    const first = await startedTrial();
    const machine = fingerprint();
    await licenseApi('activate', { licenseKey: first.key, toolId: first.tool.id, fingerprint: machine });
    const other = await newBuyer(t);
    expect((await other.client.post('/api/trials/', { toolId: first.tool.id })).statusCode).toBe(200);
    const otherKey = await trialKeyOf(other.user.email);
    const refused = await licenseApi('activate', {
      licenseKey: otherKey,
      toolId: first.tool.id,
      fingerprint: machine,
    });
    expect(refused.json()).toEqual({ valid: false, code: 'TRIAL_USED' });
    // The first account's own trial comes back to its machine (a reinstall) as before.
    expect(
      (
        await licenseApi('activate', { licenseKey: first.key, toolId: first.tool.id, fingerprint: machine })
      ).json().code,
    ).toBe('TRIAL');
  });

  it('gives a machine to one of two accounts activating their trials on it at once', async () => {
    const first = await startedTrial();
    const other = await newBuyer(t);
    await other.client.post('/api/trials/', { toolId: first.tool.id });
    const otherKey = await trialKeyOf(other.user.email);
    const machine = fingerprint();
    const answers = await Promise.all(
      [first.key, otherKey].map(
        async (licenseKey) =>
          (await licenseApi('activate', { licenseKey, toolId: first.tool.id, fingerprint: machine })).json()
            .code,
      ),
    );
    expect(answers.sort()).toEqual(['TRIAL', 'TRIAL_USED']);
  });

  it('buying turns the trial into the paid license: same key, same activation, VALID, one invoice', async () => {
    const { tool, user, key } = await startedTrial(14);
    const machine = fingerprint();
    const activated = await licenseApi('activate', {
      licenseKey: key,
      toolId: tool.id,
      fingerprint: machine,
    });
    t.clock.advance(15 * DAY_MS);
    // Bought after the trial ended (the session of 14 days ago has lapsed: signed in again).
    const { order } = await buyTool(t, await loginAs(t, user), tool.id);
    const validated = await licenseApi('validate', {
      licenseKey: key,
      toolId: tool.id,
      fingerprint: machine,
    });
    expect(validated.json()).toMatchObject({ valid: true, code: 'VALID' });
    const payload = JSON.parse(
      Buffer.from(JSON.parse(validated.json().licenseFile).payload, 'base64').toString('utf8'),
    );
    expect(payload.status).toBe('active');
    expect(payload.expiresAt).toBeUndefined();
    const [activations] = await t.ctx.db
      .select({ n: count() })
      .from(licenseActivations)
      .where(eq(licenseActivations.id, activated.json().activation.id));
    expect(activations?.n).toBe(1);
    const [invoiceCount] = await t.ctx.db
      .select({ n: count() })
      .from(invoices)
      .where(eq(invoices.orderId, order.id));
    expect(invoiceCount?.n).toBe(1);
    const owned = await t.ctx.db
      .select()
      .from(licenses)
      .innerJoin(trials, eq(trials.licenseId, licenses.id))
      .where(eq(trials.userId, user.id));
    expect(owned).toHaveLength(1);
    expect(owned[0]?.licenses).toMatchObject({ status: 'active', expiresAt: null });
    expect(owned[0]?.trials.convertedAt).not.toBeNull();
    const delivery = openedMails(
      t.ctx,
      await t.ctx.db
        .select()
        .from(outbox)
        .where(eq(outbox.ref, `order:${order.id}`)),
    );
    expect(delivery.find((mail) => mail.kind === 'license-delivery')?.text).toContain(key);
  });
});

describe('trial emails', () => {
  it('reminds three days before the end and at the end, each once, and not when the buyer opted out', async () => {
    const { user } = await startedTrial(10);
    const quiet = await startedTrial(10);
    await t.ctx.db.update(users).set({ trialEmails: false }).where(eq(users.id, quiet.user.id));
    const mailsTo = async (email: string, kind: string) =>
      (
        await t.ctx.db
          .select()
          .from(outbox)
          .where(and(eq(outbox.to, email), eq(outbox.kind, kind)))
      ).length;

    await sendTrialEmails(t.ctx);
    expect(await mailsTo(user.email, 'trial-reminder')).toBe(0);
    t.clock.advance(7 * DAY_MS + 60_000);
    await sendTrialEmails(t.ctx);
    await sendTrialEmails(t.ctx);
    expect(await mailsTo(user.email, 'trial-reminder')).toBe(1);
    const [reminder] = await t.ctx.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.to, user.email), eq(outbox.kind, 'trial-reminder')));
    expect(reminder?.listUnsubscribe).toContain('/api/account/unsubscribe?token=');
    expect(await mailsTo(user.email, 'trial-ended')).toBe(0);
    t.clock.advance(3 * DAY_MS);
    await sendTrialEmails(t.ctx);
    await sendTrialEmails(t.ctx);
    expect(await mailsTo(user.email, 'trial-ended')).toBe(1);
    expect(await mailsTo(quiet.user.email, 'trial-reminder')).toBe(0);
    expect(await mailsTo(quiet.user.email, 'trial-ended')).toBe(0);
  });
});

describe('the operator', () => {
  it('extends and ends a trial, each audited in the same change', async () => {
    const { tool, key, answer } = await startedTrial(14);
    const machine = fingerprint();
    await licenseApi('activate', { licenseKey: key, toolId: tool.id, fingerprint: machine });
    const extended = await extendTrial(t.ctx, key, { days: 5 }, cliActor('asha'));
    expect(extended.expiresAt.toISOString()).toBe(
      new Date(Date.parse(answer.expiresAt) + 5 * DAY_MS).toISOString(),
    );
    expect(
      (await licenseApi('validate', { licenseKey: key, toolId: tool.id, fingerprint: machine })).json(),
    ).toMatchObject({ code: 'TRIAL', expiresAt: extended.expiresAt.toISOString() });
    await endTrial(t.ctx, extended.trialId, cliActor('asha'));
    expect(
      (await licenseApi('validate', { licenseKey: key, toolId: tool.id, fingerprint: machine })).json(),
    ).toEqual({ valid: false, code: 'EXPIRED' });
    const audit = await t.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `trial:${extended.trialId}`));
    expect(audit.map((row) => row.action)).toEqual(['trial.extend', 'trial.end']);
    expect(audit[0]).toMatchObject({ actor: 'cli:asha' });
  });
});

describe('the command line', () => {
  const cli = () => commandLineOn(t, 'asha');

  it('sets a tool’s trial days, and refuses a number out of range without changing anything', async () => {
    const tool = await addTool(t);
    const set = await runCommandLine(['tools', 'edit', tool.id, '--trial-days', '14'], cli());
    expect(set.exitCode, set.stderr).toBe(0);
    const shown = await runCommandLine(['tools', 'list', '--json'], cli());
    expect(JSON.parse(shown.stdout).find((row: { _id: string }) => row._id === tool.id)).toMatchObject({
      trialDays: 14,
    });
    const refused = await runCommandLine(['tools', 'edit', tool.id, '--trial-days', '-1'], cli());
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('--trial-days "-1": A whole number of days from 0 (no trial) to 365.');
  });

  it('extends a trial by its key and ends it, in the audit log as the command line', async () => {
    const { key } = await startedTrial(14);
    const extended = await runCommandLine(['trials', 'extend', key, '--days', '3'], cli());
    expect(extended.exitCode, extended.stderr).toBe(0);
    expect(extended.stdout).toContain('The trial now ends');
    const ended = await runCommandLine(['trials', 'end', key], cli());
    expect(ended.exitCode, ended.stderr).toBe(0);
    expect((await runCommandLine(['trials', 'end', key], cli())).exitCode).toBe(1);
    expect((await runCommandLine(['trials', 'extend', key], cli())).exitCode).toBe(2);
  });
});
