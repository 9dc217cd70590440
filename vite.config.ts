import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Vite makes code loaded on demand (dialogs, the billing form) link the entry's stylesheet, the whole site's, when
 * it loads. A page already carries the classes that code uses in its inline CSS (scripts/build.ts), so linking the
 * sheet only made the browser restyle the page while it was being used; showing another page links it itself
 * (src/web/lib/stylesheet.ts). This takes the sheet out of those preload lists, after Vite has written them.
 */
function siteSheetNotPreloaded(): Plugin {
  return {
    name: 'site-sheet-not-preloaded',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        // The site's sheet is the stylesheet of index.html's entry.
        const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
        const entry = chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith('index.html'));
        const siteSheets = entry?.viteMetadata?.importedCss ?? new Set<string>();
        const isSiteSheet = (file: string) => siteSheets.has(file);
        for (const file of chunks) {
          if (!file.code.includes('__vite__mapDeps')) continue;
          // Vite writes a chunk's preload files once, `m.f=[...]`, and each import names its own by index,
          // `__vite__mapDeps([0,2])`: drop the sheet from the list and renumber what follows it.
          const list = /m\.f=(\[[^\]]*\])/.exec(file.code);
          if (!list?.[1]) throw new Error(`${file.fileName}: Vite's preload list has a new shape`);
          const files = JSON.parse(list[1]) as string[];
          const dropped = files.findIndex(isSiteSheet);
          if (dropped < 0) continue;
          const renumber = (indexes: string) =>
            (JSON.parse(indexes) as number[])
              .filter((index) => index !== dropped)
              .map((index) => (index > dropped ? index - 1 : index));
          file.code = file.code
            .replace(list[0], () => `m.f=${JSON.stringify(files.filter((_, index) => index !== dropped))}`)
            .replace(
              /__vite__mapDeps\((\[[\d,]*\])\)/g,
              (_call, indexes: string) => `__vite__mapDeps(${JSON.stringify(renumber(indexes))})`,
            );
        }
      },
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss(), siteSheetNotPreloaded()],
  resolve: {
    alias: [
      {
        find: 'use-sync-external-store/shim/index.js',
        replacement: fileURLToPath(new URL('./src/web/lib/use-sync-external-store-shim.ts', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    assetsInlineLimit: 2048,
    // Every browser the site supports preloads modules itself; the boot script adds the preloads (decision 023).
    modulePreload: { polyfill: false },
    rolldownOptions: isSsrBuild
      ? {}
      : {
          // The page's boot script (decision 023) is an entry of its own: the built pages request it instead of
          // index.html's entry, which it loads after the first paint.
          input: { index: 'index.html', boot: 'src/web/boot.ts' },
          output: {
            codeSplitting: {
              groups: [
                {
                  // The icons of the home page's frame (Lucide's data, drawn by components/Icon); the other
                  // shared icons go in `icons`, which the home page does not load.
                  name: 'site',
                  minShareCount: 2,
                  priority: 2,
                  test: /lucide[\\/]dist[\\/]esm[\\/]icons[\\/](message-circle|menu|x|arrow-right|check|chevron-down|layout-dashboard)\.|src[\\/]web[\\/]components[\\/](Icon|SiteFooter|ChatButton)\.|src[\\/]shared[\\/](constants|text)\./,
                },
                {
                  name: 'icons',
                  minShareCount: 2,
                  priority: 1,
                  test: /lucide[\\/]dist[\\/]esm[\\/]icons[\\/]/,
                },
                {
                  // The form kit's buttons and notice, which the tools pages use without its fields (decision 052):
                  // one file, not a file each.
                  name: 'buttons',
                  minShareCount: 2,
                  test: /src[\\/]web[\\/]components[\\/]form[\\/](buttons|Notice)\./,
                },
                {
                  name: 'page-header',
                  minShareCount: 2,
                  test: /src[\\/]web[\\/](components[\\/]PageHeader|lib[\\/]NavLink)\./,
                },
              ],
            },
          },
        },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
}));
