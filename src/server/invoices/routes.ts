import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type TaxDocumentKind, taxDocumentFileName } from '../../shared/order-history';
import { requireUser } from '../auth/session';
import { contentDisposition } from '../http/content-disposition';
import { notFound } from '../http/errors';
import { pathStrings } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
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
    { schema: { params: pathStrings('orderId', 'file') } },
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
      const pdf = await renderTaxDocumentPdf(found.document);
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-disposition', contentDisposition(taxDocumentFileName(kind, found.number), 'inline'))
        .type('application/pdf')
        .send(pdf);
    },
  );
}
