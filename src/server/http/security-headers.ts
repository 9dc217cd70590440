import type { FastifyInstance } from 'fastify';
import type { Config } from '../kernel/config';

const HSTS = 'max-age=63072000; includeSubDomains';
const RAZORPAY_HOSTS = ['https://checkout.razorpay.com', 'https://api.razorpay.com'];

/**
 * The headers every JSON answer carries. A JSON answer is never a document: nothing in it may load, run or be
 * framed, and the document-only policies (opener, permissions) have nothing to apply to. A tenth of what the license
 * API's hottest call costs is headers.
 */
function jsonSecurityHeaders(config: Config): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    ...(config.isProduction ? { 'strict-transport-security': HSTS } : {}),
  };
}

/** Content-Security-Policy and friends on every response: the site's policy on pages, a closed one on JSON. */
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

  const pageHeaders: Record<string, string> = {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cross-origin-opener-policy': 'same-origin-allow-popups',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(self)',
    ...(config.isProduction ? { 'strict-transport-security': HSTS } : {}),
  };
  const jsonHeaders = jsonSecurityHeaders(config);

  app.addHook('onSend', (_request, reply, payload, done) => {
    // A 304 updates what the client holds, which keeps the headers its 200 carried: RFC 9110 §15.4.5 asks for the
    // caching headers only (ETag, Cache-Control, Vary, Date), and a fleet revalidating its feeds sends it the most.
    if (reply.statusCode === 304) return done(null, payload);
    const type = reply.getHeader('content-type');
    reply.headers(
      typeof type === 'string' && type.startsWith('application/json') ? jsonHeaders : pageHeaders,
    );
    done(null, payload);
  });
}
