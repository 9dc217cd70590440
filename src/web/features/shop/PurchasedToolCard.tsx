import { CalendarDays, KeyRound, LoaderCircle } from 'lucide';
import { TRUNCATE_WORDS } from '../../../shared/constants';
import type { MyLicense } from '../../../shared/licenses';
import type { PurchasedTool } from '../../../shared/shop';
import { busyButtonProps } from '../../components/form/buttons';
import { Icon } from '../../components/Icon';
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
