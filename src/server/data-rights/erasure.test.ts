import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD, mailsTo, signUp, uniqueIp } from '../../../test/support/auth-helpers';
import { columnsHolding } from '../../../test/support/database';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { licenseApiCall } from '../../../test/support/license-fixtures';
import { deliverDueMail, openedMails } from '../../../test/support/mail';
import { addRelease, windowsInstaller } from '../../../test/support/release-fixtures';
import {
  addTool,
  buyThroughEmulator,
  catalogueRows,
  newBuyer,
  type ShopTestApp,
} from '../../../test/support/shop-fixtures';
import { SoftPasskey } from '../../../test/support/webauthn';
import type { MyLicense } from '../../shared/licenses';
import type { PurchasedTool } from '../../shared/shop';
import { TEAM_INVITATION_PATH } from '../../shared/teams';
import { outbox } from '../db/schema/mail';
import type { AccountExport } from './data-export';

/**
 * Issue 50's must-show: everything an account ever had goes with it. A buyer buys one tool, tries another, runs
 * both on a machine each, moves the account to a second and a third address (and asks for a fourth), adds a
 * passkey and writes to the firm; after "Delete my account" no license, feed, file or link of theirs works, and no
 * text or JSON column of any table, nor the development mail folder, holds their addresses, name, phone,
 * fingerprints or device names, except the name on the tax invoice the law keeps.
 */

const t = shopTestAppForFile();

const json = { accept: 'application/json' };

async function licenseApi(action: string, body: Record<string, unknown>) {
  const response = await licenseApiCall(t, action, body, uniqueIp());
  return response.json();
}

const pathOf = (url: string) => new URL(url).pathname;

const whereFound = (needle: string) => columnsHolding(t.ctx.db, needle);

/** The development mail folder's files that hold `needle`. */
async function mailFilesWith(needle: string): Promise<string[]> {
  const directory = path.join(t.dataDir, 'mail');
  const names = await readdir(directory).catch(() => [] as string[]);
  const hits: string[] = [];
  for (const name of names) {
    const text = (await readFile(path.join(directory, name), 'utf8')).toLowerCase();
    // The .eml may fold or encode a long line: the JSON record holds the same message in plain text.
    if (text.includes(needle.toLowerCase())) hits.push(name);
  }
  return hits;
}

async function moveEmail(client: Awaited<ReturnType<ShopTestApp['client']>>, to: string, confirm = true) {
  const asked = await client.post('/api/account/email', { email: to });
  expect(asked.statusCode, asked.body).toBe(200);
  if (!confirm) return;
  const [mail] = await mailsTo(t, to, 'email-change-code');
  const code = /\b\d{6}\b/.exec(mail?.text ?? '')?.[0];
  const confirmed = await client.post('/api/account/email/confirm', { email: to, code });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
}

describe('deleting an account', () => {
  it('revokes bought and trial licenses with their feeds, files and links, and leaves no personal data but the invoice', async () => {
    const { windows } = await catalogueRows(t);
    const trialTool = await addTool(t, {
      device: 'Windows',
      trialDays: 14,
      fileKey: windows.fileKey,
      fileName: windows.fileName,
    });
    const installers = new Map<string, { id: string; fileName: string }>();
    for (const toolId of [windows.id, trialTool.id]) {
      const release = await addRelease(t.ctx, {
        toolId,
        version: '9.1.0',
        artifacts: [windowsInstaller()],
      });
      const artifact = release.artifacts[0];
      if (artifact) installers.set(toolId, { id: artifact.id, fileName: 'Setup.exe' });
    }

    const tag = randomBytes(4).toString('hex');
    const name = `Ottoline Erasable${tag}`;
    const phone = `+9197${String(Number.parseInt(tag, 16) % 100_000_000).padStart(8, '0')}`;
    const addresses = [1, 2, 3, 4].map((n) => `Ottoline.${n}.${tag}@Example.COM`);
    const [first = '', second = '', third = '', asked = ''] = addresses;
    const client = await t.client({ ip: uniqueIp() });
    expect((await signUp(t, client, { name, email: first, phone })).statusCode).toBe(200);

    await buyThroughEmulator(t, client, windows.id);
    expect((await client.post('/api/trials/', { toolId: trialTool.id })).statusCode).toBe(200);
    const mine = (await client.get('/api/my-licenses/')).json<MyLicense[]>();
    const bought = mine.find((license) => license.toolId === windows.id)?.licenseKey ?? '';
    const [trialMail] = openedMails(
      t.ctx,
      (await t.ctx.db.select().from(outbox)).filter((row) => row.kind === 'trial-delivery'),
    );
    const trialKey = /[23456789A-Z]{5}(-[23456789A-Z]{5}){3}/.exec(trialMail?.text ?? '')?.[0] ?? '';
    expect(bought).not.toBe('');
    expect(trialKey).not.toBe('');

    const machines = [
      {
        licenseKey: bought,
        toolId: windows.id,
        fingerprint: `Desk-${tag}-Machine`,
        name: `Ottoline desk ${tag}`,
      },
      {
        licenseKey: trialKey,
        toolId: trialTool.id,
        fingerprint: `Lap-${tag}-Machine`,
        name: `Ottoline lap ${tag}`,
      },
    ];
    const held: string[] = [];
    for (const machine of machines) {
      const activated = await licenseApi('activate', machine);
      expect(activated.code).toMatch(/^(VALID|TRIAL)$/);
      const installer = installers.get(machine.toolId);
      held.push(
        pathOf(activated.updates.appcastUrl),
        `${pathOf(activated.updates.velopackUrl)}files/${installer?.id}/${installer?.fileName}`,
      );
    }

    await moveEmail(client, second);
    await moveEmail(client, third);
    await moveEmail(client, asked, false);
    const passkey = new SoftPasskey(t.baseUrl);
    const options = (await client.post('/api/account/passkeys/options', {})).json();
    const added = await client.post('/api/account/passkeys', {
      name: `${name}'s phone`,
      credential: passkey.register(options),
    });
    expect(added.statusCode, added.body).toBe(200);
    const contact = await client.post('/api/contact', {
      name,
      email: third,
      relatedTo: 'Services',
      description: `Ottoline ${tag} asks about the ledger.`,
    });
    expect(contact.statusCode, contact.body).toBe(200);

    // Every emailed download link (the purchase's and the trial's), and the feeds, answer while the account lives.
    const links = openedMails(t.ctx, await t.ctx.db.select().from(outbox)).flatMap((mail) =>
      [...mail.text.matchAll(/https?:\/\/\S+\/api\/downloads\/[\w-]{43}/g)].map((match) => pathOf(match[0])),
    );
    expect(links.length).toBeGreaterThanOrEqual(2);
    held.push(...links);
    for (const url of held) expect((await client.get(url, json)).statusCode, url).toBe(200);
    await deliverDueMail(t.ctx);
    expect(await mailFilesWith(first)).not.toEqual([]);

    // The export lists the trial with its end and machine, and the order with its price parts.
    const exported = (await client.get('/api/account/export')).json<AccountExport>();
    const trial = exported.licenses.find((license) => license.licenseKey === trialKey);
    expect(trial?.trial?.endsAt).toEqual(expect.any(String));
    expect(trial?.devices.map((device) => device.name)).toEqual([machines[1]?.name]);
    expect(exported.summary).toContain('2 licenses (1 free trial)');
    const [order] = exported.orders;
    expect(order).toMatchObject({ listPrice: order?.amount, coupon: null, discount: 0 });
    expect((order?.taxableValue ?? 0) + (order?.tax ?? 0)).toBeCloseTo(order?.amount ?? -1, 2);

    const deleted = await client.post('/api/account/delete', { password: DEFAULT_PASSWORD, email: third });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await deliverDueMail(t.ctx);

    for (const { name: _, ...machine } of machines) {
      expect((await licenseApi('validate', machine)).code).toBe('REVOKED');
      const check = await licenseApi('update-check', {
        ...machine,
        platform: 'windows',
        arch: 'x64',
        version: '1.0.0',
      });
      expect(check.code).toBe('REVOKED');
    }
    const stranger = await t.client();
    for (const url of held) expect((await stranger.get(url, json)).statusCode, url).toBe(404);

    const personal = [
      ...addresses,
      phone,
      ...machines.flatMap((machine) => [machine.fingerprint, machine.name]),
    ];
    for (const needle of personal) {
      expect(await whereFound(needle), needle).toEqual([]);
      expect(await mailFilesWith(needle), needle).toEqual([]);
    }
    // The name stays on the tax invoice as issued (72 months, CGST Act s. 36), and nowhere else.
    expect(await whereFound(name)).toEqual(['invoices.document']);
    expect(await mailFilesWith(name)).toEqual([]);
  });

  it('keeps one free trial per person and machine: the same address in any case, the same machine in any case', async () => {
    const tool = await addTool(t, { device: 'Windows', trialDays: 7 });
    const tag = randomBytes(4).toString('hex');
    const email = `Tryer.${tag}@Example.com`;
    const first = await t.client({ ip: uniqueIp() });
    expect((await signUp(t, first, { email })).statusCode).toBe(200);
    expect((await first.post('/api/trials/', { toolId: tool.id })).statusCode).toBe(200);
    const [mail] = openedMails(
      t.ctx,
      (await t.ctx.db.select().from(outbox)).filter(
        (row) => row.kind === 'trial-delivery' && row.to === email,
      ),
    );
    const key = /[23456789A-Z]{5}(-[23456789A-Z]{5}){3}/.exec(mail?.text ?? '')?.[0] ?? '';
    const machine = `MachineID-${tag.toUpperCase()}-ABCDEF`;
    expect(
      (await licenseApi('activate', { licenseKey: key, toolId: tool.id, fingerprint: machine })).code,
    ).toBe('TRIAL');
    expect((await first.post('/api/account/delete', { password: DEFAULT_PASSWORD, email })).statusCode).toBe(
      200,
    );

    // The same person signs up again, typing the address in capitals: no second trial of the tool.
    const again = await t.client({ ip: uniqueIp() });
    expect((await signUp(t, again, { email: email.toUpperCase() })).statusCode).toBe(200);
    const refused = await again.post('/api/trials/', { toolId: tool.id });
    expect(refused.statusCode).toBe(409);
    // What was kept for it is a keyed hash, which no column of the trial tables shows as the address.
    expect((await whereFound(email)).filter((column) => column.startsWith('trial'))).toEqual([]);

    // Someone else's trial on that machine, its fingerprint sent in other letters with a trailing dot: TRIAL_USED.
    const other = await t.client({ ip: uniqueIp() });
    expect((await signUp(t, other, { email: `other.${tag}@example.com` })).statusCode).toBe(200);
    expect((await other.post('/api/trials/', { toolId: tool.id })).statusCode).toBe(200);
    const [otherMail] = openedMails(
      t.ctx,
      (await t.ctx.db.select().from(outbox)).filter(
        (row) => row.kind === 'trial-delivery' && row.to === `other.${tag}@example.com`,
      ),
    );
    const otherKey = /[23456789A-Z]{5}(-[23456789A-Z]{5}){3}/.exec(otherMail?.text ?? '')?.[0] ?? '';
    const sameMachine = `${machine.toLowerCase()}.`;
    expect(
      (await licenseApi('activate', { licenseKey: otherKey, toolId: tool.id, fingerprint: sameMachine }))
        .code,
    ).toBe('TRIAL_USED');
  });
});

describe('erasing a team member', () => {
  it('redacts the mail that names them to others: the owner\'s "joined your team", in the outbox and the mail folder', async () => {
    const tool = await addTool(t, { name: 'Team Ledger', device: 'Windows' });
    const owner = await newBuyer(t);
    await buyThroughEmulator(t, owner.client, tool.id, { seats: 3 });
    const teamUrl = `/api/teams/${(await owner.client.get('/api/my-tools/')).json<PurchasedTool[]>()[0]?.team?.licenseId}`;

    const tag = randomBytes(4).toString('hex');
    const name = `Perpetua Teammate${tag}`;
    const [old, current] = [`perpetua.old.${tag}@example.com`, `perpetua.new.${tag}@example.com`];
    const member = await t.client({ ip: uniqueIp() });
    expect((await signUp(t, member, { name, email: old })).statusCode).toBe(200);
    expect((await owner.client.post(`${teamUrl}/invitations`, { email: old })).statusCode).toBe(201);
    const [invitation] = await mailsTo(t, old, 'team-invitation');
    const token = new RegExp(`${TEAM_INVITATION_PATH}([\\w-]+)`).exec(invitation?.text ?? '')?.[1];
    const accepted = await member.post(`/api/team-invitations/${token}/accept`, {});
    expect(accepted.statusCode, accepted.body).toBe(200);
    await moveEmail(member, current);
    await deliverDueMail(t.ctx);
    // The owner was told, by name and address, in the outbox and in the development mail folder.
    expect(await mailFilesWith(name)).not.toEqual([]);
    expect(await whereFound(name)).toContain('outbox.subject');

    const deleted = await member.post('/api/account/delete', { password: DEFAULT_PASSWORD, email: current });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await deliverDueMail(t.ctx);

    const kept = openedMails(t.ctx, await t.ctx.db.select().from(outbox));
    for (const needle of [name, old, current]) {
      expect(await whereFound(needle), needle).toEqual([]);
      expect(await mailFilesWith(needle), needle).toEqual([]);
      const lower = needle.toLowerCase();
      const naming = kept.filter((mail) =>
        [mail.subject, mail.text, mail.html].some((part) => part.toLowerCase().includes(lower)),
      );
      expect(
        naming.map((mail) => mail.kind),
        needle,
      ).toEqual([]);
    }
    // The owner's email stays, saying what happened without whom.
    const told = kept.find((mail) => mail.kind === 'team-accepted' && mail.to === owner.user.email);
    expect(told?.subject).toBe('[name erased] joined your Team Ledger team');
    expect(told?.text).toContain('[name erased] ([address erased]) accepted your invitation');
  }, 120_000);
});
