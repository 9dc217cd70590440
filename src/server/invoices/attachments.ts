import { eq } from 'drizzle-orm';
import { taxDocumentFileName } from '../../shared/order-history';
import { outboxAttachments } from '../db/schema/mail';
import type { AppContext } from '../kernel/context';
import type { MailAttachment } from '../mail/transport';
import { findTaxDocument } from './lookup';
import { renderTaxDocumentPdf } from './pdf';

/**
 * The files of one outbox email, rendered from the documents they refer to: the very bytes a later download
 * gives. A reference to a missing document is an error, so the email is retried rather than sent without it.
 */
export async function resolveAttachments(
  ctx: Pick<AppContext, 'db' | 'pdfFonts'>,
  outboxId: number,
): Promise<MailAttachment[]> {
  const references = await ctx.db
    .select()
    .from(outboxAttachments)
    .where(eq(outboxAttachments.outboxId, outboxId));
  const files: MailAttachment[] = [];
  for (const reference of references) {
    const found = await findTaxDocument(ctx, reference.kind, reference.documentId);
    if (!found) throw new Error(`outbox ${outboxId}: ${reference.kind} ${reference.documentId} not found`);
    files.push({
      filename: taxDocumentFileName(reference.kind, found.number),
      content: await renderTaxDocumentPdf(ctx.pdfFonts, found.document),
      contentType: 'application/pdf',
    });
  }
  return files;
}
