import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const deployConfig = path.resolve(import.meta.dirname, '../../deploy/haproxy.cfg');

export type HaproxyPorts = {
  /** Where the shop is served (the deploy's :80 and :443). */
  proxy: number;
  /** The stats page (the deploy's 127.0.0.1:8404). */
  stats: number;
  /** The ports of the two instances the deploy's backend names app1 (3001) and app2 (3002). */
  app1: number;
  app2: number;
};

/**
 * The deploy's HAProxy configuration as a test runs it: the same file with only what a test cannot have replaced,
 * line by line: its ports, plain HTTP for the TLS listener and its redirect (no certificate here), and the lines that
 * need an installed HAProxy (syslog, chroot, user, the admin socket, daemon mode). A line it expects and does not
 * find fails the test, so the file cannot drift from what the test runs unnoticed.
 */
export function testHaproxyConfig(config: string, ports: HaproxyPorts): string {
  const replacements = new Map<string, string | null>([
    ['log /dev/log local0', null],
    ['log /dev/log local1 notice', null],
    ['chroot /var/lib/haproxy', null],
    ['stats socket /run/haproxy/admin.sock mode 660 level admin', null],
    ['user haproxy', null],
    ['group haproxy', null],
    ['daemon', null],
    ['bind :80', `bind 127.0.0.1:${ports.proxy}`],
    ['bind :443 ssl crt /etc/haproxy/certs/shop.pem alpn h2,http/1.1', null],
    ['http-request redirect scheme https code 301 unless { ssl_fc }', null],
    ['bind 127.0.0.1:8404', `bind 127.0.0.1:${ports.stats}`],
    ['server app1 127.0.0.1:3001', `server app1 127.0.0.1:${ports.app1}`],
    ['server app2 127.0.0.1:3002', `server app2 127.0.0.1:${ports.app2}`],
  ]);
  const replaced = new Set<string>();
  const lines = config.split('\n').flatMap((line) => {
    const key = line.trim();
    const replacement = replacements.get(key);
    if (replacement === undefined) return [line];
    replaced.add(key);
    return replacement === null ? [] : [line.replace(key, replacement)];
  });
  const missing = [...replacements.keys()].filter((key) => !replaced.has(key));
  if (missing.length > 0) throw new Error(`deploy/haproxy.cfg has no line ${missing.join(', ')}`);
  return lines.join('\n');
}

/** Debian's HAProxy in a process of its own (foreground), on deploy/haproxy.cfg made fit for a test. */
export class HaproxyProcess {
  private child: ChildProcess | undefined;
  private readonly dir = mkdtempSync(path.join(os.tmpdir(), 'haproxy-'));
  output = '';

  constructor(readonly ports: HaproxyPorts) {}

  get url(): string {
    return `http://127.0.0.1:${this.ports.proxy}`;
  }

  async start(timeoutMs = 10_000): Promise<this> {
    const file = path.join(this.dir, 'haproxy.cfg');
    writeFileSync(file, testHaproxyConfig(readFileSync(deployConfig, 'utf8'), this.ports));
    const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let missing: Error | undefined;
    child.once('error', (error) => {
      missing = error;
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
    });
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (missing) throw new Error(`haproxy did not start (Debian's haproxy package): ${missing.message}`);
      if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}):\n${this.output}`);
      if (await this.states().catch(() => undefined)) return this;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill('SIGKILL');
    throw new Error(`haproxy's stats page did not answer within ${timeoutMs} ms:\n${this.output}`);
  }

  /** Each server's state as the stats page reports it (`UP`, `DOWN`, `UP 1/2` while going down, …). */
  async states(): Promise<Map<string, string>> {
    const csv = await (await fetch(`http://127.0.0.1:${this.ports.stats}/stats;csv`)).text();
    const [header = '', ...rows] = csv.trim().split('\n');
    const columns = header.replace(/^# /, '').split(',');
    const [name, backend, status] = ['svname', 'pxname', 'status'].map((column) => columns.indexOf(column));
    const states = new Map<string, string>();
    for (const row of rows) {
      const fields = row.split(',');
      if (fields[backend ?? -1] === 'shop_app' && fields[name ?? -1] !== 'BACKEND')
        states.set(fields[name ?? -1] ?? '', fields[status ?? -1] ?? '');
    }
    return states;
  }

  /** Waits until HAProxy reports `server` in `state` (its checks every second decide). */
  async waitFor(server: 'app1' | 'app2', state: 'UP' | 'DOWN', timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const now = (await this.states()).get(server);
      if (now === state) return;
      if (Date.now() > deadline) throw new Error(`${server} is ${now}, not ${state}, after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
