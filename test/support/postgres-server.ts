import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './processes';

/** Where Debian puts the PostgreSQL server binaries; the newest installed major version is used. */
const PG_ROOT = '/usr/lib/postgresql';

function postgresBin(): string {
  const versions = existsSync(PG_ROOT)
    ? readdirSync(PG_ROOT)
        .filter((version) => existsSync(path.join(PG_ROOT, version, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(a) - Number(b))
    : [];
  const newest = versions.at(-1);
  // Loud on purpose: a test that needs its own PostgreSQL must not pass by quietly doing nothing.
  if (!newest) throw new Error(`PostgreSQL server binaries not found under ${PG_ROOT} (initdb, pg_ctl)`);
  return path.join(PG_ROOT, newest, 'bin');
}

/**
 * A PostgreSQL server of the test's own, which the test may stop and start (the shared CI server must stay up for
 * every other test). initdb refuses to run as root, so as root the server runs as the `postgres` user.
 */
export class ThrowawayPostgres {
  private readonly bin = postgresBin();
  private readonly dir = mkdtempSync(path.join(os.tmpdir(), 'pg-outage-'));
  private readonly dataDir = path.join(this.dir, 'data');
  private readonly socketDir = path.join(this.dir, 'socket');
  port = 0;

  get url(): string {
    return `postgres://app@127.0.0.1:${this.port}/postgres`;
  }

  private run(command: string, args: string[]): void {
    const asRoot = process.getuid?.() === 0;
    const [file, fullArgs] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(this.bin, command), ...args]]
      : [path.join(this.bin, command), args];
    execFileSync(file, fullArgs, { stdio: 'pipe' });
  }

  async init(): Promise<this> {
    mkdirSync(this.dataDir);
    mkdirSync(this.socketDir);
    if (process.getuid?.() === 0) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      for (const dir of [this.dir, this.dataDir, this.socketDir]) chownSync(dir, uid, gid);
      chmodSync(this.dir, 0o755);
    }
    this.run('initdb', ['-D', this.dataDir, '-U', 'app', '--auth=trust']);
    this.port = await freePort();
    await this.start();
    return this;
  }

  async start(): Promise<void> {
    this.run('pg_ctl', [
      '-D',
      this.dataDir,
      '-l',
      path.join(this.dir, 'log'),
      '-o',
      `-p ${this.port} -k ${this.socketDir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      '-w',
      'start',
    ]);
  }

  /** Fast shutdown: open connections are terminated, as in a restart or failover. */
  async stop(): Promise<void> {
    this.run('pg_ctl', ['-D', this.dataDir, '-m', 'fast', '-w', 'stop']);
  }

  async destroy(): Promise<void> {
    try {
      await this.stop();
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
