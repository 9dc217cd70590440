/**
 * Builds the server to JavaScript (scripts/support/server-build.ts), then the site: the client bundle, then every
 * public route prerendered to static HTML with its own title, description, Open Graph tags and JSON-LD, then
 * sitemap.xml and robots.txt, then .br/.gz copies of text files.
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';
import type { SiteManifest } from '../src/server/site/static';
import { SITE } from '../src/shared/site';
import type { DescribedRoute } from '../src/web/entry-prerender';
import { pageCss } from './support/page-css';
import { buildServer } from './support/server-build';

const root = path.resolve(import.meta.dirname, '..');
const clientDir = path.resolve(root, process.env.SITE_OUT_DIR ?? 'dist/client');
const ssrDir = `${clientDir}-ssr`;
const publicUrl = (process.env.PUBLIC_URL ?? 'http://localhost:3000').replace(/\/+$/, '');

const escapeAttr = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

function organizationJsonLd(): string {
  const data = {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    name: SITE.name,
    legalName: SITE.legalName,
    url: publicUrl,
    logo: `${publicUrl}/favicon.svg`,
    email: SITE.email,
    telephone: SITE.phone,
    description: SITE.tagline,
    address: {
      '@type': 'PostalAddress',
      streetAddress: SITE.address.line1,
      addressLocality: SITE.address.city,
      addressRegion: SITE.address.region,
      postalCode: SITE.address.postalCode,
      addressCountry: SITE.address.countryCode,
    },
    areaServed: ['IN', 'Worldwide'],
    knowsAbout: ['Accounting', 'Bookkeeping', 'Tax consultancy', 'Business consultancy', 'Web development'],
  };
  // JSON-LD is data, not script: "<" is escaped so no text can close the element.
  return JSON.stringify(data).replaceAll('<', '\\u003c');
}

/**
 * Where a route's prerendered HTML is written, named after its path so the browser's route table need not carry
 * it: / → index.html, /utility-tools/invalid-link → utility-tools-invalid-link.html, /admin/* → admin.html,
 * the not-found route (*) → 404.html.
 */
function htmlFileOf(routePath: string): string {
  if (routePath === '/') return 'index.html';
  if (routePath === '*') return '404.html';
  return `${routePath.replace(/\/\*$/, '').slice(1).replaceAll('/', '-')}.html`;
}

function headFor(route: DescribedRoute, bootScript: string): string {
  const url =
    route.path === '*'
      ? publicUrl
      : `${publicUrl}${route.path === '/' ? '/' : route.path.replace(/\/\*$/, '')}`;
  const tags = [
    `<title>${escapeAttr(route.title)}</title>`,
    `<meta name="description" content="${escapeAttr(route.description)}" />`,
    route.search === 'noindex'
      ? '<meta name="robots" content="noindex" />'
      : `<link rel="canonical" href="${escapeAttr(url)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeAttr(SITE.name)}" />`,
    `<meta property="og:title" content="${escapeAttr(route.title)}" />`,
    `<meta property="og:description" content="${escapeAttr(route.description)}" />`,
    `<meta property="og:url" content="${escapeAttr(url)}" />`,
    `<meta property="og:image" content="${escapeAttr(`${publicUrl}/og-image.png`)}" />`,
    `<meta property="og:locale" content="en_IN" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
    bootScript,
    `<script type="application/ld+json">${organizationJsonLd()}</script>`,
  ];
  return tags.join('\n    ');
}

type ViteManifest = Record<
  string,
  { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean; isDynamicEntry?: boolean }
>;

/**
 * The files a chunk brings: itself and, transitively, its static imports; with `onDemand`, also the code it loads
 * later (dialogs, toasts, a part a page joins from two features such as My Tools' team panel), the site's pages
 * (`onDemand.pages`, the route table's modules) excepted.
 */
function chunkFiles(
  manifest: ViteManifest,
  key: string,
  onDemand: { pages: ReadonlySet<string> } | false,
  files = new Set<string>(),
): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the Vite manifest`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const child of chunk.imports ?? []) chunkFiles(manifest, child, onDemand, files);
  if (!onDemand) return files;
  for (const child of chunk.dynamicImports ?? []) {
    if (!onDemand.pages.has(child)) chunkFiles(manifest, child, onDemand, files);
  }
  return files;
}

/** index.html's entry: the application, which the boot script loads after the first paint. */
const ENTRY_KEY = 'index.html';
/** The one script a page requests before its first paint (src/web/boot.ts, decision 023). */
const BOOT_KEY = 'src/web/boot.ts';

/**
 * The page's script tag: the boot script, told to load the entry and the chunks the entry and this page import
 * (they are preloaded, so they arrive with the entry rather than after it). It is requested at low priority: the
 * page paints without it.
 */
function bootScriptFor(manifest: ViteManifest, pageKey: string): string {
  const boot = manifest[BOOT_KEY]?.file;
  if (!boot) throw new Error(`${BOOT_KEY} is not in the Vite manifest`);
  const files = new Set([...chunkFiles(manifest, ENTRY_KEY, false), ...chunkFiles(manifest, pageKey, false)]);
  const app = [...files].map((file) => `/${file}`).join(' ');
  return `<script type="module" fetchpriority="low" src="/${boot}" data-app="${escapeAttr(app)}"></script>`;
}

/** Vite's own script and preload tags for the entry: the boot script replaces them. */
function withoutEntryTags(template: string): string {
  const entry = /\s*<script type="module" crossorigin src="[^"]+"><\/script>/;
  if (!entry.test(template)) throw new Error('the built index.html has no entry script');
  return template.replace(entry, '').replace(/\s*<link rel="modulepreload" crossorigin href="[^"]+">/g, '');
}

/**
 * Each page inlines the part of the site's stylesheet that its HTML and its code (dialogs and toasts included) can
 * use (scripts/support/page-css.ts): a first visit paints without a second request and without styling rules the page
 * never uses. The whole sheet's address goes with it, for the browser to load when it shows another page
 * (src/web/lib/stylesheet.ts). CSP allows inline styles, never inline scripts.
 */
async function inlinePageCss(
  template: string,
  manifest: ViteManifest,
  pageKey: string,
  pages: ReadonlySet<string>,
  appHtml: string,
): Promise<string> {
  const link = /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/;
  const file = link.exec(template)?.[1];
  if (!file) throw new Error('the built index.html links no stylesheet');
  const scripts = [...chunkFiles(manifest, ENTRY_KEY, { pages }), ...chunkFiles(manifest, pageKey, { pages })]
    .filter((name) => name.endsWith('.js'))
    .map((name) => readFileSync(path.join(clientDir, name), 'utf8'));
  const css = await pageCss(readFileSync(path.join(clientDir, file), 'utf8'), [appHtml, ...scripts]);
  return template.replace(link, () => `<style data-stylesheet="/${file}">${css}</style>`);
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

async function main() {
  const started = Date.now();
  await buildServer(root);
  await build({ root, logLevel: 'warn', build: { outDir: clientDir } });
  await build({
    root,
    logLevel: 'warn',
    build: {
      ssr: 'src/web/entry-prerender.tsx',
      outDir: ssrDir,
      emptyOutDir: true,
      manifest: false,
      copyPublicDir: false,
    },
  });

  const template = withoutEntryTags(readFileSync(path.join(clientDir, 'index.html'), 'utf8'));
  const manifest = JSON.parse(
    readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8'),
  ) as ViteManifest;
  const ssr = (await import(pathToFileURL(path.join(ssrDir, 'entry-prerender.js')).href)) as {
    PAGE_ROUTES: DescribedRoute[];
    NOT_FOUND_ROUTE: DescribedRoute;
    ADMIN_PAGE: DescribedRoute;
    renderRoute(url: string): Promise<string>;
    pageModuleOf(route: DescribedRoute): Promise<string>;
  };

  const routes = [...ssr.PAGE_ROUTES, ssr.ADMIN_PAGE, ssr.NOT_FOUND_ROUTE];
  const pageKeys = new Set(await Promise.all(routes.map((route) => ssr.pageModuleOf(route))));
  const pages: SiteManifest['pages'] = {};
  for (const route of routes) {
    // The dashboard's shell answers /admin and every address under it.
    const url = route.path === '*' ? '/__not-found__' : route.path.replace(/\/\*$/, '');
    const file = htmlFileOf(route.path);
    if (route === ssr.ADMIN_PAGE) pages[url] = file;
    const appHtml = await ssr.renderRoute(url);
    const pageKey = await ssr.pageModuleOf(route);
    const html = (await inlinePageCss(template, manifest, pageKey, pageKeys, appHtml))
      .replace('<!--head-->', headFor(route, bootScriptFor(manifest, pageKey)))
      .replace('<!--app-->', () => appHtml);
    writeFileSync(path.join(clientDir, file), html);
    if (route.path !== '*') pages[route.path] = file;
  }
  const siteManifest: SiteManifest = { pages, notFound: htmlFileOf(ssr.NOT_FOUND_ROUTE.path) };
  writeFileSync(path.join(clientDir, 'site-manifest.json'), JSON.stringify(siteManifest, null, 2));

  const sitemap = ssr.PAGE_ROUTES.filter((route) => route.search === undefined)
    .map((route) => `  <url><loc>${publicUrl}${route.path}</loc></url>`)
    .join('\n');
  writeFileSync(
    path.join(clientDir, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemap}\n</urlset>\n`,
  );
  writeFileSync(
    path.join(clientDir, 'robots.txt'),
    `User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /dev/\nDisallow: /admin\n\nSitemap: ${publicUrl}/sitemap.xml\n`,
  );

  for (const file of walk(clientDir)) {
    if (!/\.(html|js|css|svg|json|txt|xml)$/.test(file) || statSync(file).size < 512) continue;
    const body = readFileSync(file);
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  }
  rmSync(ssrDir, { recursive: true, force: true });
  if (!process.env.SITE_OUT_DIR) writeFileSync(path.join(root, 'dist/build-stamp'), publicUrl);
  console.log(
    `built the server and the site in ${((Date.now() - started) / 1000).toFixed(1)} s (${Object.keys(pages).length} pages)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
