import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { normaliseEmail } from '../../shared/auth';
import type { Tx } from '../db';
import { rowsOf } from '../db/prune';
import { outbox } from '../db/schema/mail';
import type { AppContext } from '../kernel/context';
import { escapeHtml } from './layout';
import { openMailBody, sealMailBody } from './outbox';
import type { ArchivedMail } from './retention';
import { type OutgoingMail, writeMailFiles } from './transport';

/**
 * What erasing an account (data-rights/erasure.ts) asks of the mail it holds, in the erasure's transaction: mail to
 * the person's addresses and of their contact messages goes, mail about them to others is redacted, and the
 * development mail folder follows once committed.
 */

/** What stands in a redacted email where the erased account's name or address stood. */
const ERASED_NAME = '[name erased]';
const ERASED_ADDRESS = '[address erased]';

/**
 * Everything queued for the addresses or caused by `refs` (not yet sent: dropped; sent: its address and text go now
 * instead of after 90 days). Returns what went, the sent ones for whoever keeps their fact (an order's history).
 */
export async function eraseMailTo(
  tx: Tx,
  emails: readonly string[],
  refs: readonly string[],
): Promise<{ ids: number[]; sent: ArchivedMail[] }> {
  const gone = rowsOf<{
    id: number | string;
    kind: string;
    subject: string;
    ref: string | null;
    status: string;
    sent_at: string | Date | null;
  }>(
    await tx.execute(sql`
      delete from outbox
      where lower("to") in ${emails} ${refs.length ? sql`or ref in ${refs}` : sql``}
      returning id, kind, subject, ref, status, sent_at`),
  );
  return {
    ids: gone.map((row) => Number(row.id)),
    sent: gone
      .filter((row) => row.status === 'sent' && row.sent_at)
      .map((row) => ({
        id: Number(row.id),
        kind: row.kind,
        subject: row.subject,
        ref: row.ref,
        sentAt: new Date(row.sent_at as string),
      })),
  };
}

/** A text with the name (as typed, and as HTML writes it) and every address replaced, letter case ignored. */
export function redactor(name: string, emails: readonly string[]): (text: string) => string {
  const literal = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
  const names = name.trim() ? [...new Set([name.trim(), escapeHtml(name.trim())])] : [];
  const patterns = [
    ...emails
      .flatMap((email) => [...new Set([email, escapeHtml(email)])])
      .map((email) => [literal(email), ERASED_ADDRESS] as const),
    ...names.map((each) => [literal(each), ERASED_NAME] as const),
  ];
  return (text) =>
    patterns.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), text);
}

export type RedactedMail = Pick<
  OutgoingMail,
  'id' | 'to' | 'subject' | 'html' | 'text' | 'kind' | 'createdAt'
>;

/**
 * Mail about the person sent to someone else (issue 63): the rows of `refs` whose subject or (sealed) body names the
 * person or one of their addresses keep their purpose and lose the name and addresses. Returns them redacted, for
 * the development mail folder.
 */
export async function redactMailAbout(
  ctx: AppContext,
  tx: Tx,
  refs: readonly string[],
  redact: (text: string) => string,
): Promise<RedactedMail[]> {
  if (refs.length === 0) return [];
  const rows = await tx
    .select()
    .from(outbox)
    .where(inArray(outbox.ref, [...refs]));
  const redacted: RedactedMail[] = [];
  for (const row of rows) {
    const body = openMailBody(ctx.dataSecrets, row);
    const clean = { subject: redact(row.subject), html: redact(body.html), text: redact(body.text) };
    if (clean.subject === row.subject && clean.html === body.html && clean.text === body.text) continue;
    await tx
      .update(outbox)
      .set({ subject: clean.subject, ...sealMailBody(ctx.dataSecrets, clean) })
      .where(eq(outbox.id, row.id));
    redacted.push({ id: row.id, to: row.to, kind: row.kind, createdAt: row.createdAt, ...clean });
  }
  return redacted;
}

/**
 * Development only (no SMTP): the files the mail folder holds for the addresses, or of the outbox rows erased, in
 * DATA_DIR/mail, after the erasure committed; the files of mail about the person to others are written again as
 * redacted. A file that cannot be read is left (it is not one of ours); the erasure stands either way.
 */
export async function eraseMailFiles(
  ctx: AppContext,
  emails: readonly string[],
  outboxIds: ReadonlySet<number>,
  redacted: readonly RedactedMail[],
): Promise<void> {
  if (ctx.config.smtpUrl) return;
  const directory = path.join(ctx.config.dataDir, 'mail');
  const names = await readdir(directory).catch(() => [] as string[]);
  const records = names.filter((name) => name.endsWith('.json'));
  const rewrite = new Map(redacted.map((mail) => [mail.id, mail]));
  for (const name of records) {
    const file = path.join(directory, name);
    try {
      const record = JSON.parse(await readFile(file, 'utf8')) as { id?: unknown; to?: unknown };
      const about = rewrite.get(Number(record.id));
      if (about) await writeMailFiles(ctx.config, about);
      const erased =
        outboxIds.has(Number(record.id)) || emails.includes(normaliseEmail(String(record.to ?? '')));
      if (!erased) continue;
      const base = name.slice(0, -'.json'.length);
      await rm(path.join(directory, `${base}.eml`), { force: true });
      await rm(file, { force: true });
    } catch {
      // A half-written or foreign file: not a record of the mail transport's.
    }
  }
}
