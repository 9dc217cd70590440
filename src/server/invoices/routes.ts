import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type TaxDocumentKind, taxDocumentFileName } from '../../shared/order-history';
import { requireUser } from '../auth/session';
import { answerIn, fileBytes, refusals } from '../http/answers';
import { contentDisposition } from '../http/content-disposition';
import { notFound } from '../http/errors';
import { pathStrings } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import type { TaxDocument } from './document';
import { findOwnTaxDocument, findProforma } from './lookup';
import { renderTaxDocumentPdf } from './pdf';
import type { PdfFonts } from './pdf-text';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KINDS: readonly TaxDocumentKind[] = ['invoice', 'credit-note'];
const FILE_PATTERN =
  /^(invoice|credit-note)(?:-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}))?\.pdf$/i;

/**
 * The download of an order's tax invoices and credit notes, and of the proforma invoice it is paid against
 * (`proforma.pdf`, issue 68), for the order's owner only.
 */
export async function taxDocumentRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/orders/:orderId/:file',
    documented({
      tags: ['Account'],
      summary: "An order's tax invoice, credit note or proforma invoice as a PDF",
      description:
        '`invoice.pdf` and `credit-note.pdf` are the current ones; `invoice-<id>.pdf` one document by its id; `proforma.pdf` the proforma invoice the order is paid against.',
      security: SESSION,
      params: pathStrings('orderId', 'file'),
      response: {
        200: answerIn('The PDF, to show in the browser', { 'application/pdf': fileBytes }),
        ...refusals(401, 404),
      },
    }),
    async (request, reply) => {
      const user = await requireUser(ctx, request);
      const { orderId, file } = request.params;
      if (file === 'proforma.pdf' && UUID_PATTERN.test(orderId)) {
        const proforma = await findProforma(ctx, { orderId, userId: user.id });
        if (!proforma) throw notFound();
        return sendPdf(
          ctx.pdfFonts,
          reply,
          taxDocumentFileName('proforma', proforma.number),
          proforma.document,
        );
      }
      // `invoice.pdf`, `credit-note.pdf`, or one document by its id: `invoice-<id>.pdf`.
      const named = FILE_PATTERN.exec(file);
      const kind = KINDS.find((candidate) => candidate === named?.[1]);
      const documentId = named?.[2];
      if (!kind || !UUID_PATTERN.test(orderId)) throw notFound();
      const found = await findOwnTaxDocument(ctx, { userId: user.id, orderId, kind, documentId });
      if (!found) throw notFound();
      return sendPdf(ctx.pdfFonts, reply, taxDocumentFileName(kind, found.number), found.document);
    },
  );
}

async function sendPdf(fonts: PdfFonts, reply: FastifyReply, fileName: string, document: TaxDocument) {
  const pdf = await renderTaxDocumentPdf(fonts, document);
  return reply
    .header('cache-control', 'private, no-store')
    .header('content-disposition', contentDisposition(fileName, 'inline'))
    .type('application/pdf')
    .send(pdf);
}
