import { FlaskConical, PackageOpen, SearchX, TriangleAlert } from 'lucide';
import { type ReactNode, useMemo, useState } from 'react';
import { DEVELOPMENT_EXAMPLES, SHOP_MESSAGES, type Tool } from '../../../shared/shop';
import { Icon } from '../../components/Icon';
import { matchesSearch, SearchBox } from '../../components/SearchBox';
import { Spinner } from '../../components/Spinner';
import { toolTitle } from '../../components/tools/toolTitle';
import { useSendCredentials } from '../../components/tools/useSendCredentials';
import { focusLost } from '../../lib/announce';
import { useAuth } from '../../session/AuthContext';
import { CurrencyToggle } from './CurrencyToggle';
import { ToolCard, toolAction } from './ToolCard';
import type { Catalogue } from './useCatalogue';
import { useStartTrial } from './useStartTrial';

const CATALOGUE_MESSAGES = SHOP_MESSAGES.catalogue;

/**
 * What the catalogue needs of the checkout, which its page gives it (features do not import each other; the
 * checkout's `useToolCheckout` is one).
 */
export type CatalogueCheckout = {
  /** Whether payments are simulated: null until the server has said. */
  testMode: boolean | null;
  /** The tool whose card says 'Processing...'. */
  processingId: string | null;
  buy: (tool: Tool) => void;
  /** The pointer or focus reached a card's action button: the checkout's code can load now. */
  prefetch: () => void;
};

/**
 * The Dashboard of /utility-tools (docs/product.md §2, §4): search, currency, the tool grid, and the trials; a Buy
 * goes to the checkout. Tools and the starting currency load on the client; the prerendered page shows the spinner
 * in their place.
 */
export function ToolCatalogue({
  catalogue,
  checkout,
}: {
  catalogue: Catalogue;
  checkout: CatalogueCheckout;
}) {
  const { loggedIn, openLogin } = useAuth();
  const { tools, loadFailed, currency, setCurrency, markTrialStarted } = catalogue;
  const [query, setQuery] = useState('');
  const credentials = useSendCredentials();
  // The trial link goes away once the trial started: focus moves to the card's action button.
  const trial = useStartTrial((toolId, expiresAt) => {
    markTrialStarted(toolId, expiresAt);
    window.setTimeout(() => {
      if (focusLost()) toolAction(toolId)?.focus();
    });
  });

  const visible = useMemo(
    () => tools?.filter((tool) => matchesSearch(query, tool.name, tool.description, tool.device)) ?? [],
    [tools, query],
  );

  /** Fetches the checkout's code when the pointer or focus reaches a card's action button. */
  const prefetchOnIntent = (event: { target: EventTarget }) => {
    if (event.target instanceof Element && event.target.closest('[data-tool-action]')) checkout.prefetch();
  };

  /** Signed out, "Try free" opens the login dialog as Buy does, saying that signing in is what starts the trial. */
  const tryFree = (tool: Tool) => {
    if (loggedIn) return trial.start(tool);
    openLogin(
      `Sign in (or sign up) to start your ${tool.trialDays}-day free trial of ${toolTitle(tool)}. Its key comes by email and stays on My Tools.`,
    );
  };

  // The grid appears in one step, with the test-mode notice, so nothing moves once it is there.
  const loading = !tools || !currency || checkout.testMode === null;
  let body: ReactNode;
  if (loadFailed && !tools) {
    body = (
      <EmptyState icon={<Icon node={TriangleAlert} className="size-7 text-red-700" />} role="alert">
        {CATALOGUE_MESSAGES.loadFailed}
      </EmptyState>
    );
  } else if (loading || !tools || !currency) {
    body = <Spinner label="Loading tools" className="min-h-72" />;
  } else if (tools.length === 0) {
    body = (
      <EmptyState icon={<Icon node={PackageOpen} className="size-7 text-slate-500" />}>
        {CATALOGUE_MESSAGES.empty}
      </EmptyState>
    );
  } else if (visible.length === 0) {
    body = (
      <EmptyState icon={<Icon node={SearchX} className="size-7 text-slate-500" />}>
        {CATALOGUE_MESSAGES.noMatch}
      </EmptyState>
    );
  } else {
    body = (
      <>
        {checkout.testMode && (
          <p className="mb-6 flex items-start gap-2.5 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-950 ring-1 ring-amber-200">
            <Icon node={FlaskConical} className="mt-0.5 size-4 shrink-0 text-amber-800" />
            <span>
              <strong className="font-semibold">Test mode — payments are simulated.</strong> The checkout is a
              local stand-in and no real money moves. A new development shop offers a{' '}
              {DEVELOPMENT_EXAMPLES.trialDays}-day free trial of the {DEVELOPMENT_EXAMPLES.trialDevice}{' '}
              toolkit and the coupon {DEVELOPMENT_EXAMPLES.coupon.code} ({DEVELOPMENT_EXAMPLES.coupon.percent}
              % off).
            </span>
          </p>
        )}
        <ul
          className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3"
          onPointerOver={prefetchOnIntent}
          onFocus={prefetchOnIntent}
        >
          {visible.map((tool) => (
            <li key={tool._id}>
              <ToolCard
                tool={tool}
                currency={currency}
                processing={checkout.processingId === tool._id}
                sending={credentials.isSending(tool._id)}
                onBuy={checkout.buy}
                onGetCredentials={(t) => credentials.send(t._id)}
                trial={{ starting: trial.startingId === tool._id, onTry: tryFree }}
              />
            </li>
          ))}
        </ul>
      </>
    );
  }

  return (
    <>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <SearchBox value={query} onChange={setQuery} placeholder="Search tools..." label="Search tools" />
        <CurrencyToggle value={currency} onChange={setCurrency} />
      </div>
      {/* Space for about one row of cards is held while loading, so the page below does not jump. */}
      <div className="mt-8 min-h-96" aria-busy={loading && !loadFailed}>
        {body}
      </div>
    </>
  );
}

function EmptyState({ icon, children, role }: { icon: ReactNode; children: ReactNode; role?: 'alert' }) {
  return (
    <div
      role={role}
      className="flex min-h-72 flex-col items-center justify-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-slate-50 px-6 py-12 text-center"
    >
      {icon}
      <p className="max-w-md text-base text-slate-700">{children}</p>
    </div>
  );
}
