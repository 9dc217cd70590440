import { ApiReference } from '../features/api-reference/ApiReference';
import { ToolsLayout } from '../layout/ToolsLayout';

/**
 * /api-reference: the public API (license, trials, updates, shop, account) for tool makers and integrators. RapiDoc
 * draws the page's <main> landmark; the introduction is a region of its own beside it.
 */
export default function ApiReferencePage() {
  return (
    <ToolsLayout ownMain>
      <div className="mx-auto max-w-7xl px-5 py-10 sm:px-6 md:py-14">
        <section aria-labelledby="api-reference-title">
          <h1
            id="api-reference-title"
            className="text-3xl font-bold tracking-tight text-brand-900 sm:text-4xl"
          >
            API reference
          </h1>
          <p className="mt-3 max-w-3xl text-slate-700">
            The license, trial and update API that desktop tools call, and the shop and account calls the site
            makes. Generate a client from the{' '}
            <a className="text-brand-700 underline underline-offset-2" href="/api/openapi.json">
              OpenAPI 3.1 document
            </a>
            ; the server describes every call from the same schemas it answers with.
          </p>
        </section>
        <div className="mt-8">
          <ApiReference />
        </div>
      </div>
    </ToolsLayout>
  );
}
