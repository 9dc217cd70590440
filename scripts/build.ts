/**
 * Builds the site: the client bundle, then every public route prerendered to static HTML with its own title,
 * description, Open Graph tags and JSON-LD, then sitemap.xml and robots.txt, then .br/.gz copies of text files.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import Beasties from 'beasties';
import postcss from 'postcss';
import { build } from 'vite';
import type { SiteManifest } from '../src/server/site/static';
import { SITE } from '../src/shared/site';
import type { PageRoute } from '../src/web/routes';

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
 * The Latin Inter file, preloaded so it is there for the first paint: it is `font-display: optional`, so a font that
 * arrives later is not swapped in (no layout shift) and the page keeps the fallback face.
 */
function fontPreloads(): string[] {
  return readdirSync(path.join(clientDir, 'assets'))
    .filter((name) => /^inter-latin-wght-normal-[\w-]+\.woff2$/.test(name))
    .map((name) => `<link rel="preload" as="font" type="font/woff2" crossorigin href="/assets/${name}" />`);
}

function headFor(route: PageRoute, boot: string): string {
  const url =
    route.path === '*'
      ? publicUrl
      : `${publicUrl}${route.path === '/' ? '/' : route.path.replace(/\/\*$/, '')}`;
  const tags = [
    `<title>${escapeAttr(route.title)}</title>`,
    `<meta name="description" content="${escapeAttr(route.description)}" />`,
    route.noindex
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
    ...fontPreloads(),
    `<script defer src="${escapeAttr(boot)}"></script>`,
    `<script type="application/ld+json">${organizationJsonLd()}</script>`,
  ];
  return tags.join('\n    ');
}

type ViteManifest = Record<
  string,
  { file: string; imports?: string[]; css?: string[]; isEntry?: boolean; isDynamicEntry?: boolean }
>;

/** The route's page chunk and the chunks it imports, minus what the entry already loads. */
function pagePreloads(manifest: ViteManifest, route: PageRoute): string[] {
  const key = `src/web/pages/${route.page}.tsx`;
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  const entryImports = new Set([entry?.file, ...(entry?.imports ?? []).map((k) => manifest[k]?.file)]);
  const files = new Set<string>();
  const visit = (k: string) => {
    const chunk = manifest[k];
    if (!chunk || files.has(chunk.file) || entryImports.has(chunk.file)) return;
    files.add(chunk.file);
    for (const child of chunk.imports ?? []) visit(child);
  };
  visit(key);
  return [...files].map((file) => `/${file}`);
}

/**
 * The page's scripts are started by a small classic `defer` script, which the browser fetches at low priority and
 * runs once the document is parsed: the entry, the chunks it imports and the page's own chunks are then requested by
 * script (as module preloads and one `import()`), so they do not compete with the page's first paint and do not
 * count as render-blocking. No timer waits for the paint: the browser journeys run on a fake clock. One file per
 * page, hashed, cached for good like every asset; CSP allows it as a same-origin script.
 */
function writeBootScript(manifest: ViteManifest, route: PageRoute): string {
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('the build has no entry chunk');
  const entryImports = (entry.imports ?? []).flatMap((key) => {
    const file = manifest[key]?.file;
    return file ? [`/${file}`] : [];
  });
  const modules = [...entryImports, ...pagePreloads(manifest, route)];
  const source = `for(const href of ${JSON.stringify(modules)}){const link=document.createElement('link');link.rel='modulepreload';link.href=href;document.head.append(link)}
import(${JSON.stringify(`/${entry.file}`)});
`;
  const hash = createHash('sha256').update(source).digest('base64url').slice(0, 10);
  const file = `assets/boot-${route.page}-${hash}.js`;
  writeFileSync(path.join(clientDir, file), source);
  return `/${file}`;
}

/** The entry script tag Vite writes into the template; the boot script loads the entry instead. */
function withoutEntryScript(template: string): string {
  const withoutEntry = template.replace(
    /\s*<script type="module" crossorigin src="\/assets\/[^"]+"><\/script>/,
    '',
  );
  if (withoutEntry === template) throw new Error('the entry script tag was not found in the template');
  return withoutEntry.replace(/\s*<link rel="modulepreload" crossorigin href="\/assets\/[^"]+">/g, '');
}

type SelectorNormaliser = { normalizeCssSelector(selector: string): string };

/**
 * Beasties cannot match Tailwind's zero-specificity wrappers (`:where(.space-y-2>:not(:last-child))`) and would leave
 * those rules out; it is given what is inside instead, which it can match.
 */
class TailwindBeasties extends Beasties {
  normalizeCssSelector(selector: string): string {
    const inner = /^:where\((.*)\)$/.exec(selector)?.[1] ?? selector;
    return (Beasties.prototype as unknown as SelectorNormaliser).normalizeCssSelector.call(this, inner);
  }
}

const CLASS_IN_SELECTOR = /\.((?:\\.|[\w-])+)/g;
const unescapeCss = (name: string) => name.replace(/\\(.)/g, '$1');
const decodeHtml = (text: string) =>
  text.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

/**
 * Selectors whose every class is on the page. Beasties cannot evaluate some of Tailwind's arbitrary variants
 * (`xl:[&:nth-child(4)]:col-start-2`); these are kept whenever their classes are used.
 */
function selectorsOfUsedClasses(fullCss: string, html: string): string[] {
  const used = new Set(
    [...html.matchAll(/class="([^"]*)"/g)].flatMap((match) => decodeHtml(match[1] ?? '').split(/\s+/)),
  );
  const selectors: string[] = [];
  postcss.parse(fullCss).walkRules((rule) => {
    for (const selector of rule.selectors) {
      const classes = [...selector.matchAll(CLASS_IN_SELECTOR)].map((match) => unescapeCss(match[1] ?? ''));
      if (classes.length > 0 && classes.every((name) => used.has(name))) selectors.push(selector);
    }
  });
  return selectors;
}

const FONT_FACE = /@font-face\{[^}]*\}/g;

/**
 * Rules that only matter once the visitor interacts (hover, focus, press). They are left out of the inline CSS: the
 * full stylesheet, which has them, is in place before the page is hydrated and can react to anything.
 */
const INTERACTIVE_STATE = /:(hover|focus|focus-visible|focus-within|active)\b/;

/**
 * Only the CSS a page's prerendered HTML uses goes inline (Beasties matches every selector against the page), so the
 * first paint has nothing to wait for and little to parse. The full stylesheet is linked with `media="print"` (fetched
 * at low priority, not render-blocking) and switched on by the entry script before it hydrates (src/web/main.tsx):
 * CSP allows inline styles, never inline scripts, so no `onload` handler. A `<noscript>` link serves visitors
 * without JavaScript. The `@font-face` rule always stays inline: the font is preloaded for the first paint.
 */
async function criticalStyles(html: string, fullCss: string): Promise<string> {
  const beasties = new TailwindBeasties({
    path: clientDir,
    publicPath: '/',
    preload: 'media-script',
    reduceInlineStyles: false,
    compress: true,
    logLevel: 'warn',
    allowRules: selectorsOfUsedClasses(fullCss, html),
  });
  const processed = await beasties.process(html);
  const fontFaces = (fullCss.match(FONT_FACE) ?? []).join('');
  return processed.replace(/<style>([\s\S]*?)<\/style>/, (_tag, css: string) => {
    const root = postcss.parse(css);
    root.walkRules((rule) => {
      const kept = rule.selectors.filter((selector) => !INTERACTIVE_STATE.test(selector));
      if (kept.length === 0) rule.remove();
      else rule.selectors = kept;
    });
    dropUnreadCustomProperties(root, processed);
    return `<style>${fontFaces}${root.toString()}</style>`;
  });
}

/**
 * Tailwind declares every theme value and `--tw-*` property the whole site uses; a page's inline CSS keeps only those
 * its own rules or markup read. Unread ones change nothing on the page, and the full stylesheet brings them all back.
 */
function dropUnreadCustomProperties(root: postcss.Root, html: string) {
  const markup = html.replace(/<style>[\s\S]*?<\/style>/g, '');
  for (let changed = true; changed; ) {
    changed = false;
    const read = new Set(
      [...root.toString().matchAll(/var\((--[\w-]+)/g), ...markup.matchAll(/(--[\w-]+)/g)].map((m) => m[1]),
    );
    root.walkDecls(/^--/, (decl) => {
      if (!read.has(decl.prop)) {
        decl.remove();
        changed = true;
      }
    });
    root.walkAtRules('property', (atRule) => {
      if (!read.has(atRule.params)) {
        atRule.remove();
        changed = true;
      }
    });
    // Removing declarations can empty a rule, its @media or @supports, then its @layer.
    root.walk((node) => {
      if ((node.type === 'rule' || node.type === 'atrule') && node.nodes?.length === 0) {
        node.remove();
        changed = true;
      }
    });
  }
}

/**
 * Beasties switches the deferred stylesheet on with an inline script, which CSP blocks; the entry script does it
 * instead (the link keeps its `data-beasties-media` attribute for it).
 */
function deferredStylesheetWithoutScript(html: string): string {
  const withoutScript = html.replace(
    /<script>document\.querySelectorAll\('link\[data-beasties-media\]'\)[^<]*<\/script>/,
    '',
  );
  if (/<script>/.test(withoutScript))
    throw new Error('an inline script is left in the page; CSP would block it');
  return withoutScript;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

async function main() {
  const started = Date.now();
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

  const template = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  const manifest = JSON.parse(
    readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8'),
  ) as ViteManifest;
  const ssr = (await import(pathToFileURL(path.join(ssrDir, 'entry-prerender.js')).href)) as {
    PAGE_ROUTES: PageRoute[];
    NOT_FOUND_ROUTE: PageRoute;
    ADMIN_ROUTE: PageRoute;
    renderRoute(url: string): Promise<string>;
  };

  const stylesheet = manifest['index.html']?.css?.[0];
  if (!stylesheet) throw new Error('the build has no stylesheet');
  const fullCss = readFileSync(path.join(clientDir, stylesheet), 'utf8');
  // The @font-face rule lives only in each page's inline CSS. A second copy in the deferred stylesheet would be a new
  // font face: loaded from the cache when the sheet is switched on, it would replace the fallback face on a page that
  // painted without Inter — the very swap `font-display: optional` is there to prevent.
  writeFileSync(path.join(clientDir, stylesheet), fullCss.replace(FONT_FACE, ''));
  const pages: SiteManifest['pages'] = {};
  for (const route of [...ssr.PAGE_ROUTES, ssr.ADMIN_ROUTE, ssr.NOT_FOUND_ROUTE]) {
    // The dashboard's shell answers /admin and every address under it.
    const url = route.path === '*' ? '/__not-found__' : route.path.replace(/\/\*$/, '');
    if (route === ssr.ADMIN_ROUTE) pages[url] = route.file;
    const appHtml = await ssr.renderRoute(url);
    const page = withoutEntryScript(template)
      .replace('<!--head-->', headFor(route, writeBootScript(manifest, route)))
      .replace('<!--app-->', appHtml);
    const html = deferredStylesheetWithoutScript(await criticalStyles(page, fullCss));
    writeFileSync(path.join(clientDir, route.file), html);
    if (route.path !== '*') pages[route.path] = route.file;
  }
  const siteManifest: SiteManifest = { pages, notFound: ssr.NOT_FOUND_ROUTE.file };
  writeFileSync(path.join(clientDir, 'site-manifest.json'), JSON.stringify(siteManifest, null, 2));

  const sitemap = ssr.PAGE_ROUTES.filter((route) => route.indexable)
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
    `built the site in ${((Date.now() - started) / 1000).toFixed(1)} s (${Object.keys(pages).length} pages)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
