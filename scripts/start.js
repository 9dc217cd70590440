// @ts-check
/**
 * `npm start`: builds when the build is missing, older than its sources or made for another PUBLIC_URL, then runs
 * the server in this process. In production that is the built JavaScript, dist/server/main.js, so the process never
 * loads tsx (decision 031); in development it is the TypeScript sources, through tsx. Plain JavaScript for that
 * reason: Node runs this file as it is.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stamp = path.join(root, 'dist/build-stamp');
const production = process.env.NODE_ENV === 'production';
const siteSources = ['src/web', 'src/shared', 'public', 'index.html', 'vite.config.ts', 'scripts/build.ts'];
// Development runs the server from its sources, so only production's build goes stale when they change.
const sources = production ? [...siteSources, 'src/server', 'scripts/support/server-build.ts'] : siteSources;

/** @param {string} target */
function newestMtime(target) {
  const full = path.join(root, target);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(full).map((name) => newestMtime(path.join(target, name))));
}

function needsBuild() {
  if (!existsSync(stamp)) return true;
  if (production && !existsSync(path.join(root, 'dist/server/main.js'))) return true;
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

if (production) {
  await import('../dist/server/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/server/main.ts');
}
