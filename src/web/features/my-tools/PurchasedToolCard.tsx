import { CalendarDays, Hourglass, KeyRound, LoaderCircle, ShoppingCart } from 'lucide';
import { type ComponentType, Suspense } from 'react';
import { useLocation } from 'wouter';
import { TRUNCATE_WORDS } from '../../../shared/constants';
import type { MyLicense } from '../../../shared/licenses';
import type { PurchasedTool } from '../../../shared/shop';
import { trialDaysLeft } from '../../../shared/trials';
import { busyButtonProps } from '../../components/form/buttons';
import { Icon } from '../../components/Icon';
import { ToolIcon } from '../../components/tools/ToolIcon';
import { TruncatedText } from '../../components/tools/TruncatedText';
import { getCredentialsName, toolTitle, withToolName } from '../../components/tools/toolTitle';
import { formatDate } from '../../lib/dates';
import { rememberPurchase } from '../../lib/purchase-intent';
import { LicensePanel, LicenseSecret } from './LicensePanel';
import { OfflineDisclosure } from './OfflineActions';
import type { LicensesState } from './useLicenses';
import { VersionPanel } from './VersionPanel';

/**
 * The panel of a team license the buyer owns (issue 54), which the page gives (features do not import each other;
 * it loads on demand, hence the Suspense around it).
 */
export type TeamPanelSlot = ComponentType<{ tool: PurchasedTool; licenseId: string }>;

/**
 * A license's edition with its upgrades (issue 64) and the end of its updates with their renewal (issue 65), which
 * the page gives (the checkout is part of it); it loads on demand, only for a license that has either.
 */
export type LicenseOffersSlot = ComponentType<{
  tool: PurchasedTool;
  license: MyLicense;
  onPurchased: () => void;
}>;

/** A license of a tool with editions, or with updates for a period: what LicenseOffersSlot shows. */
export const hasOffers = (license: MyLicense) => license.edition !== null || license.updatesUntil !== null;

/** 'Purchased: 22 Nov 2026', or N/A when the date is unknown. */
export function purchasedLabel(purchaseDate: string | null): string {
  const date = purchaseDate ? new Date(purchaseDate) : null;
  return `Purchased: ${date && !Number.isNaN(date.getTime()) ? formatDate(date) : 'N/A'}`;
}

/** A trial's line on My Tools: the days left, or that it has ended. */
export function trialLabel(trialEndsAt: string, now = new Date()): string {
  const left = trialDaysLeft(trialEndsAt, now);
  if (left === 0) return 'Free trial ended';
  return `Free trial · ${left} ${left === 1 ? 'day' : 'days'} left`;
}

/** The trial's end as a date: 'Ends on 12 Dec 2026', or 'Ended on …' once it has passed. */
export function trialEndLabel(trialEndsAt: string, now = new Date()): string {
  const ended = trialDaysLeft(trialEndsAt, now) === 0;
  return `${ended ? 'Ended' : 'Ends'} on ${formatDate(trialEndsAt)}`;
}

/**
 * A trial not bought yet, running or ended: its days left and end date, its key (or username) as the trial email
 * gave it, the installers while it runs, and "Buy — keeps this key", which opens the billing form on
 * /utility-tools; buying turns this license into the bought one (docs/decisions/035-trials.md).
 */
function TrialToolCard({
  tool,
  trialEndsAt,
  license,
  onActivatedOffline,
}: {
  tool: PurchasedTool;
  trialEndsAt: string;
  license: MyLicense | undefined;
  onActivatedOffline: () => void;
}) {
  const [, navigate] = useLocation();
  const buyNow = () => {
    rememberPurchase(tool._id, null);
    navigate('/utility-tools');
  };
  const running = trialDaysLeft(trialEndsAt, new Date()) > 0;
  return (
    <article
      aria-label={toolTitle(tool)}
      className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm shadow-slate-900/5"
    >
      <div className="flex items-start gap-4">
        <span className="inline-flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
          <ToolIcon icon={tool.icon} device={tool.device} />
        </span>
        <div className="min-w-0">
          <h3 className="text-lg leading-snug font-semibold text-brand-900">{toolTitle(tool)}</h3>
          <p className="mt-1 inline-flex items-center gap-1.5 text-sm font-medium text-amber-900">
            <Icon node={Hourglass} className="size-4" />
            {trialLabel(trialEndsAt)}
          </p>
          <p className="mt-0.5 inline-flex items-center gap-1.5 text-sm text-slate-600">
            <Icon node={CalendarDays} className="size-4" />
            {trialEndLabel(trialEndsAt)}
          </p>
        </div>
      </div>
      <TruncatedText text={tool.description} words={TRUNCATE_WORDS.myTools} className="mt-4 mb-6" />
      {/* The installers download while the trial runs, as the trial's email link does. */}
      {running && <VersionPanel tool={tool} title={toolTitle(tool)} />}
      {license && (
        <section
          aria-label={`Trial license of ${toolTitle(tool)}`}
          className="mb-6 rounded-xl border border-slate-200 bg-slate-50 p-4"
        >
          <LicenseSecret license={license} title={toolTitle(tool)} />
          <p className="mt-2 text-sm text-slate-600">
            {running
              ? 'Enter it in the tool to start the trial on one computer.'
              : 'The tool stopped at the end of the trial; buying brings it back with this key.'}
          </p>
          {running && license.offlineDays !== null && (
            <div className="mt-3 flex flex-wrap gap-2">
              <OfflineDisclosure
                label="Activate a computer without internet"
                form={{
                  kind: 'activate',
                  licenseId: license.licenseId,
                  toolName: tool.name,
                  offlineDays: license.offlineDays,
                  onDone: onActivatedOffline,
                }}
              />
            </div>
          )}
        </section>
      )}
      <button
        type="button"
        onClick={buyNow}
        aria-label={withToolName('Buy — keeps this key', tool)}
        className="mt-auto inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-lg bg-brand-800 px-4 py-2.5 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-brand-700"
      >
        <Icon node={ShoppingCart} className="size-4" />
        Buy — keeps this key
      </button>
    </article>
  );
}

/** One bought tool on My Tools: what it is, its license and devices, and "Get Credentials". */
export function PurchasedToolCard({
  tool,
  license,
  licenses,
  sending,
  onGetCredentials,
  teamPanel: TeamPanel,
  offers: Offers,
}: {
  tool: PurchasedTool;
  license: MyLicense | undefined;
  licenses: LicensesState;
  sending: boolean;
  onGetCredentials: () => void;
  teamPanel: TeamPanelSlot;
  offers: LicenseOffersSlot;
}) {
  if (tool.trialEndsAt) {
    return (
      <TrialToolCard
        tool={tool}
        trialEndsAt={tool.trialEndsAt}
        license={license}
        onActivatedOffline={licenses.reload}
      />
    );
  }
  return (
    <article
      data-tool-card={tool._id}
      aria-label={toolTitle(tool)}
      className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm shadow-slate-900/5"
    >
      <div className="flex items-start gap-4">
        <span className="inline-flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
          <ToolIcon icon={tool.icon} device={tool.device} />
        </span>
        <div className="min-w-0">
          <h3 className="text-lg leading-snug font-semibold text-brand-900">{toolTitle(tool)}</h3>
          <p className="mt-1 inline-flex items-center gap-1.5 text-sm text-slate-600">
            <Icon node={CalendarDays} className="size-4" />
            {purchasedLabel(tool.purchaseDate)}
          </p>
          {tool.teamOwner && (
            <p className="mt-0.5 text-sm text-slate-600">Seat from {tool.teamOwner.name}'s team</p>
          )}
        </div>
      </div>
      <TruncatedText text={tool.description} words={TRUNCATE_WORDS.myTools} className="mt-4 mb-6" />
      <VersionPanel tool={tool} title={toolTitle(tool)} />
      {license && (
        // The license shows once its offers' code is here too, so the card grows once.
        <Suspense fallback={null}>
          <LicensePanel license={license} toolName={tool.name} title={toolTitle(tool)} state={licenses} />
          {hasOffers(license) && <Offers tool={tool} license={license} onPurchased={licenses.reload} />}
        </Suspense>
      )}
      {tool.team && (
        <Suspense fallback={null}>
          <TeamPanel tool={tool} licenseId={tool.team.licenseId} />
        </Suspense>
      )}
      <button
        type="button"
        {...busyButtonProps(sending, onGetCredentials)}
        aria-label={getCredentialsName(tool)}
        className="mt-auto inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-lg bg-brand-800 px-4 py-2.5 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-brand-700 aria-disabled:cursor-wait aria-disabled:opacity-80"
      >
        {sending ? (
          <Icon node={LoaderCircle} className="size-4 animate-spin motion-reduce:animate-none" />
        ) : (
          <Icon node={KeyRound} className="size-4" />
        )}
        {sending ? 'Sending...' : 'Get Credentials'}
      </button>
    </article>
  );
}
