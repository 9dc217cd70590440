import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

const RAZORPAY_HOSTS = ['https://checkout.razorpay.com', 'https://api.razorpay.com'];

/** Content-Security-Policy and friends on every response. No inline script is ever allowed. */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const razorpay = config.razorpay.emulated ? [] : RAZORPAY_HOSTS;
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${razorpay.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${razorpay.join(' ')} ${config.razorpay.emulated ? '' : 'https://lumberjack.razorpay.com'}`.trim(),
    `frame-src 'self' ${razorpay.join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');

  app.addHook('onSend', async (_request, reply) => {
    reply.header('content-security-policy', csp);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('cross-origin-opener-policy', 'same-origin-allow-popups');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=(self)');
    if (config.isProduction) reply.header('strict-transport-security', 'max-age=63072000; includeSubDomains');
  });
}
