import type { Database } from '../../src/server/db/index';
import { resolveAttachments } from '../../src/server/invoices/attachments';
import type { PdfFonts } from '../../src/server/invoices/pdf-text';
import type { Clock } from '../../src/server/kernel/clock';
import type { Config } from '../../src/server/kernel/config';
import type { DataSecrets } from '../../src/server/kernel/data-secrets';
import { type MailBody, openMailBody } from '../../src/server/mail/outbox';
import { createMailTransport, type MailTransport } from '../../src/server/mail/transport';
import { createOutboxWorker, type OutboxLog, type OutboxRunResult } from '../../src/server/mail/worker';

/**
 * Outbox rows with their bodies opened, as the worker sends them (the outbox stores them sealed): every test reads
 * mail content through this, so it asserts what the recipient gets.
 */
export function openedMails<Row extends MailBody>(
  ctx: { dataSecrets: DataSecrets },
  rows: readonly Row[],
): Row[] {
  return rows.map((row) => ({ ...row, ...openMailBody(ctx.dataSecrets, row) }));
}

const silentLog: OutboxLog = { warn() {}, error() {} };

/**
 * Delivers every message that is due now, through the configured transport (SMTP or files), with the server's own
 * attachment resolver, and reports what happened. A running server does this from its background job.
 */
export async function deliverDueMail(
  ctx: { db: Database; clock: Clock; config: Config; dataSecrets: DataSecrets; pdfFonts: PdfFonts },
  options: { transport?: MailTransport; log?: OutboxLog } = {},
): Promise<OutboxRunResult> {
  const transport = options.transport ?? createMailTransport(ctx.config);
  try {
    return await createOutboxWorker({
      db: ctx.db,
      clock: ctx.clock,
      transport,
      log: options.log ?? silentLog,
      dataSecrets: ctx.dataSecrets,
      resolveAttachments: (outboxId) => resolveAttachments(ctx, outboxId),
    }).drain();
  } finally {
    if (!options.transport) transport.close();
  }
}
