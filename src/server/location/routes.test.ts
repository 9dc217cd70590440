import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';

/** Addresses the bundled geoip-country data maps to India and the United States (checked against it). */
const INDIAN_IP = '49.44.32.1';
const US_IP = '8.8.8.8';

describe('GET /api/get-location/ behind a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => t.close());

  const locate = async (headers: Record<string, string>) => {
    const client = await t.client();
    return client.get('/api/get-location/', headers);
  };

  it("answers IN and INR from Cloudflare's country header", async () => {
    const response = await locate({ 'cf-ipcountry': 'IN' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ country: 'IN', currency: 'INR' });
    expect(response.headers['cache-control']).toBe('private, max-age=3600');
  });

  it('answers USD for any other country in the header', async () => {
    expect((await locate({ 'cf-ipcountry': 'de' })).json()).toEqual({ country: 'DE', currency: 'USD' });
  });

  it("treats Cloudflare's unknown and Tor markers as an unknown country", async () => {
    for (const marker of ['XX', 'T1']) {
      const response = await locate({ 'cf-ipcountry': marker, 'x-forwarded-for': INDIAN_IP });
      expect(response.json()).toEqual({ country: 'OTHER', currency: 'USD' });
    }
  });

  it('ignores a malformed header and looks the forwarded address up instead', async () => {
    const response = await locate({ 'cf-ipcountry': 'India', 'x-forwarded-for': INDIAN_IP });
    expect(response.json()).toEqual({ country: 'IN', currency: 'INR' });
  });

  it('looks up the client address from X-Forwarded-For without the header', async () => {
    expect((await locate({ 'x-forwarded-for': INDIAN_IP })).json()).toEqual({
      country: 'IN',
      currency: 'INR',
    });
    expect((await locate({ 'x-forwarded-for': US_IP })).json()).toEqual({ country: 'US', currency: 'USD' });
  });

  it('answers OTHER and USD for loopback and private addresses', async () => {
    expect((await locate({})).json()).toEqual({ country: 'OTHER', currency: 'USD' });
    expect((await locate({ 'x-forwarded-for': '10.1.2.3' })).json()).toEqual({
      country: 'OTHER',
      currency: 'USD',
    });
  });

  it('also answers without the trailing slash', async () => {
    const client = await t.client();
    const response = await client.get('/api/get-location', { 'cf-ipcountry': 'IN' });
    expect(response.json()).toEqual({ country: 'IN', currency: 'INR' });
  });
});

describe('GET /api/get-location/ without a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('ignores the country header and the forwarded address a client sends', async () => {
    const client = await t.client();
    const response = await client.get('/api/get-location/', {
      'cf-ipcountry': 'IN',
      'x-forwarded-for': INDIAN_IP,
    });
    expect(response.json()).toEqual({ country: 'OTHER', currency: 'USD' });
  });

  it('looks up the socket address', async () => {
    const indian = await t.client({ ip: INDIAN_IP });
    expect((await indian.get('/api/get-location/')).json()).toEqual({ country: 'IN', currency: 'INR' });
    const american = await t.client({ ip: US_IP });
    expect((await american.get('/api/get-location/')).json()).toEqual({ country: 'US', currency: 'USD' });
    const local = await t.client({ ip: '127.0.0.1' });
    expect((await local.get('/api/get-location/')).json()).toEqual({ country: 'OTHER', currency: 'USD' });
  });
});
