import { useEffect, useRef, useState } from 'react';

/** Where the reference reads the document: the server generates it from its routes' schemas. */
const OPENAPI_URL = '/api/openapi.json';

/**
 * The API reference, drawn by RapiDoc (a web component bundled with the site, in this page's chunk only). It loads
 * no fonts or scripts from another host: `load-fonts="false"`, and the site's own font.
 */
export function ApiReference() {
  const holder = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let element: HTMLElement | undefined;
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
          requestAnimationFrame(() =>
            element?.shadowRoot?.querySelector('nav')?.setAttribute('aria-label', 'API operations'),
          );
        });
        element.style.height = '100%';
        element.style.width = '100%';
        holder.current.append(element);
      },
      (error: unknown) => {
        console.error('Failed to load the API reference', error);
        setFailed(true);
      },
    );
    return () => element?.remove();
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
