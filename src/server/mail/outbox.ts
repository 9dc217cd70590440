import { and, eq, gt, not, or, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db';
import { outbox, outboxAttachments } from '../db/schema/mail';
import type { DataSecrets } from '../kernel/data-secrets';

/** An order's document to attach (a tax document, or a proforma invoice), by reference: rendered when sent. */
export type AttachmentRef = { kind: 'invoice' | 'credit-note' | 'proforma'; id: string };

export type MailMessage = {
  /** One bare address ("name@example.com"); it is delivered to exactly this one recipient. */
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Template name: "contact-notification", "signup-code", "license-delivery", ... */
  kind: string;
  /** What caused it, e.g. "order:<uuid>". */
  ref?: string;
  attachments?: readonly AttachmentRef[];
  /** Optional mail only: its one-click unsubscribe URL (account/email-preferences.ts `unsubscribeUrl`). */
  listUnsubscribe?: string;
  /** Delete the row once sent (the confirmation to an address just erased), instead of keeping it 90 days. */
  deleteWhenSent?: boolean;
};

/**
 * "Mail was queued" hints, so a running outbox worker can deliver soon instead of on its next tick. A hint may
 * arrive before the queuing transaction commits; the worker's periodic run is the guarantee.
 */
export type MailQueuedHint = {
  notify(): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
};

declare module '../kernel/context' {
  interface AppContext {
    /** "Mail was queued": lets a running outbox worker deliver soon instead of on its next tick. */
    mailQueued: MailQueuedHint;
  }
}

export function createMailQueuedHint(): MailQueuedHint {
  const listeners = new Set<() => void>();
  return {
    notify() {
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The purposes (AES-GCM associated data) the two bodies are sealed under: a body copied into the other column does not open. */
const HTML_PURPOSE = 'mail-html';
const TEXT_PURPOSE = 'mail-text';

/** `v1:<key id>:<base64url>`, as `DataSecrets.seal` writes it: no space or line break, which every real body has. */
const SEALED = /^v1:[0-9a-f]{8}:[\w-]+$/;

export type MailBody = { html: string; text: string };

/**
 * A rendered email holds what it delivers (a license key, credentials, a sign-in code, a download link), so the
 * outbox stores both bodies sealed (decision 032): a database dump or backup without DATA_SECRET_KEY shows none.
 */
export function sealMailBody(secrets: DataSecrets, body: MailBody): MailBody {
  return { html: secrets.seal(HTML_PURPOSE, body.html), text: secrets.seal(TEXT_PURPOSE, body.text) };
}

/**
 * The bodies as they were rendered, under the current key or a previous one. Rows queued before bodies were sealed
 * hold them in clear and must still be sent: a body that is not in the sealed format is that clear text.
 */
export function openMailBody(secrets: DataSecrets, stored: MailBody): MailBody {
  const open = (purpose: string, value: string) =>
    SEALED.test(value) ? secrets.open(purpose, value) : value;
  return { html: open(HTML_PURPOSE, stored.html), text: open(TEXT_PURPOSE, stored.text) };
}

const RESEAL_BATCH = 200;

/**
 * Brings every stored body under the current key, at start like the license secrets (decision 032): bodies queued
 * in clear by a version before this one, and bodies sealed under a key being rotated out, so the old key can go once
 * this has run. Idempotent; a body that cannot be opened throws, as a license that cannot be opened does.
 */
export async function sealMailBodies(db: Database, secrets: DataSecrets): Promise<number> {
  const current = `${secrets.currentPrefix}%`;
  const stale = or(not(sql`${outbox.html} like ${current}`), not(sql`${outbox.text} like ${current}`));
  let changed = 0;
  // By id, so each row is looked at once even while new mail is queued.
  for (let after = 0; ; ) {
    const rows = await db
      .select({ id: outbox.id, html: outbox.html, text: outbox.text })
      .from(outbox)
      .where(and(stale, gt(outbox.id, after)))
      .orderBy(outbox.id)
      .limit(RESEAL_BATCH);
    for (const row of rows) {
      await db
        .update(outbox)
        .set(sealMailBody(secrets, openMailBody(secrets, row)))
        .where(and(eq(outbox.id, row.id), stale));
    }
    changed += rows.length;
    const last = rows.at(-1);
    if (!last || rows.length < RESEAL_BATCH) return changed;
    after = last.id;
  }
}

/**
 * Queues an email. Call it with the transaction that makes the change the email reports, so the email exists
 * exactly when the change does; the outbox worker delivers it later, with retries. A new message is due at
 * once. Pass `at` (ctx.clock.now()) to stamp it with the app's clock rather than the database's.
 */
export async function enqueueMail(
  ctx: { mailQueued: MailQueuedHint; dataSecrets: DataSecrets },
  db: DbOrTx,
  message: MailMessage,
  at?: Date,
): Promise<number> {
  const { attachments = [], ...fields } = message;
  const [row] = await db
    .insert(outbox)
    .values({
      ...fields,
      ...sealMailBody(ctx.dataSecrets, fields),
      ref: fields.ref ?? null,
      ...(at ? { createdAt: at, nextAttemptAt: at } : {}),
    })
    .returning({ id: outbox.id });
  if (!row) throw new Error('outbox insert returned no row');
  if (attachments.length > 0) {
    await db.insert(outboxAttachments).values(
      attachments.map((attachment) => ({
        outboxId: row.id,
        kind: attachment.kind,
        documentId: attachment.id,
      })),
    );
  }
  ctx.mailQueued.notify();
  return row.id;
}
