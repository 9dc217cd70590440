import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type TaxDocumentKind, taxDocumentFileName } from '../../shared/order-history';
import { requireUser } from '../auth/session';
import { answerIn, fileBytes, refusals } from '../http/answers';
import { contentDisposition } from '../http/content-disposition';
import { notFound } from '../http/errors';
import { pathStrings } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { documented, SESSION } from '../openapi/openapi';
import { findOwnTaxDocument } from './lookup';
import { renderTaxDocumentPdf } from './pdf';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KINDS: readonly TaxDocumentKind[] = ['invoice', 'credit-note'];
const FILE_PATTERN =
  /^(invoice|credit-note)(?:-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}))?\.pdf$/i;

/** The download of an order's tax invoices and credit notes, for the order's owner only. */
export async function taxDocumentRoutes(base: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/orders/:orderId/:file',
    documented({
      tags: ['Account'],
      summary: "An order's tax invoice or credit note as a PDF",
      description:
        '`invoice.pdf` and `credit-note.pdf` are the current ones; `invoice-<id>.pdf` one document by its id.',
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
      // `invoice.pdf`, `credit-note.pdf`, or one document by its id: `invoice-<id>.pdf`.
      const named = FILE_PATTERN.exec(file);
      const kind = KINDS.find((candidate) => candidate === named?.[1]);
      const documentId = named?.[2];
      if (!kind || !UUID_PATTERN.test(orderId)) throw notFound();
      const found = await findOwnTaxDocument(ctx, { userId: user.id, orderId, kind, documentId });
      if (!found) throw notFound();
      const pdf = await renderTaxDocumentPdf(ctx.pdfFonts, found.document);
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-disposition', contentDisposition(taxDocumentFileName(kind, found.number), 'inline'))
        .type('application/pdf')
        .send(pdf);
    },
  );
}
