import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { argv } from '../../../test/support/command-line';
import { auditOf } from '../../../test/support/dashboard-helpers';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { fingerprint, licensedPurchase } from '../../../test/support/license-fixtures';
import { addTool, buyThroughEmulator, newBuyer } from '../../../test/support/shop-fixtures';
import { seatMember } from '../../../test/support/team-fixtures';
import type { PurchasedTool } from '../../shared/shop';
import type { Team } from '../../shared/teams';
import { tools } from '../db/schema/catalogue';
import { outbox } from '../db/schema/mail';
import { cliActor } from '../operator/audit';
import { type CommandLineEnv, runCommandLine } from './command-line';

/**
 * The operator's commands of issues 64 and 65 through the command line's dispatcher, on the test's database (PGlite,
 * and PostgreSQL in the postgres project): a tool's editions and update periods, suspending and reinstating a
 * license, and freeing the seats a refund of added seats left unpaid.
 */

const t = shopTestAppForFile();
let cli: CommandLineEnv;

beforeAll(async () => {
  cli = {
    cwd: process.cwd(),
    actor: cliActor('tester'),
    open: async () => t.ctx,
    snapshot: async () => undefined,
  };
});

const admin = (...args: string[]) => runCommandLine(args, cli);

type EditionLine = {
  name: string;
  priceInr: number;
  priceUsd: number | null;
  entitlements: string[];
  deviceLimit: number;
  updatesMonths: number | null;
  renewalPriceInr: number | null;
  renewalPriceUsd: number | null;
  trial: boolean;
};

/** `npm run admin -- tools editions <verb> <tool> …`. */
const editions = (verb: string, tool: string, ...args: string[]) =>
  admin('tools', 'editions', verb, tool, ...args);
const listEditions = async (tool: string) =>
  JSON.parse((await editions('list', tool, '--json')).stdout) as EditionLine[];

describe('npm run admin -- tools editions', () => {
  it('adds editions in order (audited), lists them, edits one’s update period, and refuses bad input unchanged', async () => {
    const tool = await addTool(t, { name: 'Scan Desk', priceInrPaise: 1499_00, activationLimit: 2 });
    const none = await editions('list', 'scan desk');
    expect(none.stdout).toContain('Scan Desk has no editions');

    const standard = await editions(
      'add',
      'Scan Desk',
      ...argv`--name Standard --price-inr 1499 --price-usd 19`,
    );
    expect(standard.stderr).toBe('');
    expect(standard.stdout).toContain('Added the edition Standard to Scan Desk');
    const pro = await editions(
      'add',
      tool.id.slice(0, 8),
      ...argv`--name Pro --price-inr 2999 --price-usd 39 --entitlements ${'ocr, batch'} --device-limit 3 --trial`,
    );
    expect(pro.exitCode, pro.stderr).toBe(0);

    // Refused before anything is written: an entitlement that is not a code, a period without a renewal price.
    for (const [extra, refusal] of [
      [['--entitlements', 'OCR'], '--entitlements "OCR": Each entitlement is a short code'],
      [['--updates-for', '12m'], 'needs a renewal price in INR'],
    ] as const) {
      const refused = await editions('add', 'Scan Desk', '--name', 'Max', '--price-inr', '4999', ...extra);
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toContain(refusal);
    }

    const listed = await listEditions('Scan Desk');
    expect(listed).toEqual([
      expect.objectContaining({
        name: 'Standard',
        priceInr: 1499,
        priceUsd: 19,
        entitlements: [],
        deviceLimit: 2,
        updatesMonths: null,
        trial: false,
      }),
      expect.objectContaining({
        name: 'Pro',
        priceInr: 2999,
        priceUsd: 39,
        entitlements: ['ocr', 'batch'],
        deviceLimit: 3,
        trial: true,
      }),
    ]);
    const [trialTool] = await t.ctx.db.select().from(tools).where(eq(tools.id, tool.id));
    expect(trialTool?.trialEditionId).toBeTruthy();
    const added = await auditOf(t, 'tool.edition-add', `tool:${tool.id}`);
    expect(added.map((entry) => [entry.actor, (entry.after as { name: string }).name])).toEqual([
      ['cli:tester', 'Pro'],
      ['cli:tester', 'Standard'],
    ]);

    const edited = await editions(
      'edit',
      'Scan Desk',
      'pro',
      ...argv`--updates-for 12m --renewal-price-inr 599 --renewal-price-usd 9`,
    );
    expect(edited.exitCode, edited.stderr).toBe(0);
    expect(edited.stdout).toContain('12 months, renewal ₹599.00 / $9.00');
    const badPeriod = await editions('edit', 'Scan Desk', 'Pro', '--updates-for', 'forever');
    expect(badPeriod.stderr).toContain('--updates-for "forever": "lifetime", or a number of months');
    const [, proNow] = await listEditions('Scan Desk');
    expect(proNow).toMatchObject({ updatesMonths: 12, renewalPriceInr: 599, renewalPriceUsd: 9 });
    const [audit] = await auditOf(t, 'tool.edition-edit', `tool:${tool.id}`);
    expect(audit?.before).toMatchObject({ edition: 'Pro', updatesMonths: null });
    expect(audit?.after).toMatchObject({ edition: 'Pro', updatesMonths: 12, renewalPriceInrPaise: 599_00 });

    expect((await editions('edit', 'Scan Desk', 'Pro', '--updates-for', 'lifetime')).exitCode).toBe(0);
    const [, lifetime] = await listEditions('Scan Desk');
    expect(lifetime?.updatesMonths).toBeNull();

    const catalogue = (await t.app.inject({ method: 'GET', url: '/api/alltools/' })).json<
      Array<{ _id: string; editions: Array<{ name: string; entitlements: string[] }> }>
    >();
    expect(catalogue.find((row) => row._id === tool.id)?.editions.map((edition) => edition.name)).toEqual([
      'Standard',
      'Pro',
    ]);
  });
});

describe('npm run admin -- tools edit --updates-for', () => {
  it('sets and clears a tool’s update period and renewal prices (audited); a bad period changes nothing', async () => {
    const tool = await addTool(t, { name: 'Ledger Lite', priceInrPaise: 999_00 });
    const set = await admin(
      ...argv`tools edit ${tool.id.slice(0, 8)} --updates-for 1y --renewal-price-inr 599 --renewal-price-usd 9`,
    );
    expect(set.exitCode, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/Updates\s+12 months, renewal ₹599\.00 \/ \$9\.00/);
    const [row] = await t.ctx.db.select().from(tools).where(eq(tools.id, tool.id));
    expect(row).toMatchObject({
      updatesMonths: 12,
      renewalPriceInrPaise: 599_00,
      renewalPriceUsdCents: 9_00,
    });
    const [audit] = await auditOf(t, 'tool.update', `tool:${tool.id}`);
    expect(audit?.actor).toBe('cli:tester');

    const bad = await admin('tools', 'edit', tool.id.slice(0, 8), '--updates-for', '0m');
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('--updates-for "0m"');
    const unpriced = await admin('tools', 'edit', tool.id.slice(0, 8), '--renewal-price-inr', 'none');
    expect(unpriced.stderr).toContain('needs a renewal price in INR');
    const [same] = await t.ctx.db.select().from(tools).where(eq(tools.id, tool.id));
    expect(same?.updatesMonths).toBe(12);

    expect((await admin('tools', 'edit', tool.id.slice(0, 8), '--updates-for', 'lifetime')).exitCode).toBe(0);
    const [back] = await t.ctx.db.select().from(tools).where(eq(tools.id, tool.id));
    expect(back?.updatesMonths).toBeNull();
  });
});

describe('npm run admin -- licenses suspend / reinstate', () => {
  it('suspends with a reason (audited, the buyer emailed), answers SUSPENDED with it, and reinstates', async () => {
    const bought = await licensedPurchase(t.ctx);
    const licenseKey = bought.licenseKey ?? '';
    const machine = fingerprint();
    const call = async (action: 'activate' | 'validate') =>
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/licenses/${action}`,
          payload: { licenseKey, toolId: bought.toolId, fingerprint: machine },
        })
      ).json<{ code: string; reason?: string }>();
    expect((await call('activate')).code).toBe('VALID');

    const noReason = await admin('licenses', 'suspend', licenseKey);
    expect(noReason.exitCode).toBe(1);
    expect(noReason.stderr).toContain('--reason: Say why: the buyer is emailed the reason.');
    expect((await call('validate')).code).toBe('VALID');

    const reason = 'The key was posted on a public forum';
    const suspended = await admin('licenses', 'suspend', licenseKey.toLowerCase(), '--reason', reason);
    expect(suspended.exitCode, suspended.stderr).toBe(0);
    expect(suspended.stdout).toContain(`is suspended: "${reason}"`);
    expect(await call('validate')).toMatchObject({ code: 'SUSPENDED', reason });
    const [audit] = await auditOf(t, 'license.suspend', `license:${bought.licenseId}`);
    expect(audit).toMatchObject({ actor: 'cli:tester', after: { status: 'suspended', reason } });
    const mails = await t.ctx.db.select({ subject: outbox.subject, to: outbox.to }).from(outbox);
    expect(
      mails.some((mail) => mail.subject.includes('is suspended') && mail.to.startsWith('licensee-')),
    ).toBe(true);
    expect((await admin('licenses', 'show', licenseKey)).stdout).toContain(`suspended: ${reason}`);

    const reinstated = await admin('licenses', 'reinstate', licenseKey);
    expect(reinstated.stdout).toContain('answers VALID again');
    expect((await call('validate')).code).toBe('VALID');
    expect(await auditOf(t, 'license.reinstate', `license:${bought.licenseId}`)).toHaveLength(1);
    const again = await admin('licenses', 'reinstate', licenseKey);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('not suspended');
    expect((await admin('licenses', 'suspend', 'NOPE-NOPE-NOPE-NOPE', '--reason', 'x')).exitCode).toBe(1);
  });
});

describe('npm run admin -- orders refund of added seats, then licenses seats free-beyond-paid', () => {
  it('names how many stand beyond the paid seats and the command that frees them; the command frees them, audited', async () => {
    const toolId = (await addTool(t, { name: 'Team Ledger', priceInrPaise: 1000_00 })).id;
    const owner = await newBuyer(t);
    await buyThroughEmulator(t, owner.client, toolId, { seats: 2 });
    const teamLicenseId =
      (await owner.client.get('/api/my-tools/')).json<PurchasedTool[]>()[0]?.team?.licenseId ?? '';
    const added = await buyThroughEmulator(t, owner.client, toolId, { seats: 1, teamLicenseId });
    await seatMember(t, owner.client, teamLicenseId);
    await seatMember(t, owner.client, teamLicenseId);

    const refunded = await admin('orders', 'refund', added.id, '--reason', 'Seat not needed');
    expect(refunded.exitCode, refunded.stderr).toBe(0);
    expect(refunded.stdout).toContain(
      `1 person holds a seat or an invitation beyond the 2 seats still paid for (3 in use). Free them with:\n` +
        `  npm run admin -- licenses seats free-beyond-paid ${teamLicenseId}`,
    );

    const freed = await admin('licenses', 'seats', 'free-beyond-paid', teamLicenseId);
    expect(freed.exitCode, freed.stderr).toBe(0);
    expect(freed.stdout).toMatch(/Cancelled 0 pending invitation\(s\) and freed 1 member seat\(s\) \(.+@/);
    expect((await owner.client.get(`/api/teams/${teamLicenseId}`)).json<Team>()).toMatchObject({
      seats: 2,
      seatsUsed: 2,
    });
    const [audit] = await auditOf(t, 'license.seats_free_beyond_paid', `license:${teamLicenseId}`);
    expect(audit?.actor).toBe('cli:tester');
    const nothing = await admin('licenses', 'seats', 'free-beyond-paid', teamLicenseId);
    expect(nothing.stderr).toContain('nothing stands beyond them');
  }, 120_000);
});
