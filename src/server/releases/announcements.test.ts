import { eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/app';
import { appWithSmtp } from '../../../test/support/file-apps';
import { licensedPurchase } from '../../../test/support/license-fixtures';
import { deliverDueMail } from '../../../test/support/mail';
import { addRelease } from '../../../test/support/release-fixtures';
import { addTool } from '../../../test/support/shop-fixtures';
import { users } from '../db/schema/accounts';
import { outbox } from '../db/schema/mail';
import { releases } from '../db/schema/releases';
import { announceReleases } from './announcements';

const { t, smtp } = appWithSmtp(createTestApp);

describe('release announcements', () => {
  it('email each owner who wants them once, with a one-click unsubscribe, and never twice', async () => {
    const tool = await addTool(t, { name: 'Reconciler' });
    const keen = await licensedPurchase(t.ctx, { toolId: tool.id });
    const optedOut = await licensedPurchase(t.ctx, { toolId: tool.id });
    await t.ctx.db.update(users).set({ releaseEmails: false }).where(eq(users.id, optedOut.userId));
    const { release } = await addRelease(t.ctx, {
      toolId: tool.id,
      version: '2.0.0',
      notesMarkdown:
        '## Bank feeds\n\nImports statements.<script>alert(1)</script><img src=x onerror="alert(1)"> [x](javascript:alert(1))',
    });
    const beta = await addRelease(t.ctx, { toolId: tool.id, version: '2.1.0-beta.1', channel: 'beta' });
    const draft = await addRelease(t.ctx, { toolId: tool.id, version: '2.2.0', state: 'draft' });

    expect(await announceReleases(t.ctx)).toMatchObject({ announced: expect.any(Number) });
    expect(await announceReleases(t.ctx)).toEqual({ announced: 0 });
    const queued = await t.ctx.db.select().from(outbox).where(like(outbox.ref, `release:%`));
    expect(queued.map((row) => row.ref)).toEqual([`release:${release.id}:${keen.userId}`]);
    const [marked] = await t.ctx.db.select().from(releases).where(eq(releases.id, release.id));
    expect(marked?.announcedAt).not.toBeNull();
    for (const unannounced of [beta.release.id, draft.release.id]) {
      const [row] = await t.ctx.db.select().from(releases).where(eq(releases.id, unannounced));
      expect(row?.announcedAt).toBeNull();
    }

    await deliverDueMail(t.ctx);
    const [user] = await t.ctx.db.select().from(users).where(eq(users.id, keen.userId));
    const mail = await smtp.waitFor((message) => message.to.includes(user?.email ?? ''));
    expect(mail.subject).toBe('Reconciler 2.0.0 is available');
    expect(mail.headers['list-unsubscribe']).toMatch(
      /^<http:\/\/localhost:3000\/api\/account\/unsubscribe\?token=.+>$/,
    );
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.html).toContain('<h2>Bank feeds</h2>');
    expect(mail.html).not.toMatch(/<script|onerror|<img|href="javascript/);
    expect(mail.text).toContain('http://localhost:3000/unsubscribe?token=');
    expect(mail.text).toContain('http://localhost:3000/my-tools');

    // A later run (or a second instance) finds nothing left to send.
    await t.ctx.db.update(releases).set({ announcedAt: null }).where(eq(releases.id, release.id));
    await announceReleases(t.ctx);
    expect(
      await t.ctx.db
        .select()
        .from(outbox)
        .where(like(outbox.ref, `release:${release.id}:%`)),
    ).toHaveLength(1);
  });
});
