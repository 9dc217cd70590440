import { BadgeCheck, Clock, Hourglass, Infinity as InfinityIcon, KeyRound, LoaderCircle } from 'lucide';
import type { Currency } from '../../../shared/constants';
import { TRUNCATE_WORDS } from '../../../shared/constants';
import { displayPrice, formatPrice } from '../../../shared/money';
import type { Tool } from '../../../shared/shop';
import { trialDaysLeft } from '../../../shared/trials';
import { busyButtonProps } from '../../components/form/buttons';
import { Icon } from '../../components/Icon';
import { editionFeatures, editionPrice } from '../../components/tools/editions';
import { ToolIcon } from '../../components/tools/ToolIcon';
import { TruncatedText } from '../../components/tools/TruncatedText';
import { getCredentialsName, toolTitle, withToolName } from '../../components/tools/toolTitle';

/**
 * The buy button's words (docs/product.md §4): '{device} - price', or 'Purchase - price' for a tool with no
 * device. A tool with editions costs what its lowest edition does, the one its checkout starts with.
 */
export function buyLabel(tool: Tool, currency: Currency): string {
  const [lowest] = tool.editions ?? [];
  const price = lowest ? editionPrice(lowest, currency) : displayPrice(tool, currency);
  return `${tool.device ?? 'Purchase'} - ${formatPrice(price, currency)}`;
}

/** The buy button's accessible name: its words, then which tool it buys ('Windows - ₹1,499.00: buy PDF …'). */
export const buyName = (tool: Tool, currency: Currency) =>
  `${buyLabel(tool, currency)}: buy ${toolTitle(tool)}`;

/** "Try free for 14 days", with the tool in its accessible name; the same name while the trial starts. */
export const tryFreeWords = (tool: Tool) => `Try free for ${tool.trialDays} days`;

/** A tool card's action button (Buy, Processing..., Get Credentials): one element whatever it says. */
export const toolAction = (toolId: string) =>
  document.querySelector<HTMLElement>(`[data-tool-action="${CSS.escape(toolId)}"]`);

const buttonBase =
  'inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold transition-colors';

type ToolCardProps = {
  tool: Tool;
  currency: Currency;
  processing: boolean;
  sending: boolean;
  onBuy: (tool: Tool) => void;
  onGetCredentials: (tool: Tool) => void;
  /** The free trial, under the action button (docs/decisions/035-trials.md); absent: no trial offered. */
  trial?: { starting: boolean; onTry: (tool: Tool) => void };
};

/** The catalogue's badge for the visitor's trial of a tool: 'Trial: 3 days left', or 'Trial ended'. */
export function catalogueTrialLabel(trialEndsAt: string, now = new Date()): string {
  const left = trialDaysLeft(trialEndsAt, now);
  return left === 0 ? 'Trial ended' : `Trial: ${left} ${left === 1 ? 'day' : 'days'} left`;
}

/** Whether the card offers "Try free": a tool with a trial the visitor neither owns nor has tried. */
export const offersTrial = (tool: Tool) =>
  tool.trialDays > 0 && !tool.purchased && !tool.trialStarted && !tool.comingSoon;

/**
 * One catalogue card (docs/product.md §2): badges, name, a 40-word description and the one action that fits
 * its state.
 */
export function ToolCard({
  tool,
  currency,
  processing,
  sending,
  onBuy,
  onGetCredentials,
  trial,
}: ToolCardProps) {
  const title = toolTitle(tool);
  return (
    <article
      aria-label={title}
      className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm shadow-slate-900/5 transition-shadow hover:shadow-md"
    >
      <div className="flex items-start justify-between gap-3">
        <span className="inline-flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
          <ToolIcon icon={tool.icon} device={tool.device} />
        </span>
        <div className="flex flex-wrap justify-end gap-2">
          {tool.purchased && (
            <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-semibold text-emerald-800 ring-1 ring-emerald-200">
              <Icon node={BadgeCheck} className="size-3.5" />
              Purchased
            </span>
          )}
          {!tool.purchased && tool.trialEndsAt && (
            <span className="inline-flex items-center gap-1 rounded-full bg-amber-50 px-2.5 py-1 text-xs font-semibold text-amber-900 ring-1 ring-amber-200">
              <Icon node={Hourglass} className="size-3.5" />
              {catalogueTrialLabel(tool.trialEndsAt)}
            </span>
          )}
          {!tool.purchased && tool.comingSoon && (
            <span className="inline-flex items-center gap-1 rounded-full bg-amber-50 px-2.5 py-1 text-xs font-semibold text-amber-900 ring-1 ring-amber-200">
              <Icon node={Clock} className="size-3.5" />
              Coming Soon
            </span>
          )}
        </div>
      </div>

      <h3 className="mt-5 text-lg leading-snug font-semibold text-brand-900">{title}</h3>
      {!tool.comingSoon && (
        <p className="mt-2">
          <span className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-2.5 py-1 text-xs font-semibold text-brand-700">
            <Icon node={InfinityIcon} className="size-3.5" />
            Lifetime Validity
          </span>
        </p>
      )}
      <TruncatedText text={tool.description} words={TRUNCATE_WORDS.catalogue} className="mt-4 mb-6" />
      {tool.editions && tool.editions.length > 0 && (
        <ul
          aria-label={`Editions of ${title}`}
          className="-mt-2 mb-6 divide-y divide-slate-100 rounded-xl border border-slate-200 text-sm"
        >
          {tool.editions.map((edition) => (
            <li key={edition.id} className="flex items-baseline justify-between gap-3 px-3 py-2">
              <span>
                <span className="font-semibold text-brand-900">{edition.name}</span>{' '}
                <span className="block text-slate-600">{editionFeatures(edition)}</span>
              </span>
              <span className="shrink-0 font-semibold text-brand-900 tabular-nums">
                {formatPrice(editionPrice(edition, currency), currency)}
              </span>
            </li>
          ))}
        </ul>
      )}

      <div className="mt-auto">
        <ToolAction
          tool={tool}
          currency={currency}
          processing={processing}
          sending={sending}
          onBuy={onBuy}
          onGetCredentials={onGetCredentials}
        />
        {trial && offersTrial(tool) && (
          <button
            type="button"
            data-trial-action={tool._id}
            {...busyButtonProps(trial.starting, () => trial.onTry(tool))}
            aria-label={withToolName(tryFreeWords(tool), tool)}
            className="mt-3 inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 aria-disabled:cursor-wait aria-disabled:opacity-70"
          >
            {trial.starting && (
              <Icon node={LoaderCircle} className="size-4 animate-spin motion-reduce:animate-none" />
            )}
            {trial.starting ? 'Starting your trial...' : tryFreeWords(tool)}
          </button>
        )}
      </div>
    </article>
  );
}

function ToolAction({ tool, currency, processing, sending, onBuy, onGetCredentials }: ToolCardProps) {
  if (tool.comingSoon && !tool.purchased) {
    return (
      <button
        type="button"
        disabled
        className={`${buttonBase} cursor-not-allowed bg-slate-100 text-slate-600`}
      >
        (Coming Soon)
      </button>
    );
  }
  if (processing) {
    return (
      <button
        type="button"
        data-tool-action={tool._id}
        {...busyButtonProps(true)}
        className={`${buttonBase} cursor-wait bg-brand-700 text-white opacity-80`}
      >
        <Icon node={LoaderCircle} className="size-4 animate-spin motion-reduce:animate-none" />
        Processing...
      </button>
    );
  }
  if (tool.purchased) {
    return (
      <button
        type="button"
        data-tool-action={tool._id}
        {...busyButtonProps(sending, () => onGetCredentials(tool))}
        aria-label={getCredentialsName(tool)}
        className={`${buttonBase} border border-brand-300 bg-white text-brand-800 hover:border-brand-500 hover:bg-brand-50 aria-disabled:cursor-wait aria-disabled:opacity-70`}
      >
        {sending ? (
          <Icon node={LoaderCircle} className="size-4 animate-spin motion-reduce:animate-none" />
        ) : (
          <Icon node={KeyRound} className="size-4" />
        )}
        {sending ? 'Sending...' : 'Get Credentials'}
      </button>
    );
  }
  return (
    <button
      type="button"
      data-tool-action={tool._id}
      onClick={() => onBuy(tool)}
      aria-label={buyName(tool, currency)}
      className={`${buttonBase} bg-brand-800 text-white shadow-sm hover:bg-brand-700`}
    >
      {buyLabel(tool, currency)}
    </button>
  );
}
