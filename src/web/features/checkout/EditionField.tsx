import type { Currency } from '../../../shared/constants';
import type { ToolEditionView } from '../../../shared/editions';
import { formatPrice } from '../../../shared/money';
import { editionFeatures, editionPrice } from '../../components/tools/editions';

/**
 * Which edition of the tool the order buys (decision 056): a radio group, one choice always made (the lowest to start
 * with), each with its price in the order's currency and what it gives. Arrow keys move the choice, as in any radio
 * group.
 */
export function EditionField({
  name,
  editions,
  currency,
  value,
  onChange,
}: {
  /** The radios' group name, unique on the page. */
  name: string;
  editions: ToolEditionView[];
  currency: Currency;
  value: string;
  onChange: (editionId: string) => void;
}) {
  return (
    <fieldset>
      <legend className="mb-1.5 text-sm font-medium text-slate-800">Edition</legend>
      <div className="grid gap-2">
        {editions.map((edition) => (
          <label
            key={edition.id}
            className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 px-3.5 py-2.5 text-sm has-checked:border-brand-600 has-checked:bg-brand-50"
          >
            <input
              type="radio"
              name={name}
              value={edition.id}
              checked={value === edition.id}
              onChange={() => onChange(edition.id)}
              className="mt-0.5 size-4 accent-brand-800"
            />
            <span className="min-w-0 flex-1">
              <span className="font-semibold text-brand-900">{edition.name}</span>{' '}
              <span className="block text-slate-600">{editionFeatures(edition)}</span>
            </span>
            <span className="shrink-0 font-semibold text-brand-900 tabular-nums">
              {formatPrice(editionPrice(edition, currency), currency)}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
