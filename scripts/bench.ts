/**
 * `npm run bench`: API throughput on this machine, reported (never asserted in tests).
 * Starts the production server and, each in a process of its own, a bare Node http server answering a small JSON
 * and a one-route Fastify server (scripts/support/reference-server.ts); loads each endpoint in turn on loopback with
 * 50 connections for a bounded time, and prints req/s, p99, the server's CPU time per answer and the ratio to the
 * bare server. Runs on PGlite, and again on PostgreSQL when DATABASE_URL is set. Writes reports/bench.json.
 *
 * The machine may be shared, so a ratio compares figures taken under the same load: each database's run measures
 * the bare server again (after its own warm-up, with the same connections and duration), and the license API, whose
 * budget is the tightest, in turns with it (`measureInTurns`), both warmed up first. The bare server and the
 * Fastify route are also sent validate's own requests (POST bodies, each from its machine's address): what the
 * requests themselves cost, and what any Fastify route costs, shown next to the budgeted ratio (to plain GETs).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { ensureBuilt, startProductionServer } from './support/prod-server';

/** getconf CLK_TCK: the unit of /proc/PID/stat's CPU times on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const WARM_UP_S = 2;
const CONNECTIONS = 50;
/** The license API's per-key limit (docs/license-api.md): requests a minute per key, per instance. */
const LICENSE_KEY_LIMIT_PER_MINUTE = 60;
/** Room for the server answering faster than the bare server did (the machine's load changes). */
const LICENSE_HEADROOM = 1.5;
const root = path.resolve(import.meta.dirname, '..');

type Row = {
  name: string;
  reqPerSec: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** The server's CPU time (all its threads) per answer, in µs. */
  cpuUs: number;
  ratio?: number;
  /** Validate only: the ratio to the bare server sent the same requests. */
  ratioToSameRequests?: number;
};

/** CPU time a process has used so far (user and system, all threads), in µs. */
function cpuTimeUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}

/** One stretch of load on one process: what autocannon counted, and the CPU time the process used meanwhile. */
type Sample = {
  requests: number;
  seconds: number;
  p99: number;
  non2xx: number;
  errors: number;
  cpuUs: number;
};

async function sample(pid: number, options: autocannon.Options): Promise<Sample> {
  const cpuBefore = cpuTimeUs(pid);
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuUs: cpuTimeUs(pid) - cpuBefore,
  };
}

/** A row from one or more samples of the same load: their rate overall, and the worst of their p99s. */
function rowOf(name: string, samples: Sample[]): Row {
  const sum = (field: keyof Sample) => samples.reduce((total, each) => total + each[field], 0);
  return {
    name,
    reqPerSec: Math.round(sum('requests') / sum('seconds')),
    p99: Math.max(...samples.map((each) => each.p99)),
    non2xx: sum('non2xx'),
    errors: sum('errors'),
    cpuUs: Math.round(sum('cpuUs') / Math.max(1, sum('requests'))),
  };
}

async function load(name: string, pid: number, options: autocannon.Options): Promise<Row> {
  return rowOf(name, [await sample(pid, options)]);
}

/** A reference server (scripts/support/reference-server.ts) in a process of its own, as the app runs. */
async function referenceServer(
  kind: 'bare' | 'fastify',
): Promise<{ url: string; pid: number; close(): void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts/support/reference-server.ts'), kind],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the ${kind} reference server exited (${code})`)));
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
  });
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid ?? 0, close: () => child.kill() };
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** A reference server, started and warmed up with `request` (plain GETs if none), for as long as `use` runs. */
async function withWarmReference<T>(
  kind: 'bare' | 'fastify',
  request: Omit<autocannon.Options, 'url'>,
  use: (reference: { url: string; pid: number }) => Promise<T>,
): Promise<T> {
  const reference = await referenceServer(kind);
  try {
    await load(`${kind} warm-up`, reference.pid, { ...request, url: reference.url, duration: WARM_UP_S });
    return await use(reference);
  } finally {
    reference.close();
  }
}

/** A reference server, loaded with plain GETs or, given `request`, with the same requests an endpoint gets. */
function measureReference(
  kind: 'bare' | 'fastify',
  name: string,
  request: Omit<autocannon.Options, 'url'> = {},
): Promise<Row> {
  return withWarmReference(kind, request, (reference) =>
    load(name, reference.pid, { ...request, url: reference.url }),
  );
}

/** Turns taken by the paired measurement: the bare server and the measured endpoint alternate, each this often. */
const TURNS = 4;

/**
 * An endpoint measured in turns with the bare server (both already warm): `TURNS` alternating stretches of a
 * `TURNS`th of the duration each, so both see the machine as it is in the same seconds. A machine shared with
 * others can be 10% slower for a while; measured half a minute apart, the ratio moved with it (docs/performance.md).
 */
async function measureInTurns(
  name: string,
  pid: number,
  options: autocannon.Options,
  bare: { url: string; pid: number },
): Promise<{ row: Row; bare: Row }> {
  const duration = DURATION_S / TURNS;
  const endpoint: Sample[] = [];
  const reference: Sample[] = [];
  for (let turn = 0; turn < TURNS; turn += 1) {
    reference.push(await sample(bare.pid, { url: bare.url, duration }));
    endpoint.push(await sample(pid, { ...options, duration }));
  }
  return { row: rowOf(name, endpoint), bare: rowOf(`bare node:http JSON, in turns with ${name}`, reference) };
}

async function benchDriver(databaseUrl: string | undefined) {
  const server = await startProductionServer(databaseUrl);
  try {
    const base = server.url;
    const csrf = randomBytes(32).toString('base64url');
    const contactBody = JSON.stringify({
      name: 'Bench Visitor',
      organisation: '',
      email: 'bench@example.com',
      relatedTo: 'Services',
      description: 'Measuring the contact endpoint.',
    });
    let visitor = 0;
    let connection = 0;
    const bare = await measureReference('bare', 'bare node:http JSON');
    // As many licenses as keep every key under its limit if the server answered as fast as the bare server just
    // did, with headroom: the traffic of many tools, each starting up often. Fewer would be refused with 429,
    // more would make every call one the instance has not seen within a second (docs/performance.md).
    const hotLicenses = Math.min(
      server.licenses.length,
      Math.ceil(
        ((bare.reqPerSec * (WARM_UP_S + DURATION_S)) / LICENSE_KEY_LIMIT_PER_MINUTE) * LICENSE_HEADROOM,
      ),
    );
    // Each connection is one slice of the fleet: its own licenses, each asking from its machine's own address
    // (the API also allows 120 requests a minute per address). The requests are built into bytes once, before the
    // run: rebuilding one per request cost the load generator, which shares the machine's two cores with the
    // server, a third of the bare server's rate (docs/performance.md).
    const perConnection = Math.max(1, Math.floor(hotLicenses / CONNECTIONS));
    const validateRequestsOf = (slice: number): autocannon.Request[] =>
      server.licenses.slice(slice * perConnection, (slice + 1) * perConnection).map((license, offset) => {
        const machine = slice * perConnection + offset;
        return {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-forwarded-for': `10.${(machine >> 16) & 255}.${(machine >> 8) & 255}.${machine & 255}`,
          },
          body: JSON.stringify(license),
        };
      });
    const validateRequests: Omit<autocannon.Options, 'url'> = {
      method: 'POST',
      // Every start of every copy of a tool calls this.
      setupClient: (client) => {
        client.setRequests(validateRequestsOf(connection % CONNECTIONS));
        connection += 1;
      },
    };
    const validate: autocannon.Options = { ...validateRequests, url: `${base}/api/licenses/validate` };
    // The same requests to the bare server: what the load generator and a bare POST cost on this machine, so the
    // report can say how much of validate's figure is the server's own work.
    const bareValidate = await measureReference(
      'bare',
      'bare node:http JSON, sent the validate requests',
      validateRequests,
    );
    const fastifyValidate = await measureReference(
      'fastify',
      'one Fastify route, sent the validate requests',
      validateRequests,
    );
    // Warm-up: first hits fill caches and JIT.
    await load('warm-up', server.pid, { url: `${base}/api/alltools/`, duration: WARM_UP_S });
    // Every machine of the fleet has started once before the measured run: validate is measured as tools that
    // start again find it, not as the first call after a deploy (each instance then looks every license up once).
    await autocannon({ ...validate, connections: CONNECTIONS, amount: hotLicenses });
    // Then a warm-up of the calls that follow (a tool starting again), as the reference servers get one: the
    // licenses allow it (hotLicenses counts a warm-up's worth of calls).
    await load('validate warm-up', server.pid, { ...validate, duration: WARM_UP_S });
    // Measured in turns with the bare server, whose rate in the same seconds is its budget's measure.
    const inTurns = await withWarmReference('bare', {}, (reference) =>
      measureInTurns('POST /api/licenses/validate', server.pid, validate, reference),
    );
    const rows: Row[] = [
      inTurns.row,
      await load('GET /api/alltools/ (anonymous)', server.pid, { url: `${base}/api/alltools/` }),
      await load('GET /api/alltools/ (logged in)', server.pid, {
        url: `${base}/api/alltools/`,
        headers: { cookie: server.sessionCookie },
      }),
      await load('GET / (prerendered HTML)', server.pid, {
        url: `${base}/`,
        headers: { 'accept-encoding': 'br' },
      }),
      await load('GET /api/auth/check/', server.pid, {
        url: `${base}/api/auth/check/`,
        headers: { cookie: server.sessionCookie },
      }),
      await load('POST /api/contact', server.pid, {
        url: `${base}/api/contact`,
        method: 'POST',
        body: contactBody,
        headers: { 'content-type': 'application/json', cookie: `csrftoken=${csrf}`, 'x-csrftoken': csrf },
        // The contact form is limited per address: each simulated visitor comes from its own address (TRUST_PROXY).
        setupClient: (client) => {
          const nextVisitor = () => {
            visitor += 1;
            client.setHeaders({
              'content-type': 'application/json',
              cookie: `csrftoken=${csrf}`,
              'x-csrftoken': csrf,
              'x-forwarded-for': `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`,
            });
          };
          nextVisitor();
          client.on('response', nextVisitor);
        },
      }),
    ];
    const ratio = (row: Row, to: Row) => Number((row.reqPerSec / to.reqPerSec).toFixed(2));
    // Each row against the bare server measured on its own, but validate: against the bare server of its turns.
    for (const row of [bare, bareValidate, fastifyValidate, inTurns.bare, ...rows]) {
      row.ratio = ratio(row, row === inTurns.row ? inTurns.bare : bare);
    }
    inTurns.row.ratioToSameRequests = ratio(inTurns.row, bareValidate);
    return {
      driver: server.driver,
      bare,
      bareValidate,
      fastifyValidate,
      bareInTurns: inTurns.bare,
      hotLicenses,
      rows,
      rssMb: rssMb(server.pid),
    };
  } finally {
    await server.stop();
  }
}

async function main() {
  ensureBuilt();
  const results = [await benchDriver(undefined)];
  if (process.env.DATABASE_URL) results.push(await benchDriver(process.env.DATABASE_URL));

  for (const result of results) {
    console.log(`── ${result.driver} (${CONNECTIONS} connections, ${DURATION_S} s each) ──`);
    console.log(`licenses validated in turn: ${result.hotLicenses}`);
    const references = [result.bare, result.bareValidate, result.fastifyValidate, result.bareInTurns];
    console.table(
      [...references, ...result.rows].map((row) => ({
        endpoint: row.name,
        'req/s': row.reqPerSec,
        'p99 ms': row.p99,
        'server CPU µs/answer': row.cpuUs,
        'ratio to bare': row.ratio,
        'to bare, same requests': row.ratioToSameRequests ?? '',
        'non-2xx': row.non2xx,
        errors: row.errors,
      })),
    );
    console.log(`server memory after the run: ${result.rssMb} MB RSS\n`);
  }

  const catalogue = results[0]?.rows.find((row) => row.name === 'GET /api/alltools/ (anonymous)');
  const validations = results.map((result) => ({
    driver: result.driver,
    row: result.rows.find((row) => row.name === 'POST /api/licenses/validate'),
    bare: result.bareInTurns,
  }));
  const budgets = [
    // Unrounded: 0.496 is not 0.5.
    ...validations.flatMap(({ driver, row, bare }) => [
      {
        name: `POST /api/licenses/validate ≥ 0.5 of bare, in turns (${driver}): ${((row?.reqPerSec ?? 0) / bare.reqPerSec).toFixed(3)}`,
        ok: (row?.reqPerSec ?? 0) >= 0.5 * bare.reqPerSec,
      },
      { name: `POST /api/licenses/validate p99 ≤ 10 ms (${driver})`, ok: (row?.p99 ?? Infinity) <= 10 },
    ]),
    {
      name: 'GET /api/alltools/ ≥ 0.25 of bare (PGlite)',
      ok: (catalogue?.reqPerSec ?? 0) >= 0.25 * (results[0]?.bare.reqPerSec ?? Infinity),
    },
    { name: 'GET /api/alltools/ p99 ≤ 25 ms (PGlite)', ok: (catalogue?.p99 ?? Infinity) <= 25 },
    {
      name: 'no errors or non-2xx responses',
      ok: results.every((r) => r.rows.every((row) => row.errors === 0 && row.non2xx === 0)),
    },
  ];
  for (const budget of budgets) console.log(`${budget.ok ? 'ok  ' : 'MISS'} ${budget.name}`);

  mkdirSync(path.join(root, 'reports'), { recursive: true });
  writeFileSync(
    path.join(root, 'reports/bench.json'),
    JSON.stringify({ at: new Date().toISOString(), results, budgets }, null, 2),
  );
  process.exit(budgets.every((budget) => budget.ok) ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
