import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { pathStrings } from '../../http/route-schemas';
import type { RazorpayOrder, RazorpayPayment, RazorpayPaymentLink } from '../gateway';
import { EMULATOR_ANSWERS } from './answers';

/** What the emulator's payment links share with the rest of it: its orders, payments, ids and webhooks. */
export type PaymentLinkDeps = {
  /** The emulator's API prefix (`/emulator/razorpay`). */
  api: string;
  /** The site's public address: a link's `short_url` is absolute, as Razorpay's `https://rzp.io/i/…` is. */
  publicUrl: string;
  orders: Map<string, RazorpayOrder>;
  newId(prefix: string): string;
  newOrder(amount: number, currency: 'INR' | 'USD', receipt: string | null): RazorpayOrder;
  newPayment(order: RazorpayOrder, status: 'captured'): RazorpayPayment;
  sendWebhook(event: string, payload: Record<string, unknown>): void;
  authenticated(request: FastifyRequest, reply: FastifyReply): boolean;
  error(reply: FastifyReply, status: number, description: string, field?: string): FastifyReply;
};

/** A link as the emulator keeps it: Razorpay's entity, with what the fetch answer lists. */
type StoredLink = RazorpayPaymentLink & {
  accept_partial: boolean;
  description: string;
  customer: Record<string, string>;
  notes: Record<string, string>;
  created_at: number;
  cancelled_at: number;
  payments: NonNullable<RazorpayPaymentLink['payments']>;
};

const createLinkSchema = z.object({
  amount: z.number().int().min(100, 'Order amount less than minimum amount allowed'),
  currency: z.enum(['INR', 'USD']).default('INR'),
  accept_partial: z.boolean().optional(),
  reference_id: z.string().max(40).optional(),
  expire_by: z.number().int().positive().optional(),
  description: z.string().max(2048).optional(),
  customer: z.record(z.string(), z.string().max(256)).optional(),
  notify: z.record(z.string(), z.boolean()).optional(),
  reminder_enable: z.boolean().optional(),
  notes: z.record(z.string(), z.union([z.string().max(256), z.number()])).optional(),
});

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const amountText = (link: StoredLink) =>
  `${link.currency === 'INR' ? '₹' : '$'}${(link.amount / 100).toFixed(2)}`;

/**
 * Razorpay's Payment Links, emulated (issue 68): `POST /v1/payment_links` (a Standard link, full payment only),
 * fetch and cancel, a hosted page at the link's `short_url` whose Pay button captures one payment, and the signed
 * webhooks Razorpay sends for it (`payment.captured` and `order.paid` for the order the link opens, then
 * `payment_link.paid` carrying link, payment and order). The emulator keeps no clock of its own: a link stops
 * taking payments when the shop cancels it (at the proforma's expiry).
 */
export function registerPaymentLinks(app: FastifyInstance, deps: PaymentLinkDeps): void {
  const links = new Map<string, StoredLink>();
  const byReference = new Map<string, string>();
  const unixNow = () => Math.floor(Date.now() / 1000);
  const linkId = pathStrings('id');

  app.post(
    `${deps.api}/v1/payment_links`,
    { schema: { response: EMULATOR_ANSWERS.paymentLink }, config: { csrf: false } },
    async (request, reply) => {
      if (!deps.authenticated(request, reply)) return reply;
      const parsed = createLinkSchema.safeParse(request.body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return deps.error(reply, 400, issue?.message ?? 'Invalid request', issue?.path.join('.'));
      }
      const body = parsed.data;
      if (body.accept_partial)
        return deps.error(reply, 400, 'The emulator takes full payments only', 'accept_partial');
      if (body.reference_id && byReference.has(body.reference_id))
        return deps.error(
          reply,
          400,
          `Payment Link with reference id ${body.reference_id} already exists`,
          'reference_id',
        );
      const id = deps.newId('plink');
      const link: StoredLink = {
        id,
        amount: body.amount,
        amount_paid: 0,
        currency: body.currency,
        status: 'created',
        reference_id: body.reference_id ?? null,
        expire_by: body.expire_by ?? unixNow() + 180 * 24 * 60 * 60,
        short_url: `${deps.publicUrl}${deps.api}/l/${id}`,
        accept_partial: false,
        description: body.description ?? '',
        customer: body.customer ?? {},
        notes: Object.fromEntries(Object.entries(body.notes ?? {}).map(([k, v]) => [k, String(v)])),
        created_at: unixNow(),
        cancelled_at: 0,
        payments: [],
      };
      links.set(id, link);
      if (link.reference_id) byReference.set(link.reference_id, id);
      return reply.send({ ...link, payments: null });
    },
  );

  app.get<{ Params: { id: string } }>(
    `${deps.api}/v1/payment_links/:id`,
    { schema: { params: linkId, response: EMULATOR_ANSWERS.paymentLink } },
    async (request, reply) => {
      if (!deps.authenticated(request, reply)) return reply;
      const link = links.get(request.params.id);
      if (!link) return deps.error(reply, 400, 'The id provided does not exist', 'id');
      return reply.send(link);
    },
  );

  app.post<{ Params: { id: string } }>(
    `${deps.api}/v1/payment_links/:id/cancel`,
    { schema: { params: linkId, response: EMULATOR_ANSWERS.paymentLink }, config: { csrf: false } },
    async (request, reply) => {
      if (!deps.authenticated(request, reply)) return reply;
      const link = links.get(request.params.id);
      if (!link) return deps.error(reply, 400, 'The id provided does not exist', 'id');
      if (link.status !== 'created') return deps.error(reply, 400, `Payment Link is already ${link.status}`);
      link.status = 'cancelled';
      link.cancelled_at = unixNow();
      return reply.send(link);
    },
  );

  /** The hosted page a buyer opens from the proforma: the amount, and one button that pays it. */
  app.get<{ Params: { id: string } }>(
    `${deps.api}/l/:id`,
    { schema: { params: linkId, response: EMULATOR_ANSWERS.linkPage } },
    async (request, reply) => {
      const link = links.get(request.params.id);
      if (!link)
        return reply.status(404).type('text/html; charset=utf-8').send('<p>No such payment link.</p>');
      const payable = link.status === 'created';
      const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Razorpay test payment link</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem; color: #0f172a">
<main>
<p style="color: #b42318; font-weight: 600">Test mode: the Razorpay emulator. No money moves.</p>
<h1 style="font-size: 1.4rem">${escapeHtml(link.description || 'Payment')}</h1>
<p>Amount: <strong>${amountText(link)}</strong></p>
<p>Status: <strong>${escapeHtml(link.status)}</strong></p>
${
  payable
    ? `<form method="post" action="${escapeHtml(`${deps.api}/l/${link.id}/pay`)}" enctype="text/plain">
<button type="submit" style="font-size: 1rem; padding: 0.6rem 1.2rem; background: #17324d; color: #fff; border: 0; border-radius: 0.5rem">Pay ${amountText(link)}</button>
</form>`
    : ''
}
</main></body></html>`;
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    },
  );

  /** The hosted page's Pay: one captured payment on an order of the link's amount, then the webhooks. */
  app.post<{ Params: { id: string } }>(
    `${deps.api}/l/:id/pay`,
    { schema: { params: linkId, response: EMULATOR_ANSWERS.linkPaid }, config: { csrf: false } },
    async (request, reply) => {
      const link = links.get(request.params.id);
      if (!link) return deps.error(reply, 400, 'The id provided does not exist', 'id');
      if (link.status !== 'created') return deps.error(reply, 400, `Payment Link is ${link.status}`);
      const order = deps.newOrder(link.amount, link.currency === 'USD' ? 'USD' : 'INR', link.reference_id);
      const payment = deps.newPayment(order, 'captured');
      order.status = 'paid';
      order.amount_paid = order.amount;
      order.amount_due = 0;
      order.attempts = 1;
      link.status = 'paid';
      link.amount_paid = link.amount;
      link.payments.push({
        payment_id: payment.id,
        amount: payment.amount,
        status: 'captured',
        created_at: payment.created_at,
      });
      deps.sendWebhook('payment.captured', { payment: { entity: { ...payment } } });
      deps.sendWebhook('order.paid', {
        payment: { entity: { ...payment } },
        order: { entity: { ...order } },
      });
      deps.sendWebhook('payment_link.paid', {
        payment_link: { entity: { ...link, payments: null } },
        payment: { entity: { ...payment } },
        order: { entity: { ...order } },
      });
      if (request.headers.accept?.includes('application/json'))
        return reply.send({ payment_link_id: link.id, payment_id: payment.id, status: 'paid' });
      return reply.redirect(`${deps.api}/l/${link.id}`, 303);
    },
  );
}
