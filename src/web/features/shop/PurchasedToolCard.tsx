import { CalendarDays, Hourglass, KeyRound, LoaderCircle, ShoppingCart } from 'lucide';
import { useLocation } from 'wouter';
import { TRUNCATE_WORDS } from '../../../shared/constants';
import type { MyLicense } from '../../../shared/licenses';
import type { PurchasedTool } from '../../../shared/shop';
import { trialDaysLeft } from '../../../shared/trials';
import { busyButtonProps } from '../../components/form/buttons';
import { Icon } from '../../components/Icon';
import { rememberPurchase } from './intent';
import { LicensePanel } from './LicensePanel';
import { toolTitle } from './ToolCard';
import { ToolIcon } from './ToolIcon';
import { TruncatedText } from './TruncatedText';
import type { LicensesState } from './useLicenses';
import { VersionPanel } from './VersionPanel';

const purchaseDateFormat = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

/** 'Purchased: 22 Nov 2026', or N/A when the date is unknown. */
export function purchasedLabel(purchaseDate: string | null): string {
  const date = purchaseDate ? new Date(purchaseDate) : null;
  return `Purchased: ${date && !Number.isNaN(date.getTime()) ? purchaseDateFormat.format(date) : 'N/A'}`;
}

/** A trial's line on My Tools: the days left, or that it has ended. */
export function trialLabel(trialEndsAt: string, now = new Date()): string {
  const left = trialDaysLeft(trialEndsAt, now);
  if (left === 0) return 'Free trial ended';
  return `Free trial · ${left} ${left === 1 ? 'day' : 'days'} left`;
}

/** A trial not bought yet: its days left, and "Buy now", which opens the billing form on /utility-tools. */
function TrialToolCard({ tool, trialEndsAt }: { tool: PurchasedTool; trialEndsAt: string }) {
  const [, navigate] = useLocation();
  const buyNow = () => {
    rememberPurchase(tool._id, null);
    navigate('/utility-tools');
  };
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
        </div>
      </div>
      <TruncatedText text={tool.description} words={TRUNCATE_WORDS.myTools} className="mt-4 mb-6" />
      {/* The installers download while the trial runs, as the trial's email link does. */}
      {trialDaysLeft(trialEndsAt, new Date()) > 0 && <VersionPanel tool={tool} />}
      <button
        type="button"
        onClick={buyNow}
        className="mt-auto inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-lg bg-brand-800 px-4 py-2.5 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-brand-700"
      >
        <Icon node={ShoppingCart} className="size-4" />
        Buy now
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
}: {
  tool: PurchasedTool;
  license: MyLicense | undefined;
  licenses: LicensesState;
  sending: boolean;
  onGetCredentials: () => void;
}) {
  if (tool.trialEndsAt) return <TrialToolCard tool={tool} trialEndsAt={tool.trialEndsAt} />;
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
          <p className="mt-1 inline-flex items-center gap-1.5 text-sm text-slate-600">
            <Icon node={CalendarDays} className="size-4" />
            {purchasedLabel(tool.purchaseDate)}
          </p>
        </div>
      </div>
      <TruncatedText text={tool.description} words={TRUNCATE_WORDS.myTools} className="mt-4 mb-6" />
      <VersionPanel tool={tool} />
      {license && <LicensePanel license={license} state={licenses} />}
      <button
        type="button"
        {...busyButtonProps(sending, onGetCredentials)}
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
