import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches } from '../http/conditional';
import { sendJsonNotFound } from '../http/errors';

/** Written by scripts/build.ts: which prerendered file answers which route. */
export const SITE_MANIFEST = 'site-manifest.json';
export type SiteManifest = { pages: Record<string, string>; notFound: string };

type StaticFile = {
  body: Buffer;
  br?: Buffer;
  gz?: Buffer;
  etag: string;
  /** Content type, caching, ETag and Vary: the same on every answer of this file, so made once at start. */
  headers: Record<string, string>;
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.css',
  '.json',
  '.svg',
  '.txt',
  '.xml',
  '.webmanifest',
  '.ico',
]);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

function load(file: string, cacheControl: string): StaticFile {
  const body = readFileSync(file);
  const ext = path.extname(file);
  const compressible = COMPRESSIBLE.has(ext) && body.length > 512;
  const variant = (suffix: string, make: () => Buffer) =>
    existsSync(file + suffix) ? readFileSync(file + suffix) : make();
  const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`;
  return {
    body,
    etag,
    headers: {
      'content-type': TYPES[ext] ?? 'application/octet-stream',
      'cache-control': cacheControl,
      etag,
      vary: 'accept-encoding',
    },
    ...(compressible
      ? { br: variant('.br', () => brotliCompressSync(body)), gz: variant('.gz', () => gzipSync(body)) }
      : {}),
  };
}

function send(request: FastifyRequest, reply: FastifyReply, file: StaticFile, status = 200) {
  reply.status(status).headers(file.headers);
  if (status === 200 && etagMatches(request.headers['if-none-match'], file.etag))
    return reply.status(304).send();
  const accept = String(request.headers['accept-encoding'] ?? '');
  if (file.br && /\bbr\b/.test(accept)) return reply.header('content-encoding', 'br').send(file.br);
  if (file.gz && /\bgzip\b/.test(accept)) return reply.header('content-encoding', 'gzip').send(file.gz);
  return reply.send(file.body);
}

/**
 * A page's answers: its prerendered HTML (Brotli or gzip when accepted), or no body. JSON Schema rather than zod: the
 * pages are bytes Fastify sends as they are, and this module serves them in any Fastify app, with or without the
 * app's zod compilers (src/server/http/route-schemas.ts).
 */
const PAGE_ANSWERS = {
  200: { description: 'The prerendered page', content: { 'text/html': { schema: { type: 'string' } } } },
  301: { description: 'To the same address without its trailing slash', type: 'null' },
  304: { description: 'Unchanged: If-None-Match names the page’s ETag', type: 'null' },
};

/**
 * Serves the built site from memory: prerendered pages per route (revalidated on each visit), hashed assets
 * with immutable caching, other public files for an hour, and the 404 page for anything unknown.
 */
export async function registerStaticSite(app: FastifyInstance, siteDir: string): Promise<void> {
  const manifestPath = path.join(siteDir, SITE_MANIFEST);
  if (!existsSync(manifestPath)) {
    app.log.warn({ siteDir }, 'built site not found: run `npm run build`; serving the API only');
    app.setNotFoundHandler((_request, reply) => sendJsonNotFound(reply));
    return;
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as SiteManifest;
  const pageFiles = new Set(Object.values(manifest.pages).concat(manifest.notFound));

  const files = new Map<string, StaticFile>();
  for (const full of walk(siteDir)) {
    const rel = `/${path.relative(siteDir, full).split(path.sep).join('/')}`;
    if (rel.endsWith('.br') || rel.endsWith('.gz') || rel === `/${SITE_MANIFEST}` || rel.startsWith('/.'))
      continue;
    if (pageFiles.has(rel.slice(1))) continue;
    const cache = rel.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600';
    files.set(rel, load(full, cache));
  }
  const pages = new Map<string, StaticFile>();
  for (const [route, file] of Object.entries(manifest.pages)) {
    pages.set(route, load(path.join(siteDir, file), 'no-cache'));
  }
  const notFoundPage = load(path.join(siteDir, manifest.notFound), 'no-cache');

  for (const [route, page] of pages) {
    app.get(route, { schema: { response: PAGE_ANSWERS } }, (request, reply) => {
      // The router also matches "/Contact/"; the browser's router would then not know the page (its title
      // would read "Page not found"), so send such an address on to the one true path, keeping its query. The
      // path is the address asked for without its trailing slashes, never the route: "/admin/*" is a pattern.
      const queryAt = request.url.indexOf('?');
      const pathname = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
      if (route !== '/' && pathname.endsWith('/')) {
        const query = queryAt === -1 ? '' : request.url.slice(queryAt);
        return reply.redirect(`${pathname.replace(/\/+$/, '')}${query}`, 301);
      }
      return send(request, reply, page);
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (url.startsWith('/api/') || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return sendJsonNotFound(reply);
    }
    let file: StaticFile | undefined;
    try {
      file = files.get(decodeURIComponent(url));
    } catch {
      file = undefined;
    }
    if (file) return send(request, reply, file);
    return send(request, reply, notFoundPage, 404);
  });
}
