import { useEffect, useRef, useState } from 'react';

/** Where the reference reads the document: the server generates it from its routes' schemas. */
const OPENAPI_URL = '/api/openapi.json';

/**
 * RapiDoc's light theme draws the HTTP methods and the inactive tabs (example / schema) in colours below 4.5:1 on its
 * background (axe: color-contrast). Its theme is custom properties on its host, so the page's own values win:
 * Tailwind's 700/800 shades and slate-600 (decision 052).
 */
const CONTRAST_COLOURS: Record<string, string> = {
  '--green': '#3f6212',
  '--blue': '#1d4ed8',
  '--orange': '#b45309',
  '--red': '#b91c1c',
  '--light-fg': '#475569',
};

/**
 * An operation's panel (RapiDoc's `api-request`, a shadow root of its own) shows the request body's example in a
 * textarea with no label (axe: label); each is named once the panel has drawn, as panels come and go.
 */
function labelRequestExamples(root: ShadowRoot): MutationObserver {
  const label = () => {
    for (const panel of root.querySelectorAll<HTMLElement & { updateComplete?: Promise<unknown> }>(
      'api-request',
    )) {
      void (panel.updateComplete ?? Promise.resolve()).then(() => {
        for (const textarea of panel.shadowRoot?.querySelectorAll('textarea:not([aria-label])') ?? [])
          textarea.setAttribute('aria-label', 'Request body example');
      });
    }
  };
  const observer = new MutationObserver(label);
  observer.observe(root, { childList: true, subtree: true });
  label();
  return observer;
}

/**
 * The API reference, drawn by RapiDoc (a web component bundled with the site, in this page's chunk only). It loads
 * no fonts or scripts from another host: `load-fonts="false"`, and the site's own font.
 */
export function ApiReference() {
  const holder = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let element: HTMLElement | undefined;
    let labels: MutationObserver | undefined;
    import('rapidoc').then(
      () => {
        if (!holder.current) return;
        element = document.createElement('rapi-doc');
        const attributes: Record<string, string> = {
          'spec-url': OPENAPI_URL,
          'load-fonts': 'false',
          // The site's own stack (styles.css): system fonts, nothing downloaded.
          'regular-font':
            'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
          'mono-font': 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          theme: 'light',
          'primary-color': '#204265',
          'nav-bg-color': '#f8fafc',
          'render-style': 'focused',
          'schema-style': 'table',
          'show-header': 'false',
          'show-info': 'true',
          'allow-try': 'false',
          'allow-authentication': 'false',
          'allow-server-selection': 'false',
          'allow-spec-url-load': 'false',
          'allow-spec-file-load': 'false',
          'sort-tags': 'false',
        };
        for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
        // Its operations list is a <nav> beside the site's own: named, so the two landmarks can be told apart.
        element.addEventListener('spec-loaded', () => {
          requestAnimationFrame(() => {
            element?.shadowRoot?.querySelector('nav')?.setAttribute('aria-label', 'API operations');
            if (element?.shadowRoot && !labels) labels = labelRequestExamples(element.shadowRoot);
          });
        });
        for (const [name, value] of Object.entries(CONTRAST_COLOURS)) element.style.setProperty(name, value);
        element.style.height = '100%';
        element.style.width = '100%';
        holder.current.append(element);
      },
      (error: unknown) => {
        console.error('Failed to load the API reference', error);
        setFailed(true);
      },
    );
    return () => {
      labels?.disconnect();
      element?.remove();
    };
  }, []);

  return (
    <div
      ref={holder}
      className="h-[80vh] min-h-[32rem] w-full overflow-hidden rounded-lg border border-slate-200 bg-white"
    >
      {failed && (
        <p className="p-6 text-sm text-red-700">
          The reference could not be loaded. The document itself is at{' '}
          <a className="underline" href={OPENAPI_URL}>
            {OPENAPI_URL}
          </a>
          .
        </p>
      )}
    </div>
  );
}
