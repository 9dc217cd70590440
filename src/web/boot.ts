/**
 * The only script a built page requests before it has painted. The page is prerendered and complete without
 * JavaScript (its links are links; taps on its buttons are kept, below), so the application's code is requested
 * once the window has loaded, the first paint is on screen and two more frames have run: a phone on a slow network
 * spends its first round trips on the page and its images, not on the code that will take them over. Decision 023.
 *
 * The build names what to load on this tag: `data-app="ENTRY CHUNK…"`, the entry first, then the chunks this page
 * needs, which are preloaded so they arrive with the entry rather than after it.
 */

/** Past this, the code is requested even if some image has not finished loading. */
const LOAD_WAIT_MS = 3000;

const APP_FILE = /^\/assets\/[\w.-]+\.js$/;

function start() {
  const files = (document.querySelector<HTMLScriptElement>('script[data-app]')?.dataset.app ?? '')
    .split(' ')
    .filter((file) => APP_FILE.test(file));
  const [entry, ...chunks] = files;
  if (!entry) return;
  for (const href of chunks) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  void import(/* @vite-ignore */ entry);
}

/**
 * Taps on the page's buttons before its code has arrived would do nothing: they are kept, and clicked again as soon
 * as the entry has started hydrating (it announces that with `app:hydrating`). React hydrates a button that is
 * clicked at once and then runs its handler, so a visitor who chose a currency or opened the menu early still gets
 * it. Submit buttons are left alone: the browser submits their form itself.
 */
const earlyTaps: HTMLButtonElement[] = [];
const keepEarlyTap = (event: MouseEvent) => {
  const button = event.target instanceof Element ? event.target.closest('button') : null;
  if (button?.type === 'button' && !button.disabled) earlyTaps.push(button);
};
document.addEventListener('click', keepEarlyTap, true);
window.addEventListener(
  'app:hydrating',
  () => {
    document.removeEventListener('click', keepEarlyTap, true);
    for (const button of earlyTaps.splice(0)) if (button.isConnected && !button.disabled) button.click();
  },
  { once: true },
);

const loaded = new Promise<void>((resolve) => {
  if (document.readyState === 'complete') resolve();
  else window.addEventListener('load', () => resolve(), { once: true });
});

/** The first contentful paint as the browser reports it: on screen, not only drawn. */
const painted = new Promise<void>((resolve) => {
  // A tab opened in the background paints nothing until it is shown: its code need not wait for that.
  if (document.visibilityState === 'hidden' || !PerformanceObserver.supportedEntryTypes?.includes('paint'))
    return resolve();
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    resolve();
  }).observe({ type: 'paint', buffered: true });
});

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

void Promise.race([
  // Two frames after the load event: what the images drew when they arrived is on screen too.
  Promise.all([loaded, painted]).then(async () => {
    if (document.visibilityState === 'hidden') return;
    await nextFrame();
    await nextFrame();
  }),
  new Promise((resolve) => setTimeout(resolve, LOAD_WAIT_MS)),
]).then(start);
