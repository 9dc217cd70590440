import { setImmediate } from 'node:timers/promises';
import { and, asc, eq, exists, isNull, ne, sql } from 'drizzle-orm';
import sanitizeHtml from 'sanitize-html';
import { SITE } from '../../shared/site';
import { unsubscribeUrls, wantsTopic } from '../account/email-preferences';
import type { DbOrTx } from '../db';
import { users } from '../db/schema/accounts';
import { tools } from '../db/schema/catalogue';
import { licenses } from '../db/schema/licenses';
import { outbox } from '../db/schema/mail';
import { purchases } from '../db/schema/orders';
import { releases } from '../db/schema/releases';
import type { AppContext } from '../kernel/context';
import { type RenderedEmail, renderEmail } from '../mail/layout';
import { enqueueMail } from '../mail/outbox';
import { renderNotes } from './notes';

/** Emails queued per transaction: a release of a popular tool is announced over several short transactions. */
const ANNOUNCEMENT_BATCH = 200;

const announcementRef = (releaseId: string, userId: string) => `release:${releaseId}:${userId}`;

type Announced = Pick<typeof releases.$inferSelect, 'id' | 'version' | 'notesMarkdown'> & {
  toolName: string;
};

function announcementEmail(
  release: Announced,
  links: { myTools: string; unsubscribe: string },
): RenderedEmail {
  const notesHtml = renderNotes(release.notesMarkdown);
  const notesText = sanitizeHtml(notesHtml, { allowedTags: [], allowedAttributes: {} }).trim();
  return renderEmail({
    subject: `${release.toolName} ${release.version} is available`,
    heading: `${release.toolName} ${release.version} is available`,
    blocks: [
      {
        kind: 'paragraph',
        text: `A new version of ${release.toolName}, which you bought from ${SITE.name}, is ready to download. It is included in your purchase.`,
      },
      ...(notesHtml ? [{ kind: 'sanitisedHtml' as const, html: notesHtml, text: notesText }] : []),
      { kind: 'button', href: links.myTools, label: 'Download from My Tools' },
      {
        kind: 'paragraph',
        text: `You get this email because you own ${release.toolName}. To stop emails about new versions: ${links.unsubscribe}`,
      },
    ],
  });
}

/**
 * The next owners of the release's tool to tell: each once (no email with this release's and owner's ref in the
 * outbox yet), who want release emails, whose purchase stands (not refunded, license not revoked).
 */
function ownersToTell(tx: DbOrTx, release: { id: string; toolId: string }) {
  return tx
    .selectDistinct({ id: users.id, email: users.email })
    .from(users)
    .innerJoin(purchases, and(eq(purchases.userId, users.id), eq(purchases.toolId, release.toolId)))
    .innerJoin(licenses, and(eq(licenses.purchaseId, purchases.id), isNull(licenses.teamLicenseId)))
    .where(
      and(
        eq(wantsTopic('releases'), true),
        isNull(purchases.refundedAt),
        ne(licenses.status, 'revoked'),
        sql`not ${exists(
          tx
            .select({ one: sql`1` })
            .from(outbox)
            .where(eq(outbox.ref, sql`'release:' || ${release.id} || ':' || ${users.id}`)),
        )}`,
      ),
    )
    .orderBy(asc(users.id))
    .limit(ANNOUNCEMENT_BATCH);
}

/**
 * One batch of one release's announcement, in one transaction holding the release's row: another instance running
 * the job skips a release that is being announced. The transaction that finds fewer owners left than a batch marks
 * the release announced. Returns whether this release is done.
 */
async function announceBatch(ctx: AppContext, releaseId: string): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [release] = await tx
      .select({
        id: releases.id,
        toolId: releases.toolId,
        version: releases.version,
        notesMarkdown: releases.notesMarkdown,
        announcedAt: releases.announcedAt,
        toolName: tools.name,
      })
      .from(releases)
      .innerJoin(tools, eq(tools.id, releases.toolId))
      .where(eq(releases.id, releaseId))
      .for('update', { of: releases, skipLocked: true });
    if (!release || release.announcedAt) return true;
    const owners = await ownersToTell(tx, release);
    const now = ctx.clock.now();
    for (const owner of owners) {
      const unsubscribe = unsubscribeUrls(ctx, owner.id, 'releases');
      const email = announcementEmail(release, {
        myTools: `${ctx.config.publicUrl}/my-tools`,
        unsubscribe: unsubscribe.page,
      });
      await enqueueMail(
        ctx,
        tx,
        {
          to: owner.email,
          ...email,
          kind: 'release-announcement',
          ref: announcementRef(release.id, owner.id),
          listUnsubscribe: unsubscribe.oneClick,
        },
        now,
      );
    }
    if (owners.length < ANNOUNCEMENT_BATCH) {
      await tx.update(releases).set({ announcedAt: now }).where(eq(releases.id, release.id));
      return true;
    }
    return false;
  });
}

/**
 * The background job's run: every published stable release not yet announced is emailed to its tool's owners, in
 * batches, never twice (decision: a job rather than a hook in publish, so a publish never waits on a thousand
 * inserts and an interrupted announcement simply continues on the next run). Betas are never announced, and a
 * staged release only once its rollout is complete (decision 060).
 */
export async function announceReleases(ctx: AppContext): Promise<{ announced: number }> {
  const pending = await ctx.db
    .select({ id: releases.id })
    .from(releases)
    .where(
      and(
        eq(releases.state, 'published'),
        eq(releases.channel, 'stable'),
        // A staged release is announced once its rollout completes: until then most owners' updaters do not offer it.
        eq(releases.rolloutState, 'complete'),
        isNull(releases.announcedAt),
      ),
    )
    .orderBy(asc(releases.publishedAt));
  let announced = 0;
  for (const { id } of pending) {
    let done = false;
    while (!done) {
      done = await announceBatch(ctx, id);
      // Between batches, the requests that arrived meanwhile: on the embedded database every query resolves without
      // waiting on a socket, so 500 batches for 100,000 owners otherwise held the server for three minutes without
      // answering anything (`npm run bench -- --release-day`, issue 69).
      await setImmediate();
    }
    announced += 1;
  }
  return { announced };
}
