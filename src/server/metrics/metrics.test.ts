import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licenseApiOverHttp } from '../../../test/support/license-fixtures';
import {
  addTool,
  buyThroughEmulator,
  createShopTestApp,
  eventually,
  newBuyer,
  type ShopTestApp,
} from '../../../test/support/shop-fixtures';
import type { MyLicense } from '../../shared/licenses';
import { startJobs } from '../jobs';

/**
 * `GET /metrics` on a real listening app, scraped over HTTP as Prometheus does: only with the token, and the
 * figures move as requests, an order, a license check, mail and background jobs happen.
 */

const TOKEN = 'metrics-token-for-the-test-0123';

/** One sample's value from Prometheus' text format: the line of `name` whose labels include every one given. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(/,(?=[a-zA-Z_]\w*=")/);
    if (wanted.every((label) => present.includes(label))) return Number(match[3]);
  }
  return undefined;
}

describe('GET /metrics', () => {
  let t: ShopTestApp;

  beforeAll(async () => {
    t = await createShopTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });

  afterAll(async () => {
    await t?.close();
  });

  const scrape = (authorization?: string) =>
    fetch(`${t.baseUrl}/metrics`, { headers: authorization ? { authorization } : {} });

  async function figures(): Promise<string> {
    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    return response.text();
  }

  it('answers 401 without the token or with a wrong one, and shows no figures', async () => {
    for (const authorization of [undefined, 'Bearer not-the-metrics-token-at-all', TOKEN, `Basic ${TOKEN}`]) {
      const response = await scrape(authorization);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      const body = await response.text();
      expect(body).not.toMatch(/http_request_duration|shop_orders|_total|# HELP|# TYPE/);
    }
  });

  it('serves the Prometheus text format with the token, process figures included', async () => {
    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \S+$/m);
    expect(sample(text, 'mail_outbox_messages', { status: 'pending' })).toBe(0);
    // PGlite has no pool; PostgreSQL's is reported by state.
    if (t.database.driver === 'postgres')
      expect(sample(text, 'db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    else expect(text).not.toContain('db_pool_connections');
  });

  it('lints clean with promtool check metrics (Debian package prometheus), after requests gave it every series', async () => {
    const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
    if (promtool.error) {
      throw new Error(
        "promtool is not installed: install Debian's prometheus package (apt-get install prometheus), as .ci/run does.",
      );
    }
    // Requests first, so the histograms and counters have series to lint.
    await fetch(`${t.baseUrl}/api/alltools/`);
    await fetch(`${t.baseUrl}/api/no-such-route`);
    const text = await figures();
    expect(text).not.toMatch(/^nodejs_active_(handles|requests|resources)_total /m);
    expect(text).toMatch(/^# TYPE nodejs_active_handles gauge$/m);
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(`${lint.stdout}${lint.stderr}`.trim()).toBe('');
    expect(lint.status).toBe(0);
  });

  it('counts requests by route pattern, orders paid, license answers and queued mail', async () => {
    const catalogue = { method: 'GET', route: '/api/alltools/', status: '200' };
    const before = await figures();
    const requestsBefore = sample(before, 'http_request_duration_seconds_count', catalogue) ?? 0;

    for (let i = 0; i < 3; i++) expect((await fetch(`${t.baseUrl}/api/alltools/`)).status).toBe(200);
    const tool = await addTool(t, { name: 'Metered Helper' });
    const { client } = await newBuyer(t);
    await buyThroughEmulator(t, client, tool.id);
    const [license] = (await client.get('/api/my-licenses/')).json<MyLicense[]>();
    const check = { licenseKey: license?.licenseKey, toolId: tool.id, fingerprint: 'metrics-machine-0001' };
    await licenseApiOverHttp(t.baseUrl, 'activate', check);
    const validated = await licenseApiOverHttp(t.baseUrl, 'validate', check);
    expect(await validated.json()).toMatchObject({ valid: true, code: 'VALID' });
    const unknown = await licenseApiOverHttp(t.baseUrl, 'validate', {
      ...check,
      licenseKey: 'NOT-A-KEY-0000',
    });
    const unknownCode = ((await unknown.json()) as { code: string }).code;

    const after = await figures();
    expect(sample(after, 'http_request_duration_seconds_count', catalogue)).toBe(requestsBefore + 3);
    // The pattern, never the raw URL: no order or license id becomes a label.
    expect(after).not.toContain(license?.licenseKey as string);
    expect(sample(after, 'shop_orders_total', { event: 'paid', currency: 'INR' })).toBe(1);
    expect(sample(after, 'license_api_answers_total', { operation: 'activate', code: 'VALID' })).toBe(1);
    expect(sample(after, 'license_api_answers_total', { operation: 'validate', code: 'VALID' })).toBe(1);
    expect(sample(after, 'license_api_answers_total', { operation: 'validate', code: unknownCode })).toBe(1);
    // The purchase queued its delivery mail; no worker runs in this app, so it waits in the outbox.
    expect(sample(after, 'mail_outbox_messages', { status: 'pending' })).toBeGreaterThanOrEqual(1);
  });

  it('counts background job runs that end well and those that fail', async () => {
    const jobs = startJobs(
      [
        { name: 'probe', intervalMs: 60_000, run: async () => {} },
        { name: 'broken', intervalMs: 60_000, run: async () => Promise.reject(new Error('out of order')) },
      ],
      { error: () => {} },
      undefined,
      t.ctx.metrics,
    );
    try {
      const text = await eventually(async () => {
        const scraped = await figures();
        return sample(scraped, 'background_job_runs_total', { job: 'broken', outcome: 'failed' })
          ? scraped
          : undefined;
      });
      expect(sample(text, 'background_job_runs_total', { job: 'probe', outcome: 'ok' })).toBe(1);
      expect(sample(text, 'background_job_runs_total', { job: 'broken', outcome: 'failed' })).toBe(1);
    } finally {
      await jobs.stop();
    }
  });
});

describe('without METRICS_TOKEN', () => {
  it('has no /metrics route at all', async () => {
    const t = await createShopTestApp();
    try {
      const response = await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('# HELP');
    } finally {
      await t.close();
    }
  });
});
