import './lib/zod-without-eval';
import './styles.css';
import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { type AroundNavHandler, Router } from 'wouter';
import { App, loadPage } from './App';
import { ensureCsrfToken } from './lib/api';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing');

let latestNavigation = 0;

/**
 * Every navigation (links and `navigate`) first loads the next page's code, keeping the current page meanwhile;
 * only the latest of quick successive clicks goes ahead. Code that cannot load (offline, or a newer deploy
 * replaced the files) turns into an ordinary page load, which fetches the new version or shows the browser's error.
 */
const aroundNav: AroundNavHandler = (navigate, to, options) => {
  const navigation = ++latestNavigation;
  loadPage(new URL(to, window.location.href).pathname).then(
    () => {
      if (navigation === latestNavigation) navigate(to, options);
    },
    () => window.location.assign(to),
  );
};

void ensureCsrfToken();
// Load this page's code before hydrating, so the prerendered HTML is adopted rather than replaced. Hydrating as a
// transition lets React yield to the browser every few milliseconds instead of holding the main thread for the
// whole page; a click meanwhile hydrates its own part first.
// The boot script then clicks again what the visitor tapped before the code arrived (src/web/boot.ts).
void loadPage(window.location.pathname, { hydrating: true }).then(() => {
  startTransition(() => {
    hydrateRoot(
      root,
      <StrictMode>
        <Router aroundNav={aroundNav}>
          <App />
        </Router>
      </StrictMode>,
    );
  });
  window.dispatchEvent(new Event('app:hydrating'));
});
