import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/support/app';
import { testAppForFile } from '../../../test/support/file-apps';
import { registerSecurityHeaders } from './security-headers';

const t = testAppForFile();

describe('CSRF protection', () => {
  it('issues a csrftoken cookie readable by scripts', async () => {
    const client = await t.client();
    expect(client.csrfToken).toMatch(/^[\w-]{43}$/);
    const response = await client.get('/api/csrf-token/');
    expect(response.json()).toEqual({ csrfToken: client.csrfToken });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('refuses an unsafe API request without the X-CSRFToken header', async () => {
    const client = await t.client();
    client.sendCsrfHeader = false;
    const response = await client.post('/api/contact', { name: 'A' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'csrf_failed' });
  });

  it('refuses a header that does not match the cookie', async () => {
    const client = await t.client();
    const response = await client.post('/api/contact', {}, { 'x-csrftoken': 'x'.repeat(43) });
    expect(response.statusCode).toBe(403);
  });

  it('refuses a cross-site origin even with a matching token', async () => {
    const client = await t.client();
    const response = await client.post('/api/contact', {}, { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    const fetchSite = await client.post('/api/contact', {}, { 'sec-fetch-site': 'cross-site' });
    expect(fetchSite.statusCode).toBe(403);
  });

  it('sets the security headers on every response', async () => {
    const client = await t.client();
    const response = await client.get('/api/csrf-token/');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['content-security-policy']).not.toContain("script-src 'self' 'unsafe-inline'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['x-frame-options']).toBe('DENY');
  });

  it('gives JSON answers a policy that loads nothing, and other responses the site’s policy', async () => {
    const app = Fastify();
    registerSecurityHeaders(app, testConfig());
    app.get('/json', async () => ({ ok: true }));
    app.get('/page', async (_request, reply) => reply.type('text/html; charset=utf-8').send('<p>Hi</p>'));
    const json = await app.inject({ method: 'GET', url: '/json' });
    expect(json.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(json.headers['x-content-type-options']).toBe('nosniff');
    expect(json.headers['permissions-policy']).toBeUndefined();
    const page = await app.inject({ method: 'GET', url: '/page' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['permissions-policy']).toContain('camera=()');
    await app.close();
  });

  it('gives the update feeds (XML, and Squirrel’s RELEASES text) the closed policy too: a browser opening one runs nothing', async () => {
    const app = Fastify();
    registerSecurityHeaders(app, testConfig());
    app.get('/appcast.xml', async (_request, reply) =>
      reply.type('application/rss+xml; charset=utf-8').send('<rss version="2.0"/>'),
    );
    app.get('/RELEASES', async (_request, reply) => reply.type('text/plain; charset=utf-8').send('x'));
    for (const url of ['/appcast.xml', '/RELEASES']) {
      const answer = await app.inject({ method: 'GET', url });
      expect(answer.headers['content-security-policy'], url).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(answer.headers['x-content-type-options'], url).toBe('nosniff');
      expect(answer.headers['x-frame-options'], url).toBe('DENY');
      expect(answer.headers['permissions-policy'], url).toBeUndefined();
    }
    await app.close();
  });

  it('leaves them off a 304, which keeps those of the answer the client holds (RFC 9110 §15.4.5)', async () => {
    const app = Fastify();
    registerSecurityHeaders(app, testConfig());
    app.get('/page', async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('etag', '"v1"').header('cache-control', 'no-cache');
      return request.headers['if-none-match'] === '"v1"' ? reply.status(304).send() : '<p>Hi</p>';
    });
    const whole = await app.inject({ method: 'GET', url: '/page' });
    expect(whole.headers['content-security-policy']).toContain("default-src 'self'");
    const unchanged = await app.inject({ method: 'GET', url: '/page', headers: { 'if-none-match': '"v1"' } });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.headers.etag).toBe('"v1"');
    expect(unchanged.headers['cache-control']).toBe('no-cache');
    expect(unchanged.headers['content-security-policy']).toBeUndefined();
    expect(unchanged.headers['permissions-policy']).toBeUndefined();
    await app.close();
  });
});
