import './lib/zod-without-eval';
import './styles.css';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App';
import { ensureCsrfToken } from './lib/api';
import { enableDeferredStylesheets } from './lib/deferred-styles';
import { routeFor } from './routes';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing');

void ensureCsrfToken();
// Load this page's code and the full stylesheet before hydrating, so the prerendered HTML is adopted rather than
// replaced, and anything rendered from now on (menus, dialogs, the tool grid) is styled.
void Promise.all([routeFor(window.location.pathname).load(), enableDeferredStylesheets()]).then(() =>
  hydrateRoot(
    root,
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>,
  ),
);
