/**
 * `npm run audit`: builds and starts the production server on the embedded database, then for each page prints the
 * Lighthouse mobile scores (performance, accessibility, best practices, SEO) with LCP, CLS and TBT, the JavaScript
 * and total transfer, the JavaScript size gzipped, and the axe violations; writes reports/audit.json; exits non-zero
 * when a budget is missed.
 *
 * `npm run audit -- --ci` checks only the budgets that do not depend on timing (scores for accessibility, best
 * practices and SEO, bundle sizes, axe, CLS); `npm test` runs it that way, after the browser journeys, whose
 * e2e/a11y.spec.ts has run axe at both widths on every signed-out page: there axe runs here on the signed-in pages
 * only, so each page is scanned once per run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import * as chromeLauncher from 'chrome-launcher';
import type { Flags, Result } from 'lighthouse';
import { type Browser, chromium } from 'playwright-core';
import { firstContentfulPaint } from '../e2e/support/paint';
import { orderPagePath } from '../src/shared/order-detail';
import { ensureBuilt, type ProductionServer, startProductionServer } from './support/prod-server';

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

type AuditedPage = {
  /** The page as the report names it. */
  path: string;
  loggedIn: boolean;
  /** Where the page is, when it is not `path` (the order page's address holds the seeded order's id). */
  at?: (server: ProductionServer) => string;
};

const PAGES: AuditedPage[] = [
  { path: '/', loggedIn: false },
  { path: '/Contact', loggedIn: false },
  { path: '/OurTeam', loggedIn: false },
  { path: '/PrivacyPolicy', loggedIn: false },
  { path: '/TermsAndConditions', loggedIn: false },
  { path: '/refund-policy', loggedIn: false },
  { path: '/shipping-policy', loggedIn: false },
  { path: '/utility-tools', loggedIn: false },
  { path: '/my-tools', loggedIn: true },
  { path: '/utility-tools/invalid-link', loggedIn: false },
  { path: '/account', loggedIn: true },
  {
    path: '/my-tools/orders/<paid order>',
    loggedIn: true,
    at: (server) => {
      if (!server.paidOrderId) throw new Error('the audit server has no paid order');
      return orderPagePath(server.paidOrderId);
    },
  },
  { path: '/api-reference', loggedIn: false },
];

/**
 * Lighthouse mobile (simulated slow 4G, 4× CPU), median of 3 runs a page (the run with the median performance score;
 * Total Blocking Time, the median of the three runs' own); first contentful paint measured without
 * throttling in headless Chromium (median of 5). `--ci` checks only what does not depend on timing: the scores for
 * accessibility, best practices and SEO, axe, CLS, the inline CSS, the home page's JavaScript and the JavaScript of
 * the pages with a budget of their own.
 */
const BUDGET = {
  performance: 99,
  lcpMs: 1500,
  tbtMs: 50,
  cls: 0.01,
  others: 100,
  fcpUnthrottledMs: 200,
  inlineCssKb: 30,
  homeJsGzipKb: 80,
  /**
   * JavaScript (KB gzip, every script the page loads in the run) of the pages that carry more than the home page
   * (decision 052): the shop's two pages, and the API reference, which draws the OpenAPI document with RapiDoc.
   * Editions, upgrades, renewals, offline activation and buying as a firm took the shop's pages to 95.1 and 96.1;
   * the route descriptions out of the entry and the small shared modules in one file brought them back (issue 69).
   */
  pageJsGzipKb: { '/utility-tools': 95, '/my-tools': 95, '/api-reference': 300 } as Record<string, number>,
  /**
   * The API reference is exempt from the performance score and TBT (decision 052): RapiDoc parsing and drawing the
   * OpenAPI document is one long task a reader waits for once; every other budget holds there.
   */
  timingExempt: ['/api-reference'],
  /** Pages whose Total Blocking Time is at most the home page's in the same run (full runs only). */
  tbtAtMostHome: ['/utility-tools', '/my-tools'],
  /**
   * How far apart two pages' median TBT may be and still count as equal: on a quiet machine the same page's median
   * moved by 1–11 ms between runs (home 1 and 7 ms, /my-tools 7 and 11, /utility-tools 5 and 0 on 28 November),
   * while the regression this check is for was 90–150 ms.
   */
  tbtNoiseMs: 10,
};
const LIGHTHOUSE_RUNS = ciMode ? 1 : 3;
/** `--pages=/,/Contact` measures only those pages (a quick check while working on one). */
const onlyPages = process.argv
  .find((arg) => arg.startsWith('--pages='))
  ?.slice('--pages='.length)
  .split(',');

type PageReport = {
  path: string;
  scores: { performance: number; accessibility: number; bestPractices: number; seo: number };
  fcpMs: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  jsTransferKb: number;
  jsGzipKb: number;
  inlineCssKb: number;
  fcpUnthrottledMs: number;
  totalTransferKb: number;
  axeViolations: string[];
  failedAudits: string[];
  /** The SEO audits the page fails. */
  seoFailures: string[];
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

/**
 * The session cookie as the server sets it, for the whole site (path `/`). Given a page's address, a browser scopes
 * a cookie to that address's folder: on an order page (`/my-tools/orders/<id>`) the API's auth check went without
 * it, and the audit measured the sign-in prompt replacing the page.
 */
function siteCookie(cookie: string, url: string) {
  const [name, value] = cookie.split('=') as [string, string];
  return { name, value, url: new URL('/', url).href };
}

/** Puts (or removes) the session cookie in the Lighthouse browser, as a signed-in visitor would have it. */
async function setSessionCookie(port: number, url: string, cookie: string | undefined) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('the Lighthouse browser has no default context');
    await context.clearCookies();
    if (cookie) {
      await context.addCookies([siteCookie(cookie, url)]);
    }
  } finally {
    await browser.close();
  }
}

/**
 * Why Lighthouse could not measure the page, if it could not: a run that failed as a whole, or an audit that failed
 * to run. A trace occasionally comes back without its navigation start (NO_NAVSTART), and then the audits that read
 * it (the doctype, the layout shift) error and their category scores nothing, which is no finding about the page.
 */
function unmeasured(lhr: {
  runtimeError?: { code: string };
  audits: Record<string, { id: string; scoreDisplayMode?: string; errorMessage?: string }>;
}): string | undefined {
  if (lhr.runtimeError) return lhr.runtimeError.code;
  const errored = Object.values(lhr.audits).find((audit) => audit.scoreDisplayMode === 'error');
  return errored && `${errored.id}: ${errored.errorMessage ?? 'error'}`;
}

/** A Chrome for Lighthouse and the worker thread that drives it (scripts/support/lighthouse-lane.mjs). */
type Lane = { chrome: chromeLauncher.LaunchedChrome; worker: Worker };
/** What a lane is asked to run. */
type LaneRequest = { url: string; flags: Flags };

/**
 * `--ci` measures no timing, so two lanes measure pages side by side: one Lighthouse run leaves a core of this
 * 2-core machine idle half the time. A full run keeps one, so no run's timings share the machine with another's.
 */
const LANES = ciMode ? 2 : 1;

async function openLane(): Promise<Lane> {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS });
  const worker = new Worker(new URL('./support/lighthouse-lane.mjs', import.meta.url));
  return { chrome, worker };
}

async function closeLane(lane: Lane): Promise<void> {
  await lane.worker.terminate();
  await lane.chrome.kill();
}

/** One Lighthouse run in the lane's worker. */
function lighthouseIn(lane: Lane, request: LaneRequest): Promise<Result> {
  return new Promise((resolve, reject) => {
    const answered = (answer: { lhr?: Result; error?: string }) => {
      lane.worker.off('error', failed);
      if (answer.lhr) resolve(answer.lhr);
      else reject(new Error(`lighthouse ${request.url}: ${answer.error ?? 'no result'}`));
    };
    const failed = (error: Error) => {
      lane.worker.off('message', answered);
      reject(error);
    };
    lane.worker.once('message', answered);
    lane.worker.once('error', failed);
    lane.worker.postMessage(request);
  });
}

async function lighthousePage(lane: Lane, url: string, cookie?: string): Promise<Result> {
  await setSessionCookie(lane.chrome.port, url, cookie);
  // A run that could not measure the page is run again (twice at most); the third's result stands, errors and all.
  for (let attempt = 1; ; attempt++) {
    const lhr = await lighthouseIn(lane, {
      url,
      flags: {
        port: lane.chrome.port,
        output: 'json',
        logLevel: 'error',
        // `--ci` budgets no timing, so it leaves out the performance score's simulated metrics; the layout shift
        // and the scripts loaded, which it does budget, are asked for by name.
        ...(ciMode
          ? {
              onlyCategories: ['accessibility', 'best-practices', 'seo'],
              onlyAudits: ['cumulative-layout-shift', 'network-requests', 'total-byte-weight'],
            }
          : { onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] }),
        // The live Razorpay script cannot load on an offline machine; block it instead of counting a network error.
        blockedUrlPatterns: ['*razorpay.com*'],
      },
    });
    const problem = unmeasured(lhr);
    if (!problem || attempt >= 3) return lhr;
    console.log(`lighthouse ${url}: ${problem}, running again`);
  }
}

/** Whether this run scans the page with axe: with `--ci`, a signed-out page's scan is e2e/a11y.spec.ts's. */
const axeHere = (page: { path: string }) =>
  !ciMode || PAGES.some((audited) => audited.path === page.path && audited.loggedIn);

/** axe's violations on the page at one width, in a fresh context (no cache, no cookies but the session's). */
async function axeViolations(
  browser: Browser,
  url: string,
  cookie: string | undefined,
  width: number,
): Promise<string[]> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  try {
    if (cookie) {
      await context.addCookies([siteCookie(cookie, url)]);
    }
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'networkidle' });
    const results = await new AxeBuilder({ page }).analyze();
    return results.violations.map((v) => `${width}px ${v.id}: ${v.help} (${v.nodes.length})`);
  } finally {
    await context.close();
  }
}

/** A figure for the table; one this run does not measure (the timings, with `--ci`) as n/a. */
const shown = (value: number) => (Number.isNaN(value) ? 'n/a' : value);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** First contentful paint in a fresh headless Chromium at a phone's size, no throttling: the median of 5 loads. */
async function unthrottledFcp(url: string, cookie: string | undefined): Promise<number> {
  const browser = await chromium.launch({ executablePath: chromePath, args: CHROME_FLAGS });
  try {
    const paints: number[] = [];
    for (let run = 0; run < 5; run++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      if (cookie) {
        await context.addCookies([siteCookie(cookie, url)]);
      }
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'load' });
      paints.push(await firstContentfulPaint(page));
      await context.close();
    }
    return Math.round(median(paints));
  } finally {
    await browser.close();
  }
}

/** The CSS a page carries inline, in KB, as served. */
async function inlineCssKb(url: string): Promise<number> {
  const html = await (await fetch(url)).text();
  const css = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].reduce(
    (sum, match) => sum + Buffer.byteLength(match[1] ?? ''),
    0,
  );
  return kb(css);
}

async function main() {
  ensureBuilt();
  // The signed-in customer has bought one tool: My Tools shows it, and its order page is measured.
  const server = await startProductionServer({ licenses: 0, paidOrder: true });
  const lanes = await Promise.all(Array.from({ length: LANES }, openLane));
  const axeBrowser = await chromium.launch({ executablePath: chromePath, args: CHROME_FLAGS });
  const targets = PAGES.filter((page) => !onlyPages || onlyPages.includes(page.path));
  /** In the pages' order, whichever lane measured each. */
  const reports: PageReport[] = [];

  async function measure(target: AuditedPage, lane: Lane): Promise<PageReport> {
    const url = `${server.url}${target.at?.(server) ?? target.path}`;
    const cookie = target.loggedIn ? server.sessionCookie : undefined;
    const runs: Result[] = [];
    for (let run = 0; run < LIGHTHOUSE_RUNS; run++) runs.push(await lighthousePage(lane, url, cookie));
    const byPerformance = (run: Result) => run.categories.performance?.score ?? 0;
    const lhr = runs.sort((a, b) => byPerformance(a) - byPerformance(b))[Math.floor(runs.length / 2)];
    if (!lhr) throw new Error(`no Lighthouse run for ${url}`);
    mkdirSync(path.join(root, 'reports/lighthouse'), { recursive: true });
    writeFileSync(
      path.join(root, 'reports/lighthouse', `${target.path.replace(/\W+/g, '_') || 'home'}.json`),
      JSON.stringify(lhr),
    );
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const items = ((lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)
      ?.items ?? []) as NetworkItem[];
    const scripts = items.filter((item) => item.resourceType === 'Script' && item.url.startsWith(server.url));
    const failedAudits = Object.values(lhr.audits)
      .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
      .map((audit) => audit.id);
    return {
      path: target.path,
      scores: {
        performance: ciMode ? Number.NaN : score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        seo: score('seo'),
      },
      fcpMs: Math.round(numeric('first-contentful-paint')),
      lcpMs: Math.round(numeric('largest-contentful-paint')),
      cls: Math.round(numeric('cumulative-layout-shift') * 1000) / 1000,
      // The median of the runs' TBT, not the TBT of the run picked above: that one is the median by score, every
      // run here scores 100, so it was whichever came second, and one slow first layout of the HTML (the same work
      // on every page, 25 ms one run and 40 the next) decided the page's figure.
      tbtMs: Math.round(
        median(runs.map((run) => run.audits['total-blocking-time']?.numericValue ?? Number.NaN)),
      ),
      jsTransferKb: kb(scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0)),
      jsGzipKb: kb(gzipSizeOf(scripts.map((item) => item.url))),
      inlineCssKb: await inlineCssKb(url),
      fcpUnthrottledMs: ciMode ? Number.NaN : await unthrottledFcp(url, cookie),
      totalTransferKb: kb(numeric('total-byte-weight')),
      axeViolations: axeHere(target)
        ? [
            ...(await axeViolations(axeBrowser, url, cookie, 390)),
            ...(await axeViolations(axeBrowser, url, cookie, 1440)),
          ]
        : [],
      failedAudits,
      seoFailures: (lhr.categories.seo?.auditRefs ?? [])
        .map((ref) => ref.id)
        .filter((id) => failedAudits.includes(id)),
    };
  }

  try {
    let next = 0;
    await Promise.all(
      lanes.map(async (lane) => {
        for (let index = next++; index < targets.length; index = next++) {
          reports[index] = await measure(targets[index] as AuditedPage, lane);
        }
      }),
    );
  } finally {
    await axeBrowser.close();
    await Promise.all(lanes.map(closeLane));
    await server.stop();
  }

  console.table(
    reports.map((r) => ({
      page: r.path,
      perf: shown(r.scores.performance),
      a11y: r.scores.accessibility,
      'best pr.': r.scores.bestPractices,
      seo: r.scores.seo,
      'FCP ms': shown(r.fcpMs),
      'LCP ms': shown(r.lcpMs),
      CLS: r.cls,
      'TBT ms': shown(r.tbtMs),
      'JS KB (br)': r.jsTransferKb,
      'JS KB gzip': r.jsGzipKb,
      'CSS KB inline': r.inlineCssKb,
      'FCP ms unthrottled': shown(r.fcpUnthrottledMs),
      'total KB': r.totalTransferKb,
      axe: axeHere(r) ? r.axeViolations.length : 'journeys',
    })),
  );

  const misses: string[] = [];
  for (const r of reports) {
    const timed = !ciMode && !BUDGET.timingExempt.includes(r.path);
    if (timed && r.scores.performance < BUDGET.performance)
      misses.push(`${r.path}: performance ${r.scores.performance}`);
    if (!ciMode && r.lcpMs > BUDGET.lcpMs) misses.push(`${r.path}: LCP ${r.lcpMs} ms`);
    if (timed && r.tbtMs > BUDGET.tbtMs) misses.push(`${r.path}: TBT ${r.tbtMs} ms`);
    if (!ciMode && r.fcpUnthrottledMs > BUDGET.fcpUnthrottledMs)
      misses.push(`${r.path}: unthrottled FCP ${r.fcpUnthrottledMs} ms`);
    if (r.inlineCssKb > BUDGET.inlineCssKb) misses.push(`${r.path}: inline CSS ${r.inlineCssKb} KB`);
    for (const [name, value] of [
      ['accessibility', r.scores.accessibility],
      ['best practices', r.scores.bestPractices],
    ] as const) {
      if (value < BUDGET.others) misses.push(`${r.path}: ${name} ${value}`);
    }
    if (r.scores.seo < BUDGET.others)
      misses.push(`${r.path}: SEO ${r.scores.seo} (${r.seoFailures.join(', ')})`);
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
  for (const r of reports) {
    const budget = BUDGET.pageJsGzipKb[r.path];
    if (budget !== undefined && r.jsGzipKb > budget)
      misses.push(`${r.path}: JavaScript ${r.jsGzipKb} KB gzip (budget ${budget})`);
  }
  // The shop's pages block the main thread no longer than the home page in the same run (issue 56, decision 052),
  // give or take the few milliseconds by which a page's median TBT moves from run to run.
  for (const r of reports.filter((r) => BUDGET.tbtAtMostHome.includes(r.path))) {
    if (!ciMode && home && r.tbtMs > home.tbtMs + BUDGET.tbtNoiseMs)
      misses.push(`${r.path}: TBT ${r.tbtMs} ms, the home page's ${home.tbtMs} ms in this run`);
  }

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
