import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerStaticSite, SITE_MANIFEST, type SiteManifest } from './static';

/** A built site of four pages (the dashboard's shell answering every /admin address), served the way the app serves it (its router ignores a trailing slash). */
let siteDir: string;
let app: FastifyInstance;

beforeAll(async () => {
  siteDir = mkdtempSync(path.join(tmpdir(), 'site-static-'));
  const manifest: SiteManifest = {
    pages: {
      '/': 'index.html',
      '/Contact': 'Contact.html',
      '/utility-tools/invalid-link': 'invalid-link.html',
      '/admin': 'admin.html',
      '/admin/*': 'admin.html',
    },
    notFound: '404.html',
  };
  writeFileSync(path.join(siteDir, SITE_MANIFEST), JSON.stringify(manifest));
  for (const [name, title] of [
    ['index.html', 'Home'],
    ['Contact.html', 'Contact'],
    ['invalid-link.html', 'Invalid or Expired Link'],
    ['admin.html', 'Dashboard'],
    ['404.html', 'Page not found'],
  ]) {
    writeFileSync(path.join(siteDir, name as string), `<title>${title}</title>`);
  }
  app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  await registerStaticSite(app, siteDir);
});

afterAll(async () => {
  await app.close();
  rmSync(siteDir, { recursive: true, force: true });
});

describe('addresses with a trailing slash', () => {
  it('redirect permanently to the canonical path of every page, keeping the query', async () => {
    for (const [asked, canonical] of [
      ['/Contact/', '/Contact'],
      ['/Contact/?ref=mail&x=1', '/Contact?ref=mail&x=1'],
      ['/utility-tools/invalid-link/', '/utility-tools/invalid-link'],
      ['/admin/', '/admin'],
    ]) {
      const response = await app.inject({ method: 'GET', url: asked });
      expect(response.statusCode, asked).toBe(301);
      expect(response.headers.location).toBe(canonical);
    }
  });

  it('keep the real path of a deep link under a wildcard route, never the route’s pattern', async () => {
    for (const [asked, canonical] of [
      ['/admin/orders/', '/admin/orders'],
      [
        '/admin/customers/4f0c2a9e-1b2c-4d3e-8f40-5a6b7c8d9e0f/?tab=licenses',
        '/admin/customers/4f0c2a9e-1b2c-4d3e-8f40-5a6b7c8d9e0f?tab=licenses',
      ],
      ['/admin/tools//', '/admin/tools'],
    ]) {
      const response = await app.inject({ method: 'GET', url: asked });
      expect(response.statusCode, asked).toBe(301);
      expect(response.headers.location).toBe(canonical);
    }
    const deepLink = await app.inject({ method: 'GET', url: '/admin/orders' });
    expect(deepLink.statusCode).toBe(200);
    expect(deepLink.body).toContain('<title>Dashboard</title>');
  });

  it('leave the canonical paths, the home page and unknown addresses as they were', async () => {
    const contact = await app.inject({ method: 'GET', url: '/Contact' });
    expect(contact.statusCode).toBe(200);
    expect(contact.body).toContain('<title>Contact</title>');
    const home = await app.inject({ method: 'GET', url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('<title>Home</title>');
    const unknown = await app.inject({ method: 'GET', url: '/no-such-page/' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('Page not found');
  });
});

describe('revalidation (RFC 9110 If-None-Match)', () => {
  it('answers 304 with the validators to the ETag it sent, in a list or weak, and the page to any other', async () => {
    const first = await app.inject({ method: 'GET', url: '/Contact' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]{20}"$/);
    for (const ifNoneMatch of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
      const again = await app.inject({
        method: 'GET',
        url: '/Contact',
        headers: { 'if-none-match': ifNoneMatch },
      });
      expect(again.statusCode, ifNoneMatch).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('no-cache');
    }
    const stale = await app.inject({
      method: 'GET',
      url: '/Contact',
      headers: { 'if-none-match': '"stale"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toContain('<title>Contact</title>');
  });

  it('never answers an unknown address 304, whatever it sends', async () => {
    const missing = await app.inject({ method: 'GET', url: '/nowhere', headers: { 'if-none-match': '*' } });
    expect(missing.statusCode).toBe(404);
  });
});
