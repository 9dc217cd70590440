import type { FastifyInstance } from 'fastify';
import type { Config } from '../kernel/config';

const HSTS = 'max-age=63072000; includeSubDomains';
const RAZORPAY_HOSTS = ['https://checkout.razorpay.com', 'https://api.razorpay.com'];

/**
 * The headers every answer a program reads carries (JSON, the update feeds' XML, Squirrel's RELEASES text). Such an
 * answer is never a page: nothing in it may load, run or be framed, even when a browser opens it (an XML document can
 * hold XHTML scripts), and the document-only policies (opener, permissions) have nothing to apply to.
 */
function dataSecurityHeaders(config: Pick<Config, 'isProduction'>): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    ...(config.isProduction ? { 'strict-transport-security': HSTS } : {}),
  };
}

/** The types of the answers `dataSecurityHeaders` are for; every other answer gets the site's policy. */
const DATA_TYPES = ['application/json', 'application/rss+xml', 'application/xml', 'text/plain'];
const isData = (type: unknown): boolean =>
  typeof type === 'string' && DATA_TYPES.some((data) => type.startsWith(data));

/** Content-Security-Policy and friends on every response: the site's policy on pages, a closed one on data. */
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
  const dataHeaders = dataSecurityHeaders(config);

  app.addHook('onSend', (_request, reply, payload, done) => {
    // A 304 updates what the client holds, which keeps the headers its 200 carried: RFC 9110 §15.4.5 asks for the
    // caching headers only (ETag, Cache-Control, Vary, Date), and a fleet revalidating its feeds sends it the most.
    if (reply.statusCode === 304) return done(null, payload);
    reply.headers(isData(reply.getHeader('content-type')) ? dataHeaders : pageHeaders);
    done(null, payload);
  });
}
