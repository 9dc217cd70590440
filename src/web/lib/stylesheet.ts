/**
 * A prerendered page inlines only the part of the site's stylesheet that its own code can use (scripts/build.ts).
 * Another page may use any class, so showing one waits for the whole sheet: a cached file, linked once, named on the
 * inline `<style data-stylesheet>`.
 */
let loading: Promise<void> | undefined;

function loadSiteStylesheet(): Promise<void> {
  if (typeof document === 'undefined') return Promise.resolve();
  const href = document.querySelector<HTMLElement>('style[data-stylesheet]')?.dataset.stylesheet;
  // The development server serves the whole sheet from the start.
  if (!href) return Promise.resolve();
  loading ??= new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.onload = () => resolve();
    // A page with its own styles only beats no page: show it anyway, and try the sheet again next time.
    link.onerror = () => {
      link.remove();
      loading = undefined;
      resolve();
    };
    document.head.append(link);
  });
  return loading;
}

/** `code` once both it and the whole stylesheet have loaded. */
export async function withSiteStylesheet<T>(code: Promise<T>): Promise<T> {
  const [loaded] = await Promise.all([code, loadSiteStylesheet()]);
  return loaded;
}
