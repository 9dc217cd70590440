/**
 * `npm run bench`: the API's throughput against the framework's own floor, and its budgets (docs/performance.md).
 *
 * Starts the production server (the built JavaScript, NODE_ENV=production) and the floor, a one-route Fastify app
 * in a process of its own (scripts/support/floor-server.ts). Each route is loaded with 100 connections in four
 * turns alternating with the floor, which is sent the same requests (same method, headers and body), so both see
 * the machine as it is in the same seconds (decision 028). Three rounds of every route; a route's figures are the
 * medians of its rounds: its answers/s as a share of the floor's, its p99 (over every answer of the round's turns but
 * each connection's first, which times the load generator's start, decision 039), and the server's CPU time per
 * answer.
 * Runs on PGlite (measured once the new database's first daily snapshot is written), and again on PostgreSQL when
 * BENCH_DATABASE_URL (or DATABASE_URL) is set. BENCH_SERVER_NODE_OPTIONS is the measured server's NODE_OPTIONS
 * (e.g. `--max-semi-space-size=64`, README's production tuning); unset, it runs with none, as production's default.
 *
 * The floor answers an API route with a constant the size of a license file, and a page route with that page's own
 * built bytes, compressed as the app sends them (scripts/support/floor-server.ts), so each share compares like with
 * like.
 *
 * Budgets, each measured against the floor in the same turns, never in absolute milliseconds (decision 048): validate
 * and the anonymous catalogue at least 0.5 of the floor's answers/s, `GET /` and `GET /utility-tools` at least 0.6,
 * `GET /` revalidated with its ETag (304) at least 0.8; every budgeted route's p99 at most twice the floor's; no
 * errors or non-2xx answers (a 304 counts as an answer). Exits 1 when one is missed. Every turn's raw figures go to
 * reports/bench.json.
 *
 * `npm run bench -- --only validate` measures only the routes whose name holds that text (while working on one).
 *
 * `npm run bench -- --scale` measures instead the reads that grow with the data, on a large seeded shop
 * (scripts/bench-scale.ts).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { type ReleaseDay, releaseDayRoutes, releaseDaySeed } from './bench-release-day';
import { forwardedFor, type Load, type Route } from './support/bench-route';
import { ensureBuilt, type ProductionServer, startProductionServer } from './support/prod-server';

/** getconf CLK_TCK: the unit of /proc/PID/stat's CPU times on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const WARM_UP_S = 2;
const CONNECTIONS = 100;
const ROUNDS = 3;
/** Turns per measurement: the route and the floor alternate, each this often, a `TURNS`th of the duration each. */
const TURNS = 4;
/** A budgeted route's p99 may be at most this many times the floor's p99 in the same turns. */
const P99_TO_FLOOR = 2;
const root = path.resolve(import.meta.dirname, '..');

/** One stretch of load on one process: what autocannon counted, and the CPU time the process used meanwhile. */
type Sample = {
  requests: number;
  seconds: number;
  /** The latency in ms of every answer but each connection's first, as autocannon timed it. */
  latencies: number[];
  /** Each connection's first answer's latency in ms: the load generator's start, not the server (decision 039). */
  firstAnswers: number[];
  /** Answers with another status than the route's (200, or 304 for a revalidated page). */
  unexpected: number;
  /** How many of those answers each status had: what went wrong, in the report. */
  unexpectedStatuses: Record<number, number>;
  errors: number;
  cpuUs: number;
};

/** A route's or the floor's figures over the turns of one measurement. */
type Figures = {
  answersPerSec: number;
  /** The p99 of every answer of its turns but each connection's first (decision 039), in ms. */
  p99: number;
  /** The same with each connection's first answer counted, in ms: what the bench reported before decision 039. */
  p99WithFirstAnswers: number;
  /** The worst of its turns' own p99s, in ms: the spread between turns, which the host's noise moves. */
  worstTurnP99: number;
  /** The server's CPU time (all its threads) per answer, in µs. */
  cpuUs: number;
  unexpected: number;
  unexpectedStatuses: Record<number, number>;
  errors: number;
};

type Round = { route: Figures; floor: Figures; share: number };

type Target = { url: string; pid: number };

/** CPU time a process has used so far (user and system, all threads), in µs. */
function cpuTimeUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function sample(target: Target, options: autocannon.Options, expectedStatus = 200): Promise<Sample> {
  const cpuBefore = cpuTimeUs(target.pid);
  let unexpected = 0;
  const unexpectedStatuses: Record<number, number> = {};
  const latencies: number[] = [];
  const firstAnswers: number[] = [];
  const answered = new WeakSet<object>();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { connections: CONNECTIONS, duration: DURATION_S, ...options },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    // autocannon times a connection's first request from before the connection exists: it writes it as it creates
    // each client, and creates all of them (each building its requests) before any connects (decision 039).
    instance.on('response', (client, status, _bytes, ms) => {
      if (status !== expectedStatus) {
        unexpected += 1;
        unexpectedStatuses[status] = (unexpectedStatuses[status] ?? 0) + 1;
      }
      if (answered.has(client)) latencies.push(ms);
      else {
        answered.add(client);
        firstAnswers.push(ms);
      }
    });
  });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    latencies,
    firstAnswers,
    unexpected,
    unexpectedStatuses,
    errors: result.errors + result.timeouts,
    cpuUs: cpuTimeUs(target.pid) - cpuBefore,
  };
}

/** The value below which `share` of `values` fall (nearest rank), rounded up to the ms. */
function percentile(values: number[], share: number): number {
  const sorted = Float64Array.from(values).sort();
  return Math.ceil(sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN);
}

function figuresOf(samples: Sample[]): Figures {
  const sum = (field: Exclude<keyof Sample, 'latencies' | 'firstAnswers' | 'unexpectedStatuses'>) =>
    samples.reduce((total, each) => total + each[field], 0);
  return {
    answersPerSec: Math.round(sum('requests') / sum('seconds')),
    p99: percentile(
      samples.flatMap((each) => each.latencies),
      0.99,
    ),
    p99WithFirstAnswers: percentile(
      samples.flatMap((each) => [...each.latencies, ...each.firstAnswers]),
      0.99,
    ),
    worstTurnP99: Math.max(...samples.map((each) => percentile(each.latencies, 0.99))),
    cpuUs: Math.round(sum('cpuUs') / Math.max(1, sum('requests'))),
    unexpected: sum('unexpected'),
    unexpectedStatuses: tally(samples.map((each) => each.unexpectedStatuses)),
    errors: sum('errors'),
  };
}

/** The counts of each status, added up over `counts`. */
function tally(counts: Record<number, number>[]): Record<number, number> {
  const total: Record<number, number> = {};
  for (const each of counts)
    for (const [status, count] of Object.entries(each))
      total[Number(status)] = (total[Number(status)] ?? 0) + count;
  return total;
}

/** The floor in a process of its own, as the app runs. */
async function startFloor(): Promise<Target & { close(): void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts/support/floor-server.ts'), path.join(root, 'dist/client')],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the floor exited (${code})`)));
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid ?? 0, close: () => child.kill() };
}

/** A route and the floor, sent the same requests in alternating turns. */
async function measureInTurns(server: Target, floor: Target, route: Route, load: Load): Promise<Round> {
  const duration = DURATION_S / TURNS;
  const routeSamples: Sample[] = [];
  const floorSamples: Sample[] = [];
  for (let turn = 0; turn < TURNS; turn += 1) {
    floorSamples.push(
      await sample(floor, { ...load, url: `${floor.url}${route.floorPath}`, duration }, route.expectedStatus),
    );
    routeSamples.push(
      await sample(server, { ...load, url: `${server.url}${route.path}`, duration }, route.expectedStatus),
    );
  }
  const routeFigures = figuresOf(routeSamples);
  const floorFigures = figuresOf(floorSamples);
  return {
    route: routeFigures,
    floor: floorFigures,
    share: routeFigures.answersPerSec / floorFigures.answersPerSec,
  };
}

/**
 * POST /api/licenses/validate as a fleet of tools starting again sends it. Each round has its own third of the
 * prepared licenses, so no key passes its 60 a minute (docs/license-api.md) below 24,000 answers/s; each connection
 * is one slice of that fleet, each license asking from its machine's own address. The requests are built into bytes
 * once, before the run: rebuilding one per request cost the load generator, which shares the machine's cores with
 * the server (decision 026).
 */
function validateRoute(server: ProductionServer): Route {
  const perRound = Math.floor(server.licenses.length / ROUNDS);
  const perConnection = Math.max(1, Math.floor(perRound / CONNECTIONS));
  const requestsOf = (round: number, slice: number): autocannon.Request[] => {
    const first = round * perRound + slice * perConnection;
    return server.licenses.slice(first, first + perConnection).map((license, offset) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor(first + offset) },
      body: JSON.stringify(license),
    }));
  };
  const load = (round: number): Load => {
    let connection = 0;
    return {
      method: 'POST',
      setupClient: (client) => {
        client.setRequests(requestsOf(round, connection % CONNECTIONS));
        connection += 1;
      },
    };
  };
  return {
    name: 'POST /api/licenses/validate',
    path: '/api/licenses/validate',
    floorPath: '/',
    minShare: 0.5,
    load,
    // Measured as tools that start again find it, not as the first call after a deploy (which looks the license
    // up once): every machine of the round's fleet has started once before.
    async prepare(round) {
      await autocannon({
        ...load(round),
        url: `${server.url}/api/licenses/validate`,
        connections: CONNECTIONS,
        amount: perConnection * CONNECTIONS,
      });
    },
  };
}

/** `--only <text>`: the routes whose name holds it; all of them without the flag. */
const onlyRoutes = process.argv.includes('--only')
  ? (process.argv[process.argv.indexOf('--only') + 1] ?? '')
  : undefined;

/** The ETag the server sends with a page: what a browser that has it sends back as If-None-Match. */
async function etagOf(url: string): Promise<string> {
  const response = await fetch(url, { headers: { 'accept-encoding': 'br' } });
  const etag = response.headers.get('etag');
  if (!response.ok || !etag) throw new Error(`${url} answered ${response.status} without an ETag`);
  return etag;
}

async function routesOf(server: ProductionServer): Promise<Route[]> {
  const api = (
    name: string,
    routePath: string,
    headers: Record<string, string>,
    minShare?: number,
  ): Route => ({
    name,
    path: routePath,
    floorPath: '/',
    minShare,
    load: (): Load => ({ headers }),
  });
  // A browser's request for a page: Brotli accepted, as every browser the site supports sends it.
  const page = (
    name: string,
    routePath: string,
    minShare: number,
    headers: Record<string, string> = {},
  ): Route => ({
    name,
    path: routePath,
    floorPath: `/page${routePath}`,
    minShare,
    load: (): Load => ({ headers: { 'accept-encoding': 'br, gzip', ...headers } }),
  });
  const homeEtag = await etagOf(`${server.url}/`);
  return [
    validateRoute(server),
    api('GET /api/alltools/ (anonymous)', '/api/alltools/', {}, 0.5),
    api('GET /api/alltools/ (logged in)', '/api/alltools/', { cookie: server.sessionCookie }),
    api('GET /api/auth/check/', '/api/auth/check/', { cookie: server.sessionCookie }),
    page('GET / (prerendered HTML)', '/', 0.6),
    {
      ...page('GET / with If-None-Match (304)', '/', 0.8, { 'if-none-match': homeEtag }),
      expectedStatus: 304,
    },
    page('GET /utility-tools (prerendered HTML)', '/utility-tools', 0.6),
  ];
}

type RouteResult = { name: string; minShare?: number; rounds: Round[] };

/** `--release-day`: the feeds and update check of a fleet of 100,000 machines (scripts/bench-release-day.ts). */
const releaseDay = process.argv.includes('--release-day');

async function benchDatabase(databaseUrl: string | undefined) {
  const day: ReleaseDay = { fleet: [], packageIds: new Map() };
  const server = await startProductionServer(
    releaseDay ? { databaseUrl, licenses: 0, seed: releaseDaySeed(day) } : { databaseUrl },
  );
  if (releaseDay) console.log(`${server.driver}: the server answers`);
  const floor = await startFloor();
  try {
    const routes = (releaseDay ? releaseDayRoutes(server, day) : await routesOf(server)).filter(
      (route) => onlyRoutes === undefined || route.name.includes(onlyRoutes),
    );
    const results: RouteResult[] = routes.map(({ name, minShare }) => ({ name, minShare, rounds: [] }));
    // The warm-up sends what the last round will send, minutes before it: warmed up with the first round's fleet,
    // validate's keys got the warm-up's calls and the first round's in one minute's window, past their 60 on a
    // machine answering 22,000 a second (1,059 answers of 429 in a first round on 28 November).
    const warmUpRound = ROUNDS - 1;
    for (const route of routes) {
      // First hits fill caches and compile the paths, on both sides.
      const load = route.load(warmUpRound);
      await sample(floor, { ...load, url: `${floor.url}${route.floorPath}`, duration: WARM_UP_S });
      await route.prepare?.(warmUpRound);
      await sample(server, { ...load, url: `${server.url}${route.path}`, duration: WARM_UP_S });
    }
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [index, route] of routes.entries()) {
        if (round !== warmUpRound) await route.prepare?.(round);
        const measured = await measureInTurns(server, floor, route, route.load(round));
        results[index]?.rounds.push(measured);
        console.log(
          `${server.driver} round ${round + 1}: ${route.name} ${measured.route.answersPerSec}/s, floor ${measured.floor.answersPerSec}/s (${measured.share.toFixed(3)}), p99 ${measured.route.p99} ms (${measured.route.p99WithFirstAnswers} with first answers), ${measured.route.cpuUs} µs/answer`,
        );
      }
    }
    return { driver: server.driver, results, rssMb: rssMb(server.pid) };
  } finally {
    floor.close();
    await server.stop();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

function summary(result: RouteResult) {
  const of = (pick: (round: Round) => number) => median(result.rounds.map(pick));
  return {
    share: of((round) => round.share),
    answersPerSec: of((round) => round.route.answersPerSec),
    floorPerSec: of((round) => round.floor.answersPerSec),
    p99: of((round) => round.route.p99),
    p99WithFirstAnswers: of((round) => round.route.p99WithFirstAnswers),
    worstTurnP99: of((round) => round.route.worstTurnP99),
    floorP99: of((round) => round.floor.p99),
    cpuUs: of((round) => round.route.cpuUs),
    floorCpuUs: of((round) => round.floor.cpuUs),
    failures: result.rounds.reduce((total, round) => total + round.route.unexpected + round.route.errors, 0),
  };
}

async function main() {
  if (process.argv.includes('--scale')) {
    // The reads that grow with the data, on a large seeded shop (scripts/bench-scale.ts).
    const { benchScale } = await import('./bench-scale');
    process.exit(await benchScale(process.argv.slice(2)));
  }
  ensureBuilt();
  const databaseUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  const runs = [await benchDatabase(undefined)];
  if (databaseUrl) runs.push(await benchDatabase(databaseUrl));

  const budgets: Array<{ name: string; ok: boolean }> = [];
  for (const run of runs) {
    console.log(
      `\n── ${run.driver}: ${CONNECTIONS} connections, ${DURATION_S} s a route in ${TURNS} turns with the floor, median of ${ROUNDS} rounds ──`,
    );
    console.table(
      run.results.map((result) => {
        const each = summary(result);
        return {
          route: result.name,
          'answers/s': each.answersPerSec,
          'floor answers/s': each.floorPerSec,
          'share of floor': Number(each.share.toFixed(3)),
          'p99 ms': each.p99,
          'with first answers': each.p99WithFirstAnswers,
          'worst turn p99 ms': each.worstTurnP99,
          'floor p99 ms': each.floorP99,
          'server CPU µs/answer': each.cpuUs,
          'floor CPU µs/answer': each.floorCpuUs,
          'unexpected status + errors': each.failures,
        };
      }),
    );
    console.log(`server memory after the run: ${run.rssMb} MB RSS`);
    for (const result of run.results) {
      if (result.minShare === undefined) continue;
      const each = summary(result);
      // Unrounded: 0.496 is not 0.5.
      budgets.push(
        {
          name: `${result.name} ≥ ${result.minShare} of the floor (${run.driver}): ${each.share.toFixed(3)}`,
          ok: each.share >= result.minShare,
        },
        {
          name: `${result.name} p99 ≤ ${P99_TO_FLOOR}× the floor's (${run.driver}): ${each.p99} ms, the floor's ${each.floorP99} ms`,
          ok: each.p99 <= P99_TO_FLOOR * each.floorP99,
        },
      );
    }
    budgets.push({
      name: `no errors or unexpected statuses (${run.driver})`,
      ok: run.results.every((result) => summary(result).failures === 0),
    });
  }
  console.log('');
  for (const budget of budgets) console.log(`${budget.ok ? 'ok  ' : 'MISS'} ${budget.name}`);

  mkdirSync(path.join(root, 'reports'), { recursive: true });
  writeFileSync(
    path.join(root, releaseDay ? 'reports/bench-release-day.json' : 'reports/bench.json'),
    JSON.stringify({ at: new Date().toISOString(), connections: CONNECTIONS, runs, budgets }, null, 2),
  );
  process.exit(budgets.every((budget) => budget.ok) ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
