/**
 * `npm start`: builds the site when the build is missing, older than its sources or made for another PUBLIC_URL,
 * then runs the server in this process.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stamp = path.join(root, 'dist/build-stamp');
const sources = ['src/web', 'src/shared', 'public', 'index.html', 'vite.config.ts', 'scripts/build.ts'];

function newestMtime(target: string): number {
  const full = path.join(root, target);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(full).map((name) => newestMtime(path.join(target, name))));
}

function needsBuild(): boolean {
  if (!existsSync(stamp)) return true;
  const publicUrl = (process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(
    /\/+$/,
    '',
  );
  if (readFileSync(stamp, 'utf8') !== publicUrl) return true;
  const built = statSync(stamp).mtimeMs;
  return sources.some((source) => newestMtime(source) > built);
}

if (needsBuild()) {
  process.env.PUBLIC_URL ??= `http://localhost:${process.env.PORT ?? 3000}`;
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/build.ts')], {
    stdio: 'inherit',
    env: process.env,
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import('../src/server/main');
