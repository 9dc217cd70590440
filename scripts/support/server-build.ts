/**
 * Builds the server to JavaScript (dist/server, and dist/shared for what it imports from src/shared), which
 * production runs without tsx (decision 031). Each module becomes its own file at the same depth as its source,
 * so every path a module takes from its own place (`import.meta.dirname`: the site, the migrations, the Razorpay
 * emulator's checkout.js) holds in both. Packages stay in node_modules.
 */
import { cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from 'vite';

/** The operator command line, built beside the server (`node dist/server/cli/cli.js`). */
export const CLI_ENTRY = 'src/server/cli/cli.ts';
export const SERVER_ENTRY = 'src/server/main.ts';
const SERVER_SOURCES = 'src/server';

/** Files the server reads beside its modules at run time (the emulator's checkout.js), copied as they are. */
function copyRuntimeFiles(from: string, to: string): void {
  for (const name of readdirSync(from)) {
    const source = path.join(from, name);
    if (statSync(source).isDirectory()) copyRuntimeFiles(source, path.join(to, name));
    else if (!name.endsWith('.ts')) cpSync(source, path.join(to, name));
  }
}

export async function buildServer(root: string): Promise<void> {
  const outDir = path.join(root, 'dist');
  for (const part of ['server', 'shared']) rmSync(path.join(outDir, part), { recursive: true, force: true });
  await build({
    root,
    // Not vite.config.ts: that one builds the browser's bundle.
    configFile: false,
    logLevel: 'warn',
    build: {
      ssr: true,
      outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      sourcemap: true,
      target: 'node20',
      minify: false,
      rolldownOptions: {
        input: [SERVER_ENTRY, CLI_ENTRY],
        output: {
          format: 'esm',
          preserveModules: true,
          preserveModulesRoot: 'src',
          entryFileNames: '[name].js',
          virtualDirname: 'server/_virtual',
        },
      },
    },
  });
  copyRuntimeFiles(path.join(root, SERVER_SOURCES), path.join(outDir, 'server'));
}
