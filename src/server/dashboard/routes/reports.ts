import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { activityQuerySchema, invoicePeriodSchema, tdsQuarterSchema } from '../../../shared/dashboard';
import { contentDisposition } from '../../http/content-disposition';
import { gstr1CsvStream } from '../../invoices/gstr1';
import type { AppContext } from '../../kernel/context';
import { listActivity } from '../../operator/activity';
import { tdsReport } from '../../orders/read/tds-report';
import { invoiceReport } from '../invoices';
import { overview } from '../overview';

/**
 * What the operator reads: the overview, the invoices of a period (and their GSTR-1 CSV), the TDS receivable of a
 * quarter, the activity log.
 */
export function reportRoutes(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get('/api/admin/overview', async () => overview(ctx));

  app.get('/api/admin/invoices', { schema: { querystring: invoicePeriodSchema } }, async (request) =>
    invoiceReport(ctx, request.query),
  );

  app.get(
    '/api/admin/invoices/export',
    { schema: { querystring: invoicePeriodSchema } },
    async (request, reply) => {
      const period = request.query;
      // Streamed: a year of documents leaves row by row instead of being built in memory first.
      return reply
        .header('content-disposition', contentDisposition(`gstr1-${period.from}-to-${period.to}.csv`))
        .type('text/csv; charset=utf-8')
        .send(Readable.from(gstr1CsvStream(ctx, period)));
    },
  );

  // The accountant's TDS receivable of a quarter (issue 68); its CSV is the command line's `invoices tds --csv`.
  app.get('/api/admin/tds', { schema: { querystring: tdsQuarterSchema } }, async (request) =>
    tdsReport(ctx, request.query.quarter),
  );

  app.get('/api/admin/activity', { schema: { querystring: activityQuerySchema } }, async (request) =>
    listActivity(ctx, request.query),
  );
}
