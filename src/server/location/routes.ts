import type { FastifyInstance, FastifyRequest } from 'fastify';
import geoip from 'geoip-country';
import { locationAnswerSchema } from '../../shared/api-schemas';
import { currencyForCountry, type LocationResponse } from '../../shared/currency';
import { refusals } from '../http/answers';
import type { Config } from '../kernel/config';
import type { AppContext } from '../kernel/context';
import { documented } from '../openapi/openapi';

/**
 * The visitor's country. Behind a trusted proxy (Cloudflare) its CF-IPCountry header is the best answer;
 * anywhere else that header is just text the client chose, so only the offline database is asked, about the
 * address Fastify settled on (the socket's, or X-Forwarded-For's when TRUST_PROXY is on). No network calls.
 * Null when unknown: loopback, private ranges, unmapped blocks, Cloudflare's XX and T1.
 */
export function countryOf(request: FastifyRequest, config: Pick<Config, 'trustProxy'>): string | null {
  if (config.trustProxy) {
    const header = request.headers['cf-ipcountry'];
    const value = typeof header === 'string' ? header.trim().toUpperCase() : '';
    if (value === 'XX' || value === 'T1') return null;
    if (/^[A-Z]{2}$/.test(value)) return value;
  }
  return geoip.lookup(request.ip)?.country ?? null;
}

export async function locationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const location = documented({
    tags: ['Site'],
    summary: "The visitor's country and the currency the shop prices in for it",
    response: { 200: locationAnswerSchema, ...refusals() },
  });
  app.get('/api/get-location/', location, async (request, reply): Promise<LocationResponse> => {
    // Per visitor, so only the browser may keep it; an hour spares a lookup on every catalogue visit.
    reply.header('cache-control', 'private, max-age=3600');
    return currencyForCountry(countryOf(request, ctx.config));
  });
}
