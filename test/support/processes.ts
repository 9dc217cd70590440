import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { seedMigratedDataDir } from './database';
import { TEST_DATA_SECRET_KEY, testPasswordHashCost } from './settings';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * `npm test` builds before it tests and then sets TEST_RUN_BUILT=1: every server and command line a test starts runs
 * the built JavaScript, as production runs them (decision 031), instead of the sources through tsx, which costs about
 * a second more a process on the 2-core machine. Run on their own (`npx vitest`, `npx playwright test`), tests start
 * the sources, so an edit needs no build.
 */
const runBuilt = process.env.TEST_RUN_BUILT === '1';

/** A TCP port nobody is listening on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The real server (`src/server/main.ts`, or the built `dist/server/main.js` as production runs it) in a process of
 * its own: config from the environment, migrations at start, background jobs, its own port and DATA_DIR. The one
 * launcher of every test that needs a whole server: API tests, the browser journeys (e2e/support/server.ts), the
 * reference client's tests, the bench. Output is kept for the test to inspect.
 */
export class ServerProcess {
  private child: ChildProcess | undefined;
  readonly dataDir: string;
  output = '';
  exitCode: number | null = null;

  /**
   * `port` 0 picks a free one at start; give one when other processes must know it in advance. `options.migrated`
   * starts it, when its DATA_DIR has no PGlite database yet, on a copy of a migrated one instead of letting it create
   * one (seconds saved a start): for tests that do not look at a first start. `options.root` runs the project from
   * another folder, a copy of this one (a second release beside the first, as a deploy has).
   */
  constructor(
    private readonly env: Record<string, string>,
    public port = 0,
    private readonly options: {
      dataDir?: string;
      built?: boolean;
      migrated?: boolean;
      root?: string;
      /** Node's own flags before the entry point, for those NODE_OPTIONS refuses (`--cpu-prof`). */
      nodeArgs?: string[];
    } = {},
  ) {
    this.dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'app-instance-'));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child?.pid ?? 0;
  }

  get alive(): boolean {
    return this.child !== undefined && this.exitCode === null && this.child.signalCode === null;
  }

  async start(timeoutMs = 60_000): Promise<this> {
    if (this.port === 0) this.port = await freePort();
    this.exitCode = null; // a restart after stop() or crash()
    if (this.options.migrated && !this.env.DATABASE_URL)
      await seedMigratedDataDir(this.env.DATA_DIR ?? this.dataDir);
    const built = this.options.built ?? runBuilt;
    const entry = built ? ['dist/server/main.js'] : ['--import', 'tsx', 'src/server/main.ts'];
    const child = spawn(process.execPath, [...(this.options.nodeArgs ?? []), ...entry], {
      cwd: this.options.root ?? repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(this.port),
        PUBLIC_URL: `http://127.0.0.1:${this.port}`,
        DATA_DIR: this.dataDir,
        SESSION_SECRET: 'two-instance-session-secret-0123456789abcdef',
        // The key testConfig's apps seal with: instances sharing one database must share it (each has its own DATA_DIR).
        DATA_SECRET_KEY: TEST_DATA_SECRET_KEY,
        LOG_LEVEL: 'warn',
        SITE_DIR: path.join(this.dataDir, 'no-site'),
        ...testPasswordHashCost(this.env),
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
    });
    child.on('exit', (code) => {
      this.exitCode = code ?? -1;
    });
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.alive) throw new Error(`server exited during start (${this.exitCode}):\n${this.output}`);
      try {
        if ((await fetch(`${this.url}/api/health`)).ok) return this;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Not left running: a server still starting would slow down every test after this one.
    child.kill('SIGKILL');
    throw new Error(`server did not answer /api/health within ${timeoutMs} ms:\n${this.output}`);
  }

  /** Ends the process as a crash or a power cut would, leaving its lock and socket files behind. */
  async crash(): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /**
   * SIGTERM, then SIGKILL if the process has not exited within `timeoutMs` (as systemd's TimeoutStopSec does: the
   * rolling deploy's test gives the production server the unit's 30 s).
   */
  async stop(timeoutMs = 10_000): Promise<void> {
    const child = this.child;
    if (child && this.alive) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, timeoutMs))]);
      if (this.alive) child.kill('SIGKILL');
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** A browser stand-in over real HTTP: keeps cookies and echoes csrftoken in X-CSRFToken on unsafe requests. */
export class HttpClient {
  readonly cookies = new Map<string, string>();

  /** `headers` go with every request (a load generator's X-Forwarded-For, say). */
  constructor(
    public baseUrl: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  async request(
    method: 'GET' | 'POST',
    url: string,
    body?: Record<string, string>,
    json?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { ...this.headers, ...extraHeaders };
    if (this.cookies.size > 0)
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const csrf = this.cookies.get('csrftoken');
    if (method === 'POST' && csrf) headers['x-csrftoken'] = csrf;
    if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (json !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${url}`, {
      method,
      headers,
      body: body
        ? new URLSearchParams(body).toString()
        : json !== undefined
          ? JSON.stringify(json)
          : undefined,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  get(url: string) {
    return this.request('GET', url);
  }

  post(url: string, body?: Record<string, string>) {
    return this.request('POST', url, body);
  }

  /** `headers` for this request alone (an `accept` that asks for a download, say). */
  postJson(url: string, json: unknown, headers?: Record<string, string>) {
    return this.request('POST', url, undefined, json, headers);
  }
}

export type CliRun = { code: number; stdout: string; stderr: string };

/** Node's import hook for tsx as a file URL, so the command line runs from any working directory. */
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/**
 * The operator command line (`npm run admin`'s script) in a process of its own, as an operator runs it from `cwd`
 * with exactly `env`: its exit code and what it printed.
 */
export function runCli(args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const entry = runBuilt
      ? [path.join(repoRoot, 'dist/server/cli/cli.js')]
      : ['--import', tsxLoader, path.join(repoRoot, 'src/server/cli/cli.ts')];
    const child = spawn(process.execPath, [...entry, ...args], {
      cwd: options.cwd ?? repoRoot,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
