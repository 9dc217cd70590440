import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { activityQuerySchema, invoicePeriodSchema } from '../../../shared/dashboard';
import { activityPageSchema, invoiceReportSchema, overviewSchema } from '../../../shared/dashboard-answers';
import { answerIn, refusals } from '../../http/answers';
import { contentDisposition } from '../../http/content-disposition';
import { gstr1CsvStream } from '../../invoices/gstr1';
import type { AppContext } from '../../kernel/context';
import { listActivity } from '../../operator/activity';
import { invoiceReport } from '../invoices';
import { overview } from '../overview';
import { GUARD_REFUSALS } from './guard';

/** What the operator reads: the overview, the invoices of a period (and their GSTR-1 CSV), the activity log. */
export function reportRoutes(base: FastifyInstance, ctx: AppContext): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const figures = { schema: { response: { 200: overviewSchema, ...refusals(...GUARD_REFUSALS) } } };
  app.get('/api/admin/overview', figures, async () => overview(ctx));

  const invoices = {
    schema: {
      querystring: invoicePeriodSchema,
      response: { 200: invoiceReportSchema, ...refusals(...GUARD_REFUSALS, 400) },
    },
  };
  app.get('/api/admin/invoices', invoices, async (request) => invoiceReport(ctx, request.query));

  app.get(
    '/api/admin/invoices/export',
    {
      schema: {
        querystring: invoicePeriodSchema,
        response: {
          200: answerIn("The period's GSTR-1 split as CSV, streamed", { 'text/csv': z.string() }),
          ...refusals(...GUARD_REFUSALS, 400),
        },
      },
    },
    async (request, reply) => {
      const period = request.query;
      // Streamed: a year of documents leaves row by row instead of being built in memory first.
      return reply
        .header('content-disposition', contentDisposition(`gstr1-${period.from}-to-${period.to}.csv`))
        .type('text/csv; charset=utf-8')
        .send(Readable.from(gstr1CsvStream(ctx, period)));
    },
  );

  const activity = {
    schema: {
      querystring: activityQuerySchema,
      response: { 200: activityPageSchema, ...refusals(...GUARD_REFUSALS, 400) },
    },
  };
  app.get('/api/admin/activity', activity, async (request) => listActivity(ctx, request.query));
}
