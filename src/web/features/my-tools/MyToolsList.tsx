import { PackageOpen, SearchX, TriangleAlert } from 'lucide';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { SHOP_MESSAGES } from '../../../shared/shop';
import { Icon } from '../../components/Icon';
import { matchesSearch, SearchBox } from '../../components/SearchBox';
import { Spinner } from '../../components/Spinner';
import { useSendCredentials } from '../../components/tools/useSendCredentials';
import { ApiError } from '../../lib/api';
import { useQuery } from '../../lib/useQuery';
import { useAuth } from '../../session/AuthContext';
import { myToolsApi } from './api';
import { type LicenseOffersSlot, PurchasedToolCard, type TeamPanelSlot } from './PurchasedToolCard';
import { useLicenses } from './useLicenses';

const MY_TOOLS_MESSAGES = SHOP_MESSAGES.myTools;

/**
 * The buyer's tools and trials (docs/product.md §2). A visitor who is not signed in gets the page's sign-in prompt
 * (layout/SignInGate.tsx) once the check says so, or when the session ends between the check and the list (401).
 */
export function MyToolsList({ teamPanel, offers }: { teamPanel: TeamPanelSlot; offers: LicenseOffersSlot }) {
  const [query, setQuery] = useState('');
  const credentials = useSendCredentials();
  const { checked, loggedIn, refresh } = useAuth();
  const licenses = useLicenses(checked && loggedIn);
  const signedOut = (error: unknown) => error instanceof ApiError && error.status === 401;

  // Ask for the list only once the auth check says someone is signed in: a visitor who is not gets redirected by
  // the AuthProvider without a 401 in the console.
  const list = useQuery(checked && loggedIn ? 'my-tools' : null, myToolsApi.myTools, (error) => {
    // The session ended: checking again shows the page's sign-in prompt.
    if (signedOut(error)) void refresh();
    else console.error('Failed to load purchased tools', error);
  });
  const tools = list.data;
  const loadFailed = list.error !== null && !signedOut(list.error);

  // Arriving from an accepted team invitation: the new tool's card takes focus (seatArrival.ts, loaded only then).
  useEffect(() => {
    const seatOf = (window.history.state as { seatOf?: unknown } | null)?.seatOf;
    if (tools && seatOf) void import('./seatArrival').then((module) => module.greetSeat(tools, seatOf));
  }, [tools]);

  const visible = useMemo(
    () => tools?.filter((tool) => matchesSearch(query, tool.name, tool.description, tool.device)) ?? [],
    [tools, query],
  );

  let body: ReactNode;
  if (loadFailed) {
    body = (
      <div
        role="alert"
        className="flex min-h-72 flex-col items-center justify-center gap-3 rounded-2xl border border-dashed border-red-200 bg-red-50 px-6 py-12 text-center"
      >
        <Icon node={TriangleAlert} className="size-7 text-red-700" />
        <p className="text-base text-red-800">{MY_TOOLS_MESSAGES.loadFailed}</p>
      </div>
    );
  } else if (!tools) {
    body = <Spinner label="Loading your tools" className="min-h-72" />;
  } else if (tools.length === 0) {
    body = (
      <div className="flex min-h-72 flex-col items-center justify-center gap-4 rounded-2xl border border-dashed border-slate-300 bg-slate-50 px-6 py-12 text-center">
        <Icon node={PackageOpen} className="size-8 text-slate-500" />
        <p className="text-base text-slate-700">{MY_TOOLS_MESSAGES.empty}</p>
        <Link
          to="/utility-tools"
          className="inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-800 px-5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
        >
          Browse Available Tools
        </Link>
      </div>
    );
  } else if (visible.length === 0) {
    body = (
      <div className="flex min-h-72 flex-col items-center justify-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-slate-50 px-6 py-12 text-center">
        <Icon node={SearchX} className="size-7 text-slate-500" />
        <p className="text-base text-slate-700">{MY_TOOLS_MESSAGES.noMatch}</p>
      </div>
    );
  } else {
    body = (
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {visible.map((tool) => (
          <li key={tool._id}>
            <PurchasedToolCard
              tool={tool}
              license={licenses.licenseFor(tool._id)}
              licenses={licenses}
              sending={credentials.isSending(tool._id)}
              onGetCredentials={() => credentials.send(tool._id)}
              teamPanel={teamPanel}
              offers={offers}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <>
      <SearchBox
        value={query}
        onChange={setQuery}
        placeholder="Search your tools..."
        label="Search your tools"
      />
      <div className="mt-8 min-h-80" aria-busy={!tools && !loadFailed}>
        {body}
      </div>
    </>
  );
}
