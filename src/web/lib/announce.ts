/**
 * The one place that tells assistive technology what changed without moving focus there: a polite live region
 * (rendered once by App) for route changes and the results of actions done where focus already was (a wrong code
 * submitted with Enter). Errors that take focus to their field need no announcement: the field's description
 * is read with it.
 */
export const ANNOUNCER_ID = 'announcer';

/**
 * A confirmation said just before the page changes, which the next page's title is said after (not instead of),
 * if the page does change soon: a purchase made on My Tools itself moves nowhere, and its message must not come
 * back with a page opened minutes later.
 */
let beforeNextPage: { message: string; until: number } | null = null;
const CARRIED_MS = 10_000;

/**
 * Says `message`. With `beforeNextPage`, the page is about to change (a payment confirmed, an account deleted): the
 * next page's title is added after it rather than replacing it, which would silence it (issue 63).
 */
export function announce(message: string, options: { beforeNextPage?: boolean } = {}): void {
  beforeNextPage = options.beforeNextPage ? { message, until: Date.now() + CARRIED_MS } : null;
  say(message);
}

/** Says the title of the page just moved to, after the confirmation that led there, if there was one. */
export function announcePage(title: string): void {
  const carried = beforeNextPage && Date.now() <= beforeNextPage.until ? beforeNextPage.message : null;
  beforeNextPage = null;
  say(carried ? `${carried} ${title}` : title);
}

function say(message: string): void {
  const region = typeof document === 'undefined' ? null : document.getElementById(ANNOUNCER_ID);
  if (!region) return;
  // Emptied first, so the same message said twice in a row is read twice.
  region.textContent = '';
  window.setTimeout(() => {
    region.textContent = message;
  }, 100);
}

/**
 * Focus that was on a control which is gone (a step replaced, a menu closed by navigating) or that can no longer
 * take it goes to `fallback`: the next sensible control, never the page body.
 */
export function focusOrFallback(target: HTMLElement | null | undefined, fallback?: () => HTMLElement | null) {
  // The page body is never a place to put focus (a dialog the page opened on load remembers it as its opener).
  const usable = (element: HTMLElement | null | undefined): element is HTMLElement =>
    Boolean(element?.isConnected) && element !== document.body && !(element as HTMLButtonElement).disabled;
  const next = usable(target) ? target : fallback?.();
  if (usable(next)) next.focus();
}

/** Whether focus has fallen to the page itself (its control went away). */
export const focusLost = () => !document.activeElement || document.activeElement === document.body;
