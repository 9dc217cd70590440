import { CURRENCIES, type Currency } from '../../../shared/constants';
import { CURRENCY_SYMBOLS } from '../../../shared/money';

/** The INR/USD switch (docs/product.md §2, §4): two pressed/unpressed buttons in a labelled group. */
export function CurrencyToggle({
  value,
  onChange,
}: {
  value: Currency | null;
  onChange: (currency: Currency) => void;
}) {
  return (
    <fieldset className="inline-flex shrink-0 items-center gap-3">
      <legend className="sr-only">Currency</legend>
      <span aria-hidden="true" className="text-sm font-medium text-slate-600">
        Currency
      </span>
      <div className="inline-flex rounded-lg border border-slate-300 bg-slate-100 p-1">
        {CURRENCIES.map((currency) => {
          const active = value === currency;
          return (
            <button
              key={currency}
              type="button"
              aria-pressed={active}
              onClick={() => onChange(currency)}
              className={`min-w-16 rounded-md px-3 py-1.5 text-sm font-semibold transition-colors ${
                active ? 'bg-white text-brand-900 shadow-sm' : 'text-slate-600 hover:text-brand-900'
              }`}
            >
              <span aria-hidden="true">{CURRENCY_SYMBOLS[currency]} </span>
              {currency}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}
