/**
 * The bench's floor (scripts/bench.ts): Fastify routes, in a process of its own as the app is, with none of the
 * app's hooks, limits or look-ups. What any Fastify endpoint of that size costs on this machine; each route's budget
 * is a share of it (decision 026).
 *
 * - `/` parses a JSON body when one is sent and answers a constant the size of a license file.
 * - `/page<route>` answers the built page of `<route>` (`/page/`, `/page/utility-tools`) as the app sends it to a
 *   browser that takes Brotli: the same compressed bytes, type, ETag and cache headers, and 304 to a matching
 *   If-None-Match, so a page's share compares like with like (issue 56). The site's folder is the first argument.
 *
 * Prints `listening <port>` once it listens on a free loopback port.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';

// A signed license file is about 600 characters of JSON text.
const answer = { valid: true, code: 'VALID', licenseFile: JSON.stringify({ payload: 'x'.repeat(560) }) };
const app = Fastify({ logger: false });
app.route({ method: ['GET', 'POST'], url: '/', handler: async () => answer });
// An update feed's address (`npm run bench -- --release-day`): the same answer, or a 304 to a client that sends an
// ETag, as the app's feeds answer one that already has the feed.
app.get('/api/updates/:token/:file', async (request, reply) => {
  if (request.headers['if-none-match'])
    return reply.header('etag', request.headers['if-none-match']).status(304).send();
  return answer;
});

const siteDir = process.argv[2];
if (siteDir) {
  const manifest = JSON.parse(readFileSync(path.join(siteDir, 'site-manifest.json'), 'utf8')) as {
    pages: Record<string, string>;
  };
  for (const [route, file] of Object.entries(manifest.pages)) {
    if (route.includes('*') || route.includes(':')) continue;
    const html = readFileSync(path.join(siteDir, file));
    const br = readFileSync(path.join(siteDir, `${file}.br`));
    const etag = `"${createHash('sha1').update(html).digest('base64url').slice(0, 20)}"`;
    app.get(`/page${route}`, (request, reply) => {
      reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('etag', etag)
        .header('vary', 'accept-encoding');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.header('content-encoding', 'br').send(br);
    });
  }
}

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('not listening on a port');
console.log(`listening ${address.port}`);
