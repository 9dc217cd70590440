import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { webhookAppliedAnswerSchema } from '../../shared/api-schemas';
import { findHostileText } from '../../shared/input-policy';
import { refusals } from '../http/answers';
import { CALLER_FIRST } from '../http/route-schemas';
import type { AppContext } from '../kernel/context';
import { DomainError } from '../kernel/domain-error';
import { documented } from '../openapi/openapi';
import { type RazorpayEventHandler, razorpayEventSchema } from './razorpay-event';
import { verifyWebhookSignature } from './signatures';

export const WEBHOOK_PATH = '/api/razorpay/webhook/';
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/** The signed bytes as Razorpay sent them: a body that is not a non-empty string has no signature to match. */
const signedBody = z.string().min(1);

const invalidSignature = () => new DomainError('invalid_signature', 'Invalid webhook signature.');

/**
 * Razorpay's webhook. The signature covers the exact bytes Razorpay sent, so this route gets the body as a raw
 * string (its own content-type parser, in its own plugin scope) and checks the HMAC before parsing anything.
 * The event, with its id, goes to the handler the app gives (the orders' `applyRazorpayEvent`, which owns
 * de-duplication and dispatch): payments knows the gateway, not what an event does to an order.
 */
export async function webhookRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  applyEvent: RazorpayEventHandler,
): Promise<void> {
  await app.register(async (base) => {
    const scope = base.withTypeProvider<ZodTypeProvider>();
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );

    scope.post(
      WEBHOOK_PATH,
      {
        ...documented(
          {
            tags: ['Shop'],
            summary: 'Razorpay’s webhook: a payment, refund or dispute event, signed with the webhook secret',
            description:
              'Called by Razorpay (X-Razorpay-Signature over the raw body, X-Razorpay-Event-Id); an event already applied answers `duplicate`.',
            body: signedBody,
            response: { 200: webhookAppliedAnswerSchema, ...refusals(400, 413, 415) },
          },
          { csrf: false, ...CALLER_FIRST },
        ),
        bodyLimit: WEBHOOK_BODY_LIMIT,
      },
      async (request, reply) => {
        const secret = ctx.config.razorpay.webhookSecret;
        if (!secret) {
          request.log.error('Razorpay webhook received but RAZORPAY_WEBHOOK_SECRET is not configured');
          throw new DomainError('webhook_not_configured', 'Webhooks are not configured.');
        }
        // A body that is not a non-empty string (the schema refused it) has no signature to match.
        if (request.validationError) throw invalidSignature();
        const raw = request.body;
        if (!verifyWebhookSignature(secret, raw, request.headers['x-razorpay-signature'])) {
          throw invalidSignature();
        }

        // A signed body that is not an event we can store (bad JSON, wrong shape, NUL or a lone surrogate in any
        // string) is refused with 400 and logged: never a 500, which would make Razorpay retry it for a day.
        let parsed: z.output<typeof razorpayEventSchema>;
        try {
          const json: unknown = JSON.parse(raw);
          const hostile = findHostileText(json);
          if (hostile) throw new Error(`${hostile.path}: ${hostile.message}`);
          const result = razorpayEventSchema.safeParse(json);
          if (!result.success) throw result.error;
          parsed = result.data;
        } catch (err) {
          request.log.warn({ err }, 'razorpay webhook refused: the signed body is not a usable event');
          throw new DomainError('invalid_event', 'The webhook body is not a Razorpay event.');
        }

        const header = request.headers['x-razorpay-event-id'];
        const eventId =
          typeof header === 'string' && header.length > 0 && header.length <= 100
            ? header
            : `sha256:${createHash('sha256').update(raw).digest('hex')}`;

        const { result, handled } = await applyEvent({ ...parsed, id: eventId });
        request.log.info({ eventId, event: parsed.event, result, handled }, 'razorpay webhook handled');
        return reply.send({ status: 'ok', result });
      },
    );
  });
}
