import type { CheckoutQuote } from '../../../shared/checkout-quote';
import { formatSubunits } from '../../../shared/money';
import { TDS_RATE_PERCENT, TDS_SECTION } from '../../../shared/proforma';

/**
 * The order summary above the pay button: the server's quote, line by line as the tax invoice will print it
 * (list price, coupon, discount, taxable value, the GST lines, total). Prices include GST, so the lines add up to
 * the total from the taxable value. A buyer deducting TDS (issue 68) sees it taken off the total, and what is due.
 */
export function OrderSummary({
  quote,
  seats = 1,
  couponCode,
  onRemoveCoupon,
  title = 'Order summary',
  stateChosen = true,
}: {
  quote: Omit<CheckoutQuote, 'coupon'>;
  /** How many seats the list price is for: more than one shows them as the invoice line does, "5 × ₹1,499.00". */
  seats?: number;
  /** The coupon applied, if any. */
  couponCode: string | null;
  /** In the checkout, the coupon can be taken off; an order's page only shows it. */
  onRemoveCoupon?: () => void;
  title?: string;
  /**
   * Whether the buyer has chosen their state: until then GST is one line, since whether it is CGST + SGST or IGST
   * depends on it (issue 63).
   */
  stateChosen?: boolean;
}) {
  const money = (amount: number) => formatSubunits(amount, quote.currency);
  const sum = (of: (line: (typeof quote.taxes)[number]) => number) =>
    quote.taxes.reduce((total, line) => total + of(line), 0);
  const applied = couponCode ? { code: couponCode } : null;
  return (
    <section aria-label={title} className="rounded-xl border border-slate-200 px-4 py-3 text-sm">
      <h3 className="mb-1.5 font-semibold text-brand-900">{title}</h3>
      <dl className="grid gap-1.5 text-slate-700">
        <Row
          label={seats > 1 ? `List price (${seats} × ${money(quote.listPrice / seats)})` : 'List price'}
          value={money(quote.listPrice)}
        />
        {applied && (
          <div className="flex items-center justify-between gap-4">
            <dt className="flex flex-wrap items-center gap-2">
              <span>
                Coupon <span className="font-mono font-semibold text-slate-900">{applied.code}</span>
              </span>
              {onRemoveCoupon && (
                <button
                  type="button"
                  onClick={onRemoveCoupon}
                  aria-label={`Remove coupon ${applied.code}`}
                  className="rounded-sm text-sm font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-900"
                >
                  Remove
                </button>
              )}
            </dt>
            <dd className="shrink-0 tabular-nums">−{money(quote.discount)}</dd>
          </div>
        )}
        <Row label="Taxable value" value={money(quote.taxableValue)} />
        {stateChosen || quote.taxes.length === 0 ? (
          quote.taxes.map((line) => (
            <Row key={line.name} label={`${line.name} ${line.rate} %`} value={money(line.amount)} />
          ))
        ) : (
          <Row
            label={`GST ${sum((line) => line.rate)} % (split by the state you choose)`}
            value={money(sum((line) => line.amount))}
          />
        )}
        <div className="flex items-baseline justify-between gap-4 border-t border-slate-200 pt-2 text-base font-semibold text-brand-900">
          <dt>Total</dt>
          <dd className="tabular-nums" data-testid="order-total">
            {money(quote.total)}
          </dd>
        </div>
        {quote.tds > 0 && (
          <>
            <Row
              label={`Less TDS, s. ${TDS_SECTION} (${TDS_RATE_PERCENT} % of taxable value)`}
              value={`−${money(quote.tds)}`}
            />
            <div className="flex items-baseline justify-between gap-4 border-t border-slate-200 pt-2 text-base font-semibold text-brand-900">
              <dt>Amount due</dt>
              <dd className="tabular-nums" data-testid="order-amount-due">
                {money(quote.amountDue)}
              </dd>
            </div>
          </>
        )}
      </dl>
    </section>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <dt>{label}</dt>
      <dd className="shrink-0 tabular-nums">{value}</dd>
    </div>
  );
}
