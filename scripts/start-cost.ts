/**
 * `npx tsx scripts/start-cost.ts`: what a production server process costs started from the built JavaScript
 * (`node dist/server/main.js`, what `npm start` runs in production) and from the sources through tsx, as decision 031
 * records. For each, in alternation, `START_COST_ROUNDS` times (5): the time from spawning the process to
 * /api/health's first 200, its resident memory then, and after 1,000 catalogue requests. Prints the medians.
 * Needs `npm run build` first. Uses one database, the embedded one or DATABASE_URL's, migrated by a first,
 * uncounted start, so the figures are the process's own and not PGlite creating a database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../e2e/support/server';

const root = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.START_COST_ROUNDS ?? 5);
const WAYS = {
  'built JavaScript': ['dist/server/main.js'],
  'sources through tsx': ['--import', 'tsx', 'src/server/main.ts'],
} as const;
type Way = keyof typeof WAYS;

const dataDir = mkdtempSync(path.join(tmpdir(), 'site-start-cost-'));
const env = {
  PATH: process.env.PATH ?? '',
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://measure.localhost',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DATABASE_URL: process.env.DATABASE_URL ?? '',
  LOG_LEVEL: 'warn',
  SMTP_URL: 'smtp://127.0.0.1:9',
  RAZORPAY_KEY_ID: 'rzp_test_measure',
  RAZORPAY_KEY_SECRET: 'measure_key_secret',
  RAZORPAY_WEBHOOK_SECRET: 'measure_webhook_secret',
  RAZORPAY_API_URL: 'http://127.0.0.1:9',
  SESSION_SECRET: randomBytes(32).toString('hex'),
  LICENSE_SIGNING_KEY: generateKeyPairSync('ed25519')
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString(),
  RELEASE_SIGNING_KEY: generateKeyPairSync('ed25519')
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString(),
  FIRM_LEGAL_NAME: 'Pinkcity Advisors LLP',
  FIRM_ADDRESS: 'MI Road, Jaipur, Rajasthan 302001',
  FIRM_GSTIN: '08AAPFP1234A1ZK',
  // No load balancer to leave: each measured server stops at once instead of draining for 5 s.
  SHUTDOWN_DRAIN_SECONDS: '0',
};

/** Resident memory of a process and its children (tsx runs esbuild as a child), in MB. */
function rssMb(pid: number): number {
  const own = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  return Math.round(
    (own * 1024 + children.reduce((sum, child) => sum + rssMb(Number(child)) * 1024 ** 2, 0)) / 1024 ** 2,
  );
}

type Measure = { startMs: number; rssStartMb: number; rssLoadedMb: number };

async function measure(way: Way): Promise<Measure> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...WAYS[way]], {
    cwd: root,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${way}: the server exited (${child.exitCode})`);
      const ok = await fetch(`${url}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const startMs = Math.round(performance.now() - started);
    const pid = child.pid ?? 0;
    const rssStartMb = rssMb(pid);
    await autocannon({ url: `${url}/api/alltools/`, connections: 10, amount: 1_000 });
    return { startMs, rssStartMb, rssLoadedMb: rssMb(pid) };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

await measure('built JavaScript');
const results: Record<Way, Measure[]> = { 'built JavaScript': [], 'sources through tsx': [] };
for (let round = 0; round < ROUNDS; round += 1) {
  for (const way of Object.keys(WAYS) as Way[]) results[way].push(await measure(way));
}
rmSync(dataDir, { recursive: true, force: true });
console.table(
  Object.entries(results).map(([way, runs]) => ({
    way,
    'spawn → /api/health 200, ms': median(runs.map((run) => run.startMs)),
    'RSS after start, MB': median(runs.map((run) => run.rssStartMb)),
    'RSS after 1,000 requests, MB': median(runs.map((run) => run.rssLoadedMb)),
  })),
);
