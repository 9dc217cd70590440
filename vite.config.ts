import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * What Vite lists for a chunk to preload before code it loads on demand, less what cannot need it:
 *
 * - Vite makes code loaded on demand (dialogs, the billing form) link the entry's stylesheet, the whole site's, when
 *   it loads. A page already carries the classes that code uses in its inline CSS (scripts/build.ts), so linking the
 *   sheet only made the browser restyle the page while it was being used; showing another page links it itself
 *   (src/web/lib/stylesheet.ts).
 * - Vite lists every file the code on demand imports, those the chunk itself imports too: those ran before the
 *   chunk did, so preloading them again does nothing but weigh on every page that loads the chunk (My Tools' card
 *   named 11 of them for a team's panel few buyers have; decision 052).
 *
 * This takes them out of the preload lists, after Vite has written them.
 */
function preloadsTrimmed(): Plugin {
  return {
    name: 'preloads-trimmed',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        // The site's sheet is the stylesheet of index.html's entry.
        const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
        const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const entry = chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith('index.html'));
        const siteSheets = entry?.viteMetadata?.importedCss ?? new Set<string>();
        /** Every chunk a chunk imports, directly or through another: all of them ran before it. */
        const imported = (fileName: string, seen = new Set<string>()) => {
          for (const next of byName.get(fileName)?.imports ?? []) {
            if (seen.has(next)) continue;
            seen.add(next);
            imported(next, seen);
          }
          return seen;
        };
        for (const file of chunks) {
          if (!file.code.includes('__vite__mapDeps')) continue;
          // Vite writes a chunk's preload files once, `m.f=[...]` (paths from the site's root), and each import names
          // its own by index, `__vite__mapDeps([0,2])`: drop the files not needed from the list and renumber.
          const list = /m\.f=(\[[^\]]*\])/.exec(file.code);
          if (!list?.[1]) throw new Error(`${file.fileName}: Vite's preload list has a new shape`);
          const files = JSON.parse(list[1]) as string[];
          const loaded = imported(file.fileName);
          const kept = files.map((listed) => !siteSheets.has(listed) && !loaded.has(listed));
          if (kept.every(Boolean)) continue;
          const newIndex = kept.map((_, index) => kept.slice(0, index).filter(Boolean).length);
          const renumber = (indexes: string) =>
            (JSON.parse(indexes) as number[]).filter((index) => kept[index]).map((index) => newIndex[index]);
          file.code = file.code
            .replace(list[0], () => `m.f=${JSON.stringify(files.filter((_, index) => kept[index]))}`)
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
  plugins: [react(), tailwindcss(), preloadsTrimmed()],
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
                  // The form kit's buttons and notice, which the tools pages use without its fields (decision 052),
                  // and the spinner every shop page shows while it loads: one file, not a file each.
                  name: 'buttons',
                  minShareCount: 2,
                  test: /src[\\/]web[\\/]components[\\/](form[\\/](buttons|Notice)|Spinner)\./,
                },
                {
                  // What the buyer's pages (My Tools, an order's page, the account, the team panel) read with: the
                  // data-fetching hook, the orders' and My Tools' API calls and the date formats, one file rather
                  // than four (decision 055; the order page reads a license's upgrades with My Tools' calls). Their
                  // dependencies stay where they are: the fetch wrapper is the entry's.
                  name: 'portal',
                  minShareCount: 2,
                  includeDependenciesRecursively: false,
                  test: /src[\\/]web[\\/](features[\\/](orders|my-tools)[\\/]api|lib[\\/](useQuery|dates))\./,
                },
                {
                  // What both shop pages show a tool with (its icon, title, text, "Get Credentials", the search box
                  // and the shop's messages), and the purchase the catalogue, Add seats and an upgrade share (its
                  // calls, the checkout script's loader, the currency): one file each, as when only the shop pages
                  // used them. An upgrade from an order's page (issue 64) reaches for some of them later, which
                  // would otherwise split each into files of their own, every one a request and a line in the
                  // entry's preload lists. With them the small shared modules both shop pages and an order's page
                  // load (the money format, the trial and license rules, the purchase intent kept across sign-in,
                  // the prerendered form's hand-over): six files of a few hundred bytes, each wrapped at a cost like
                  // its code's, were what took the shop pages past 95 KB gzip (issue 69).
                  name: 'tool-parts',
                  minShareCount: 2,
                  includeDependenciesRecursively: false,
                  test: /src[\\/]web[\\/](components[\\/](tools[\\/](toolTitle|TruncatedText|ToolIcon|useSendCredentials)|SearchBox)|lib[\\/](purchase-intent|prerendered-form))\.|src[\\/]shared[\\/](shop|money|trials|licenses|order-detail)\./,
                },
                {
                  name: 'purchase',
                  minShareCount: 2,
                  includeDependenciesRecursively: false,
                  test: /src[\\/]web[\\/](features[\\/]checkout[\\/](usePurchase|razorpay|api)|lib[\\/]shop-api)\.|src[\\/]shared[\\/]currency\./,
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
