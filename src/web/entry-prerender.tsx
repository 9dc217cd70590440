import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App } from './App';

export { ADMIN_ROUTE, NOT_FOUND_ROUTE, PAGE_ROUTES } from './routes';

/** Renders one route to HTML at build time; Suspense (lazy pages) is awaited, so the HTML is complete. */
export async function renderRoute(url: string): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouter location={url}>
        <App />
      </StaticRouter>
    </StrictMode>,
  );
  return new Response(prelude).text();
}
