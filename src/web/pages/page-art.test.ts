import { describe, expect, it } from 'vitest';
import { PAGE_ROUTES, renderRoute } from '../entry-prerender';

/**
 * Illustrations ship as cached SVG files shown with <img>, not as markup inside the page
 * (docs/decisions/019-illustrations-as-files.md): inline art made the home page's HTML 42 KB heavier, slowed
 * its first paint and came again in its script. Icons (a few hundred bytes each) stay inline.
 */
const INLINE_SVG_LIMIT_BYTES = 2048;

// The not-found page is rendered from an address no route knows, as the build does.
const ROUTES = [...PAGE_ROUTES.map((route) => route.path), '/__not-found__'];

const pages = new Map<string, string>();
async function html(path: string): Promise<string> {
  let page = pages.get(path);
  if (page === undefined) {
    page = await renderRoute(path);
    pages.set(path, page);
  }
  return page;
}

const imagesOf = (page: string) => [...page.matchAll(/<img\b[^>]*>/g)].map((match) => match[0]);
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

describe('prerendered pages', () => {
  it.each(ROUTES)('%s embeds no inline <svg> larger than an icon', async (path) => {
    const page = await html(path);
    const sizes = [...page.matchAll(/<svg\b[\s\S]*?<\/svg>/g)].map(
      (match) => new TextEncoder().encode(match[0]).length,
    );
    expect(Math.max(0, ...sizes)).toBeLessThanOrEqual(INLINE_SVG_LIMIT_BYTES);
  });

  it('show the home and team illustrations as decorative images with their own box', async () => {
    for (const [path, count] of [
      ['/', 13],
      ['/OurTeam', 3],
    ] as const) {
      const images = imagesOf(await html(path)).filter((tag) => /\.svg\b/.test(tag));
      expect(images, path).toHaveLength(count);
      for (const tag of images) {
        expect(attr(tag, 'alt'), tag).toBe('');
        expect(Number(attr(tag, 'width')), tag).toBeGreaterThan(0);
        expect(Number(attr(tag, 'height')), tag).toBeGreaterThan(0);
        expect(attr(tag, 'decoding'), tag).toBe('async');
      }
    }
  });

  it('load the first-screen picture at once and the pictures below the fold lazily', async () => {
    for (const path of ['/', '/OurTeam']) {
      const [first, ...rest] = imagesOf(await html(path)).filter((tag) => /\.svg\b/.test(tag));
      expect(first, path).toBeDefined();
      expect(rest.length, path).toBeGreaterThan(0);
      expect(attr(first ?? '', 'loading'), path).toBeUndefined();
      for (const tag of rest) expect(attr(tag, 'loading'), tag).toBe('lazy');
    }
  });
});

const ART = import.meta.glob<string>('../features/**/*.svg', {
  query: '?raw',
  import: 'default',
  eager: true,
});

describe('illustration files', () => {
  it('are found', () => {
    expect(Object.keys(ART).length).toBeGreaterThanOrEqual(16);
  });

  it.each(Object.entries(ART))(
    '%s is a standalone SVG with no script, handler or outside reference',
    (_file, svg) => {
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="[\d. ]+"/);
      expect(svg).not.toMatch(/<script|<foreignObject|\son\w+=|javascript:|<image\b|@import|url\(/i);
      // References stay inside the file (<use href="#…">).
      for (const match of svg.matchAll(/href="([^"]*)"/g)) expect(match[1]).toMatch(/^#/);
    },
  );
});
