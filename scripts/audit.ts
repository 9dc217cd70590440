/**
 * `npm run audit`: builds and starts the production server on the embedded database, then for each page prints the
 * Lighthouse mobile scores (performance, accessibility, best practices, SEO) with LCP, CLS and TBT, the JavaScript
 * and total transfer, the JavaScript size gzipped, and the axe violations; writes reports/audit.json; exits non-zero
 * when a budget is missed.
 *
 * `npm run audit -- --ci` checks only the budgets that do not depend on timing (scores for accessibility, best
 * practices and SEO, bundle sizes, axe, CLS); `npm test` runs it that way.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { ensureBuilt, startProductionServer } from './support/prod-server';

const root = path.resolve(import.meta.dirname, '..');
const ciMode = process.argv.includes('--ci');
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const PAGES = [
  { path: '/', loggedIn: false },
  { path: '/Contact', loggedIn: false },
  { path: '/OurTeam', loggedIn: false },
  { path: '/refund-policy', loggedIn: false },
  { path: '/shipping-policy', loggedIn: false },
  { path: '/utility-tools', loggedIn: false },
  { path: '/my-tools', loggedIn: true },
];

// Home JavaScript: 99.8 KB gzip, as before the dashboard (docs/performance.md says how it stays out of the public
// pages' chunks). The gate stops growth beyond that; issue 15 aims at 80 KB.
const BUDGET = { performance: 95, others: 100, cls: 0.02, tbtMs: 100, homeJsGzipKb: 100 };

type PageReport = {
  path: string;
  scores: { performance: number; accessibility: number; bestPractices: number; seo: number };
  lcpMs: number;
  cls: number;
  tbtMs: number;
  jsTransferKb: number;
  jsGzipKb: number;
  totalTransferKb: number;
  axeViolations: string[];
  failedAudits: string[];
};

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** Gzipped size of the built files behind the page's script URLs (what a gzip-only client would download). */
function gzipSizeOf(urls: string[]): number {
  let total = 0;
  for (const url of urls) {
    const file = path.join(root, 'dist/client', new URL(url).pathname);
    if (existsSync(file)) total += gzipSync(readFileSync(file), { level: 9 }).length;
  }
  return total;
}

type NetworkItem = { url: string; resourceType?: string; transferSize?: number };

/** Puts (or removes) the session cookie in the Lighthouse browser, as a signed-in visitor would have it. */
async function setSessionCookie(port: number, url: string, cookie: string | undefined) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('the Lighthouse browser has no default context');
    await context.clearCookies();
    if (cookie) {
      const [name, value] = cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url }]);
    }
  } finally {
    await browser.close();
  }
}

async function lighthousePage(port: number, url: string, cookie?: string) {
  await setSessionCookie(port, url, cookie);
  // A trace occasionally comes back without its navigation start (NO_NAVSTART); one more run settles it.
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      // The live Razorpay script cannot load on an offline machine; block it instead of counting a network error.
      blockedUrlPatterns: ['*razorpay.com*'],
    });
    if (!result) throw new Error(`lighthouse returned nothing for ${url}`);
    if (!result.lhr.runtimeError || attempt >= 3) return result.lhr;
    console.log(`lighthouse ${url}: ${result.lhr.runtimeError.code}, running again`);
  }
}

async function axeViolations(url: string, cookie: string | undefined, width: number): Promise<string[]> {
  const browser = await chromium.launch({ executablePath: chromePath, args: CHROME_FLAGS });
  try {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    if (cookie) {
      const [name, value] = cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url }]);
    }
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'networkidle' });
    const results = await new AxeBuilder({ page }).analyze();
    return results.violations.map((v) => `${width}px ${v.id}: ${v.help} (${v.nodes.length})`);
  } finally {
    await browser.close();
  }
}

async function main() {
  ensureBuilt();
  const server = await startProductionServer();
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
  const reports: PageReport[] = [];
  try {
    for (const target of PAGES) {
      const url = `${server.url}${target.path}`;
      const cookie = target.loggedIn ? server.sessionCookie : undefined;
      const lhr = await lighthousePage(chrome.port, url, cookie);
      mkdirSync(path.join(root, 'reports/lighthouse'), { recursive: true });
      writeFileSync(
        path.join(root, 'reports/lighthouse', `${target.path.replace(/\W+/g, '_') || 'home'}.json`),
        JSON.stringify(lhr),
      );
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      const items = ((lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)
        ?.items ?? []) as NetworkItem[];
      const scripts = items.filter(
        (item) => item.resourceType === 'Script' && item.url.startsWith(server.url),
      );
      const failedAudits = Object.values(lhr.audits)
        .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
        .map((audit) => audit.id);
      reports.push({
        path: target.path,
        scores: {
          performance: score('performance'),
          accessibility: score('accessibility'),
          bestPractices: score('best-practices'),
          seo: score('seo'),
        },
        lcpMs: Math.round(numeric('largest-contentful-paint')),
        cls: Math.round(numeric('cumulative-layout-shift') * 1000) / 1000,
        tbtMs: Math.round(numeric('total-blocking-time')),
        jsTransferKb: kb(scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0)),
        jsGzipKb: kb(gzipSizeOf(scripts.map((item) => item.url))),
        totalTransferKb: kb(numeric('total-byte-weight')),
        axeViolations: [
          ...(await axeViolations(url, cookie, 390)),
          ...(await axeViolations(url, cookie, 1440)),
        ],
        failedAudits,
      });
    }
  } finally {
    await chrome.kill();
    await server.stop();
  }

  console.table(
    reports.map((r) => ({
      page: r.path,
      perf: r.scores.performance,
      a11y: r.scores.accessibility,
      'best pr.': r.scores.bestPractices,
      seo: r.scores.seo,
      'LCP ms': r.lcpMs,
      CLS: r.cls,
      'TBT ms': r.tbtMs,
      'JS KB (br)': r.jsTransferKb,
      'JS KB gzip': r.jsGzipKb,
      'total KB': r.totalTransferKb,
      axe: r.axeViolations.length,
    })),
  );

  const misses: string[] = [];
  for (const r of reports) {
    if (!ciMode && r.scores.performance < BUDGET.performance)
      misses.push(`${r.path}: performance ${r.scores.performance}`);
    if (!ciMode && r.tbtMs > BUDGET.tbtMs) misses.push(`${r.path}: TBT ${r.tbtMs} ms`);
    for (const [name, value] of [
      ['accessibility', r.scores.accessibility],
      ['best practices', r.scores.bestPractices],
      ['SEO', r.scores.seo],
    ] as const) {
      if (value < BUDGET.others) misses.push(`${r.path}: ${name} ${value}`);
    }
    if (r.cls > BUDGET.cls) misses.push(`${r.path}: CLS ${r.cls}`);
    for (const violation of r.axeViolations) misses.push(`${r.path}: axe ${violation}`);
    if (
      r.failedAudits.length > 0 &&
      (r.scores.accessibility < 100 || r.scores.seo < 100 || r.scores.bestPractices < 100)
    ) {
      console.log(`${r.path} failing audits: ${r.failedAudits.join(', ')}`);
    }
  }
  const home = reports.find((r) => r.path === '/');
  if (home && home.jsGzipKb > BUDGET.homeJsGzipKb) misses.push(`/: JavaScript ${home.jsGzipKb} KB gzip`);

  mkdirSync(path.join(root, 'reports'), { recursive: true });
  writeFileSync(
    path.join(root, 'reports/audit.json'),
    JSON.stringify(
      { at: new Date().toISOString(), mode: ciMode ? 'ci' : 'full', budget: BUDGET, reports, misses },
      null,
      2,
    ),
  );
  if (misses.length > 0) {
    console.log(`\nBudget missed:\n${misses.map((m) => `  - ${m}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`\nAll ${ciMode ? 'non-timing ' : ''}budgets met.`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
