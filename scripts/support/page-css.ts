/**
 * The stylesheet each prerendered page inlines: the site's compiled Tailwind sheet minus the rules nothing on that
 * page can use. A page's classes are found the way Tailwind finds them (its own scanner), in the page's HTML and in
 * the JavaScript the page loads: what a page can render (menus, error states, toasts) comes from its own modules, so
 * every state of the page is styled without a second request. Only code a page loads later (another page, a dialog
 * loaded on demand) needs the whole sheet, which the browser then loads from a cached file (src/web/lib/stylesheet.ts).
 */
import { Scanner } from '@tailwindcss/oxide';
import postcss from 'postcss';
import { PurgeCSS } from 'purgecss';

/** Class candidates as Tailwind reads them from source; a new scanner each time, as one returns only what is new. */
const candidatesOf = (content: string) => new Scanner({}).scanFiles([{ content, extension: 'html' }]);

/**
 * Tailwind registers (`@property`) every custom property its utilities may use; a registration only matters where a
 * kept rule reads the property. Rules and blocks left empty by the purge go too.
 */
function tidy(css: string): string {
  const root = postcss.parse(css);
  const read = new Set<string>();
  root.walkDecls((decl) => {
    for (const match of decl.value.matchAll(/var\((--[\w-]+)/g)) read.add(match[1] as string);
  });
  root.walkAtRules('property', (rule) => {
    if (!read.has(rule.params.trim())) rule.remove();
  });
  let removed = true;
  while (removed) {
    removed = false;
    root.walk((node) => {
      // Empty `@layer` blocks stay: their first appearance fixes the cascade order of the layers.
      const emptyBlock =
        (node.type === 'rule' || (node.type === 'atrule' && node.name !== 'layer')) &&
        node.nodes?.length === 0;
      if (emptyBlock) {
        node.remove();
        removed = true;
      }
    });
  }
  return root.toString();
}

/**
 * Rules whose selector is a pseudo-class alone: PurgeCSS finds no class, id or tag of them in any page and drops
 * them, but every page needs them (the focus ring shows from the first Tab on a freshly loaded page).
 */
const ALWAYS_KEPT = [':focus-visible'];

/** The part of `stylesheet` the given sources (a page's HTML and the scripts it loads) can use. */
export async function pageCss(stylesheet: string, sources: string[]): Promise<string> {
  const [result] = await new PurgeCSS().purge({
    content: sources.map((raw) => ({ raw, extension: 'html' })),
    css: [{ raw: stylesheet }],
    defaultExtractor: candidatesOf,
    safelist: { standard: ALWAYS_KEPT },
    variables: true,
    keyframes: true,
    fontFace: true,
  });
  if (!result) throw new Error('purgecss returned no stylesheet');
  return tidy(result.css);
}
