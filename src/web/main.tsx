import './lib/zod-without-eval';
import './styles.css';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App';
import { ensureCsrfToken } from './lib/api';
import { routeFor } from './routes';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing');

void ensureCsrfToken();
// Load this page's code before hydrating, so the prerendered HTML is adopted rather than replaced.
void routeFor(window.location.pathname)
  .load()
  .then(() =>
    hydrateRoot(
      root,
      <StrictMode>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </StrictMode>,
    ),
  );
