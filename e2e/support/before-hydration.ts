import type { Page } from '@playwright/test';

/**
 * Opens `url` with the page's scripts held back, so a test can act on the prerendered HTML before React takes it
 * over. Module scripts delay DOMContentLoaded, so this waits only for the response; call the returned function to
 * let the scripts load and the page hydrate. `hold` narrows what is held: `'**\/assets/index-*.js'` lets the boot
 * script run (src/web/boot.ts) and holds only the application.
 */
export async function openBeforeHydration(
  page: Page,
  url: string,
  { hold = '**/assets/*.js' }: { hold?: string } = {},
): Promise<() => void> {
  const release = await holdRequests(page, hold);
  await page.goto(url, { waitUntil: 'commit' });
  return release;
}

/** Holds the page's requests for `pattern` until the returned function is called. */
export async function holdRequests(page: Page, pattern: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
