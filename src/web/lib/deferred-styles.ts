/**
 * The prerendered pages inline only the CSS their HTML uses and link the full stylesheet with `media="print"`, so it
 * neither blocks the first paint nor waits for a script (scripts/build.ts). This switches it on, and resolves once it
 * has loaded (at once if it already has; also on an error, so the page still hydrates).
 *
 * Inter is `font-display: optional`: when it was not there for the first paint the page shows the fallback face. But
 * Chromium resolves fonts again when the stylesheets change, and would then swap the now-loaded Inter in and re-wrap
 * every line (layout shift). So when the page is showing the fallback face, Inter's `@font-face` is taken out first,
 * and this page view keeps the face it painted with. The next page load has Inter in the cache.
 */
export function enableDeferredStylesheets(): Promise<unknown> {
  const links = [...document.querySelectorAll<HTMLLinkElement>('link[data-beasties-media]')];
  if (links.length > 0 && showsFallbackFace()) removeWebFonts();
  return Promise.all(
    links.map((link) => {
      link.media = link.dataset.beastiesMedia ?? 'all';
      link.removeAttribute('data-beasties-media');
      if (link.sheet) return Promise.resolve();
      return new Promise((resolve) => {
        link.addEventListener('load', resolve, { once: true });
        link.addEventListener('error', resolve, { once: true });
      });
    }),
  );
}

const WEB_FONT = '"Inter Variable"';

/**
 * Whether the page's first heading is drawn in the fallback face: its first word is as wide as the same word set in
 * the fallback face rather than in Inter (both measured in hidden probes with the heading's size and weight).
 */
function showsFallbackFace(): boolean {
  const heading = document.querySelector('h1');
  const text =
    heading &&
    [...heading.childNodes].find((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim());
  if (!heading || !text?.textContent) return false;
  const word = text.textContent.trim().split(/\s+/)[0] ?? '';
  const start = text.textContent.indexOf(word);
  const range = document.createRange();
  range.setStart(text, start);
  range.setEnd(text, start + word.length);
  const drawn = range.getBoundingClientRect().width;
  const style = getComputedStyle(heading);
  const fallbackStack = style.fontFamily.replace(WEB_FONT, '').replace(/^\s*,\s*/, '');
  const widthIn = (family: string) => {
    const probe = document.createElement('span');
    probe.textContent = word;
    probe.style.cssText = `position:absolute;visibility:hidden;white-space:pre;font-family:${family};font-size:${style.fontSize};font-weight:${style.fontWeight};letter-spacing:${style.letterSpacing}`;
    document.body.append(probe);
    const width = probe.getBoundingClientRect().width;
    probe.remove();
    return width;
  };
  const inter = widthIn(WEB_FONT);
  const fallback = widthIn(fallbackStack);
  return Math.abs(drawn - fallback) < Math.abs(drawn - inter);
}

function removeWebFonts() {
  for (const sheet of document.styleSheets) {
    if (sheet.href) continue;
    for (let index = sheet.cssRules.length - 1; index >= 0; index--) {
      if (sheet.cssRules[index] instanceof CSSFontFaceRule) sheet.deleteRule(index);
    }
  }
}
