import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminOn } from '../../../test/support/command-line';
import { shopTestAppForFile } from '../../../test/support/file-apps';
import { openedMails } from '../../../test/support/mail';
import { addTool, buyThroughEmulator, newBuyer } from '../../../test/support/shop-fixtures';
import type { MyLicense } from '../../shared/licenses';
import type { PurchasedTool } from '../../shared/shop';
import { TEAM_INVITATION_PATH, type Team } from '../../shared/teams';
import { eraseAccount } from '../data-rights/erasure';
import { creditNotes } from '../db/schema/invoices';
import { licenses } from '../db/schema/licenses';
import { outbox } from '../db/schema/mail';
import { auditLog } from '../db/schema/operator';
import { orders } from '../db/schema/orders';
import { teamInvitations } from '../db/schema/teams';
import { refundOrder } from '../orders/refund';

/** The operator's view of teams (`licenses show --json`, seats free / move, audited) and erasure of members and owners. */

const t = shopTestAppForFile();
let toolId: string;

beforeAll(async () => {
  toolId = (await addTool(t, { name: 'Audit Trail', priceInrPaise: 800_00 })).id;
});

const admin = adminOn(() => t);

/** The token of the newest invitation link mailed to `email` (read back from the outbox, as the worker sends it). */
async function tokenFor(email: string): Promise<string> {
  const rows = openedMails(t.ctx, await t.ctx.db.select().from(outbox).where(eq(outbox.to, email)));
  const link = rows
    .filter((row) => row.kind === 'team-invitation')
    .map((row) => row.text.match(new RegExp(`${TEAM_INVITATION_PATH}([A-Za-z0-9_-]+)`))?.[1])
    .pop();
  expect(link).toBeTruthy();
  return link ?? '';
}

/** A team of `seats` with `members` accepted members; the owner's key and each member's account. */
async function teamWith(seats: number, members: number) {
  const owner = await newBuyer(t);
  await buyThroughEmulator(t, owner.client, toolId, { seats });
  const team = (await owner.client.get('/api/my-tools/')).json<PurchasedTool[]>()[0]?.team;
  const licenseId = team?.licenseId ?? '';
  const joined = [];
  for (let i = 0; i < members; i++) {
    const member = await newBuyer(t);
    const invited = await owner.client.post(`/api/teams/${licenseId}/invitations`, {
      email: member.user.email,
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const accepted = await member.client.post(
      `/api/team-invitations/${await tokenFor(member.user.email)}/accept`,
      {},
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    joined.push(member);
  }
  const ownerKey = (await owner.client.get('/api/my-licenses/')).json<MyLicense[]>()[0]?.licenseKey ?? '';
  return { owner, licenseId, ownerKey, members: joined };
}

const statusOf = async (holderId: string) =>
  (
    await t.ctx.db.select({ status: licenses.status }).from(licenses).where(eq(licenses.holderId, holderId))
  )[0]?.status;

describe('team licenses for the operator', () => {
  it('shows seats and members, frees and moves a seat, each audited', async () => {
    const { owner, licenseId, ownerKey, members } = await teamWith(3, 2);
    const [first, second] = members;
    const shown = await admin('licenses', 'show', ownerKey, '--json');
    expect(shown.stderr).toBe('');
    const data = JSON.parse(shown.stdout) as {
      seats: number;
      members: Array<{ email: string; isOwner: boolean }>;
    };
    expect(data.seats).toBe(3);
    expect(data.members.map((member) => [member.email, member.isOwner])).toEqual([
      [owner.user.email, true],
      [first?.user.email, false],
      [second?.user.email, false],
    ]);

    const freed = await admin('licenses', 'seats', 'free', ownerKey, '--member', first?.user.email ?? '');
    expect(freed.stderr).toBe('');
    expect(await statusOf(first?.user.id ?? '')).toBe('revoked');
    const [freeAudit] = await t.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'license.seat_free'), eq(auditLog.target, `license:${licenseId}`)));
    expect(freeAudit).toMatchObject({ actor: 'cli:tester', after: { member: null } });

    const moved = await admin(
      'licenses',
      'seats',
      'move',
      ownerKey,
      '--member',
      second?.user.id ?? '',
      '--to',
      'newcomer@example.com',
    );
    expect(moved.stderr).toBe('');
    expect(await statusOf(second?.user.id ?? '')).toBe('revoked');
    const [moveAudit] = await t.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'license.seat_move'));
    expect(moveAudit).toMatchObject({
      target: `license:${licenseId}`,
      after: { invited: 'newcomer@example.com' },
    });
    const team = (await owner.client.get(`/api/teams/${licenseId}`)).json<Team>();
    expect(team.members).toHaveLength(1);
    expect(team.invitations.map((invitation) => invitation.email)).toEqual(['newcomer@example.com']);
    expect(team.seatsUsed).toBe(2);

    // The owner's seat is not a member's; an unknown key is not found.
    expect(
      (await admin('licenses', 'seats', 'free', ownerKey, '--member', owner.user.email)).exitCode,
    ).not.toBe(0);
    expect(
      (await admin('licenses', 'seats', 'free', 'AAAA-BBBB-CCCC-DDDD', '--member', 'x@y.z')).exitCode,
    ).not.toBe(0);
  }, 180_000);

  it('refunds a team order whole: one credit note for the order, every member’s key revoked', async () => {
    const { owner, members } = await teamWith(2, 1);
    const [order] = await t.ctx.db.select().from(orders).where(eq(orders.userId, owner.user.id));
    await refundOrder(t.ctx, { orderId: order?.id ?? '', source: 'admin', reason: 'Team disbanded' });
    const [note] = await t.ctx.db
      .select()
      .from(creditNotes)
      .where(eq(creditNotes.orderId, order?.id ?? ''));
    expect(note?.total).toBe(2 * 800_00);
    expect(await statusOf(owner.user.id)).toBe('revoked');
    expect(await statusOf(members[0]?.user.id ?? '')).toBe('revoked');
  }, 180_000);

  it('gives an erased member’s seat back and revokes an erased owner’s team with its members', async () => {
    const { owner, licenseId, members } = await teamWith(3, 2);
    const [first, second] = members;
    await eraseAccount(t.ctx, first?.user.id ?? '', { kind: 'buyer', userId: first?.user.id ?? '' });
    expect(await statusOf(first?.user.id ?? '')).toBe('revoked');
    expect((await owner.client.get(`/api/teams/${licenseId}`)).json<Team>()).toMatchObject({
      seats: 3,
      seatsUsed: 2,
    });

    await owner.client.post(`/api/teams/${licenseId}/invitations`, { email: 'later@example.com' });
    await eraseAccount(t.ctx, owner.user.id, { kind: 'buyer', userId: owner.user.id });
    expect(await statusOf(owner.user.id)).toBe('revoked');
    expect(await statusOf(second?.user.id ?? '')).toBe('revoked');
    const tools = (await second?.client.get('/api/my-tools/'))?.json<PurchasedTool[]>();
    expect(tools?.some((tool) => tool._id === toolId)).toBe(false);
    expect(
      await t.ctx.db.select().from(teamInvitations).where(eq(teamInvitations.teamLicenseId, licenseId)),
    ).toEqual([]);
  }, 180_000);
});
