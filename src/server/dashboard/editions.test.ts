import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInBuyer, totpAt, verifiedOperator } from '../../../test/support/dashboard-helpers';
import { sharedForFile, testAppForFile } from '../../../test/support/file-apps';
import { addTool } from '../../../test/support/shop-fixtures';
import type { AdminEdition } from '../../shared/edition-schemas';
import type { Tool } from '../../shared/shop';
import { toolEditions, tools } from '../db/schema/catalogue';
import { auditLog } from '../db/schema/operator';

/**
 * The dashboard's editions of a tool (decision 056): listed lowest first with the one its trial runs as, added and
 * changed through the catalogue's own operations (audited there), a price set or changed only with a fresh
 * authenticator code, and a refusal that changes nothing.
 */

const t = testAppForFile();
const operator = sharedForFile(() => verifiedOperator(t));
let toolId: string;

beforeAll(async () => {
  toolId = (await addTool(t, { name: 'Ledger Lens', device: 'Windows', activationLimit: 2 })).id;
}, 120_000);

/** A code from the next time step: the one used at sign-in cannot be used again. */
async function freshCode() {
  t.clock.advance(30_000);
  return totpAt(t, operator.secret);
}

const editionsPath = () => `/api/admin/tools/${toolId}/editions`;
const editionRows = () =>
  t.ctx.db.select().from(toolEditions).where(eq(toolEditions.toolId, toolId)).orderBy(toolEditions.position);
const auditsOf = (action: string) =>
  t.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.target, `tool:${toolId}`)))
    .orderBy(desc(auditLog.id));

describe('editions on the dashboard', () => {
  let standard: AdminEdition;
  let pro: AdminEdition;

  it('lists none for a tool sold at its own prices', async () => {
    const response = await operator.client.get(editionsPath());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('refuses an edition without a fresh code, or with bad fields, and adds nothing', async () => {
    const noCode = await operator.client.post(editionsPath(), { name: 'Standard', priceInrPaise: 1499_00 });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().fieldErrors).toHaveProperty('code');
    const bad = await operator.client.post(editionsPath(), {
      name: ' ',
      priceInrPaise: 12.5,
      entitlements: ['OCR'],
      deviceLimit: 0,
      code: await freshCode(),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toMatchObject({
      name: 'Give the edition a name',
      priceInrPaise: 'The INR price must be whole subunits (paise or cents)',
      deviceLimit: expect.stringMatching(/^A device limit is 1 to \d+$/),
    });
    const unknownField = await operator.client.post(editionsPath(), {
      name: 'Standard',
      priceInrPaise: 1499_00,
      position: 9,
      code: await freshCode(),
    });
    expect(unknownField.statusCode).toBe(400);
    expect(await editionRows()).toEqual([]);
    expect(await auditsOf('tool.edition-add')).toEqual([]);
  });

  it('adds Standard, then Pro above it, each audited, and the catalogue shows them', async () => {
    const first = await operator.client.post(editionsPath(), {
      name: 'Standard',
      priceInrPaise: 1499_00,
      priceUsdCents: 19_00,
      code: await freshCode(),
    });
    expect(first.statusCode, first.body).toBe(200);
    const second = await operator.client.post(editionsPath(), {
      name: 'Pro',
      priceInrPaise: 2999_00,
      priceUsdCents: 39_00,
      entitlements: ['ocr', 'batch'],
      deviceLimit: 3,
      code: await freshCode(),
    });
    expect(second.statusCode, second.body).toBe(200);
    const listed = second.json<AdminEdition[]>();
    [standard, pro] = listed as [AdminEdition, AdminEdition];
    expect(listed).toEqual([
      {
        id: expect.any(String),
        name: 'Standard',
        priceInrPaise: 1499_00,
        priceUsdCents: 19_00,
        entitlements: [],
        deviceLimit: null,
        // Without a choice the trial runs as the top edition.
        trial: false,
      },
      {
        id: expect.any(String),
        name: 'Pro',
        priceInrPaise: 2999_00,
        priceUsdCents: 39_00,
        entitlements: ['ocr', 'batch'],
        deviceLimit: 3,
        trial: true,
      },
    ]);
    expect((await operator.client.get(editionsPath())).json()).toEqual(listed);
    const audits = await auditsOf('tool.edition-add');
    expect(audits.map((entry) => [entry.actor, (entry.after as { name: string }).name])).toEqual([
      [operator.email, 'Pro'],
      [operator.email, 'Standard'],
    ]);

    const catalogue = (await (await t.client()).get('/api/alltools/')).json<Tool[]>();
    expect(catalogue.find((tool) => tool._id === toolId)?.editions).toEqual([
      { id: standard.id, name: 'Standard', priceInr: 1499, priceUsd: 19, entitlements: [], deviceLimit: 2 },
      {
        id: pro.id,
        name: 'Pro',
        priceInr: 2999,
        priceUsd: 39,
        entitlements: ['ocr', 'batch'],
        deviceLimit: 3,
      },
    ]);
  });

  it('refuses a second edition of the same name', async () => {
    const clash = await operator.client.post(editionsPath(), {
      name: 'pro',
      priceInrPaise: 3999_00,
      code: await freshCode(),
    });
    expect(clash.statusCode).toBe(409);
    expect((await editionRows()).map((row) => row.name)).toEqual(['Standard', 'Pro']);
  });

  it('changes what an edition adds without a code, and its price only with one', async () => {
    const renamed = await operator.client.post(`${editionsPath()}/${pro.id}`, {
      name: 'Professional',
      entitlements: ['ocr', 'batch', 'translate'],
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<AdminEdition[]>()[1]).toMatchObject({
      name: 'Professional',
      entitlements: ['ocr', 'batch', 'translate'],
      priceInrPaise: 2999_00,
    });

    const repriced = { priceInrPaise: 3499_00, priceUsdCents: 45_00 };
    const noCode = await operator.client.post(`${editionsPath()}/${pro.id}`, repriced);
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().fieldErrors).toHaveProperty('code');
    // The same prices as stored are no change of price: no code asked.
    const samePrice = await operator.client.post(`${editionsPath()}/${pro.id}`, {
      priceInrPaise: 2999_00,
      deviceLimit: null,
    });
    expect(samePrice.statusCode, samePrice.body).toBe(200);
    expect(samePrice.json<AdminEdition[]>()[1]?.deviceLimit).toBeNull();

    const paid = await operator.client.post(`${editionsPath()}/${pro.id}`, {
      ...repriced,
      code: await freshCode(),
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json<AdminEdition[]>()[1]).toMatchObject(repriced);
    const [last] = await auditsOf('tool.edition-edit');
    expect(last).toMatchObject({
      actor: operator.email,
      before: expect.objectContaining({ priceInrPaise: 2999_00 }),
      after: expect.objectContaining({ priceInrPaise: 3499_00, priceUsdCents: 45_00 }),
    });
  });

  it('makes the trial run as the edition chosen', async () => {
    const chosen = await operator.client.post(`${editionsPath()}/${standard.id}`, { trial: true });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json<AdminEdition[]>().map((edition) => [edition.name, edition.trial])).toEqual([
      ['Standard', true],
      ['Professional', false],
    ]);
    const [tool] = await t.ctx.db.select().from(tools).where(eq(tools.id, toolId));
    expect(tool?.trialEditionId).toBe(standard.id);
  });

  it('refuses an empty change, an edition of another tool, and an unknown one, changing nothing', async () => {
    const before = await editionRows();
    const empty = await operator.client.post(`${editionsPath()}/${pro.id}`, { code: await freshCode() });
    expect(empty.statusCode).toBe(400);
    const other = await addTool(t, { name: 'Other tool' });
    const elsewhere = await operator.client.post(`/api/admin/tools/${other.id}/editions/${pro.id}`, {
      name: 'Stolen',
    });
    expect(elsewhere.statusCode).toBe(404);
    const unknown = await operator.client.post(`${editionsPath()}/${crypto.randomUUID()}`, { name: 'Ghost' });
    expect(unknown.statusCode).toBe(404);
    const notAnId = await operator.client.post(`${editionsPath()}/pro`, { name: 'Ghost' });
    expect(notAnId.statusCode).toBe(400);
    expect(await editionRows()).toEqual(before);
  });

  it('answers only a verified operator', async () => {
    const buyer = await signedInBuyer(t);
    expect((await buyer.client.get(editionsPath())).statusCode).toBe(403);
    const added = await buyer.client.post(editionsPath(), { name: 'Free', priceInrPaise: 100_00 });
    expect(added.statusCode).toBe(403);
    const anonymous = await (await t.client()).get(editionsPath());
    expect(anonymous.statusCode).toBe(401);
    expect((await editionRows()).map((row) => row.name)).toEqual(['Standard', 'Professional']);
  });
});
