import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type CliRun, freePort, runCli, ServerProcess } from '../../test/support/processes';

export { freePort };

const root = path.resolve(import.meta.dirname, '../..');

export type RunningServer = {
  url: string;
  port: number;
  pid: number;
  dataDir: string;
  output: () => string;
  /** Stops the process; its DATA_DIR stays, for `start()` (a test may change the database meanwhile). */
  stop(): Promise<void>;
  /** Starts it again after `stop()`, on the same port and DATA_DIR (the same address for the browser). */
  start(): Promise<void>;
  /** Stops it for good and deletes the DATA_DIR it made (one given to it stays). */
  close(): Promise<void>;
};

/**
 * The development server as a visitor's browser reaches it (http://localhost:PORT, the built site served, the
 * Razorpay emulator and dev mailbox on) through the tests' one server launcher, on a copy of a migrated database
 * when its DATA_DIR has none yet (no journey looks at a first start). `env` adds settings such as SMTP_URL;
 * `options.built` runs the built JavaScript (dist/server/main.js) instead of the sources, as production does;
 * `options.dataDir` starts it on an existing DATA_DIR.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: { dataDir?: string; built?: boolean; nodeArgs?: string[]; startTimeoutMs?: number } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  // Given to the process as DATA_DIR, not as the launcher's own folder (which its stop() deletes), so the database
  // outlives a stop() for start().
  const dataDir = options.dataDir ?? env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'journey-'));
  const made = !options.dataDir && !env.DATA_DIR;
  const server = new ServerProcess(
    {
      NODE_ENV: 'development',
      PUBLIC_URL: url,
      DATABASE_URL: '',
      SITE_DIR: path.join(root, 'dist/client'),
      ...env,
      DATA_DIR: dataDir,
    },
    port,
    { built: options.built, migrated: true, nodeArgs: options.nodeArgs },
  );
  await server.start(options.startTimeoutMs ?? 120_000);
  return {
    url,
    port,
    pid: server.pid,
    dataDir,
    output: () => server.output,
    stop: () => server.stop(),
    start: async () => {
      await server.start(options.startTimeoutMs ?? 120_000);
    },
    close: async () => {
      await server.stop();
      if (made) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The operator's command line (`npm run admin -- ...`) on a journey's PGlite DATA_DIR, as the firm's operator runs
 * it beside the running server.
 */
export const operatorCli =
  (dataDir: () => string) =>
  (...args: string[]): Promise<CliRun> =>
    runCli(args, { env: { ...process.env, DATA_DIR: dataDir(), DATABASE_URL: '', LOG_LEVEL: 'silent' } });
