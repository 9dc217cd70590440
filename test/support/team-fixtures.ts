import { and, desc, eq } from 'drizzle-orm';
import { outbox } from '../../src/server/db/schema/mail';
import type { MyLicense } from '../../src/shared/licenses';
import { TEAM_INVITATION_PATH } from '../../src/shared/teams';
import type { TestClient } from './client';
import { openedMails } from './mail';
import { newBuyer, type ShopTestApp } from './shop-fixtures';

/**
 * A new buyer takes a seat of the owner's team the way people do, through the API: the owner invites them, they
 * open the link from the invitation (read from the outbox, as the email would carry it) and accept. Returns the
 * member's own license key.
 */
export async function seatMember(t: ShopTestApp, owner: TestClient, teamLicenseId: string): Promise<string> {
  const member = await newBuyer(t);
  const invited = await owner.post(`/api/teams/${teamLicenseId}/invitations`, { email: member.user.email });
  if (invited.statusCode !== 201) throw new Error(`invitation refused: ${invited.body}`);
  const [mail] = openedMails(
    t.ctx,
    await t.ctx.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, 'team-invitation'), eq(outbox.to, member.user.email)))
      .orderBy(desc(outbox.id))
      .limit(1),
  );
  const token = mail?.text.match(new RegExp(`${TEAM_INVITATION_PATH}([A-Za-z0-9_-]+)`))?.[1];
  if (!token) throw new Error('no invitation link in the email');
  const accepted = await member.client.post(`/api/team-invitations/${token}/accept`, {});
  if (accepted.statusCode !== 200) throw new Error(`acceptance refused: ${accepted.body}`);
  const seat = (await member.client.get('/api/my-licenses/'))
    .json<MyLicense[]>()
    .find((license) => license.licenseKey);
  if (!seat?.licenseKey) throw new Error('the member holds no key');
  return seat.licenseKey;
}
