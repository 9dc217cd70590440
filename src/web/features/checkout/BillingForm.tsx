import { useEffect, useId, useRef, useState } from 'react';
import { BILLING_COUNTRY_INDIA, normaliseBilling, validateBilling } from '../../../shared/billing';
import { isKnownCountry } from '../../../shared/countries';
import { findIndianState } from '../../../shared/indian-states';
import { formatSubunits } from '../../../shared/money';
import { parseSeats, SEATS_MESSAGE } from '../../../shared/seats';
import { SHOP_MESSAGES } from '../../../shared/shop';
import { IndianBillingFields } from '../../components/billing/IndianBillingFields';
import { OrderSummary } from '../../components/billing/OrderSummary';
import { FormError, PrimaryButton, SecondaryButton, useForm } from '../../components/form';
import { announce } from '../../lib/announce';
import { ApiError } from '../../lib/api';
import type { BillingDraft } from '../../lib/purchase-intent';
import { COUNTRY_OPTIONS, CountryField } from './CountryField';
import { CouponField } from './CouponField';
import { EditionField } from './EditionField';
import { SeatsField } from './SeatsField';
import { type BillingFormProps, editionOf } from './types';
import { useQuote } from './useQuote';

const FIELDS = ['address', 'state', 'country', 'gstin', 'seats'] as const;

/**
 * The billing details asked before payment (docs/product.md §2, §5), with the edition (of a tool with editions), the
 * seats, the coupon and the server's price for them. INR orders: address, state, India, optional GSTIN. Other
 * currencies: the country only. An upgrade or a renewal asks no seats: it is priced for all of its license's.
 */
export function BillingForm({
  currency,
  summary,
  draft,
  defaultCountry,
  onCancel,
  onSubmit,
  toolId,
  onDraftChange,
  addSeatsTo,
  editions,
  change,
}: BillingFormProps) {
  const domestic = currency === 'INR';
  const prefix = useId();
  const idOf = (field: string) => `${prefix}-${field}`;
  const form = useForm({
    initial: {
      address: draft?.address ?? '',
      state: draft?.state ?? '',
      country:
        draft?.country ?? (defaultCountry && COUNTRY_OPTIONS.includes(defaultCountry) ? defaultCountry : ''),
      gstin: draft?.gstin ?? '',
      seats: draft?.seats || '1',
    },
    fields: FIELDS,
    idOf,
    serverPath: 'billingDetails',
  });
  const { values, errors } = form;
  // An upgrade or a renewal is of all the license's seats, which the server knows: it is asked as one order.
  const seats = change ? 1 : parseSeats(values.seats);
  // The edition chosen of a tool with editions: the one chosen last time, else the lowest.
  const [editionId, setEditionId] = useState(
    () => (editions?.find((edition) => edition.id === draft?.editionId) ?? editions?.[0])?.id,
  );
  const { quote, quoting, couponCode, setCouponCode, checkFailed } = useQuote({
    toolId,
    ...change,
    editionId: editionOf(change, editionId),
    currency,
    seats,
    state: domestic && findIndianState(values.state) ? values.state : '',
    country: !domestic && isKnownCountry(values.country) ? values.country : '',
    initialCode: draft?.couponCode || null,
  });
  const applied = quote?.coupon?.applied ? quote.coupon : null;
  const refusal = quote?.coupon && !quote.coupon.applied ? quote.coupon.message : checkFailed;
  // The coupon field starts again empty after Remove.
  const [couponFieldKey, setCouponFieldKey] = useState(0);

  const draftRef = useRef(onDraftChange);
  draftRef.current = onDraftChange;
  useEffect(() => {
    draftRef.current?.({ ...values, couponCode: couponCode ?? '', editionId });
  }, [values, couponCode, editionId]);

  const removeCoupon = () => {
    setCouponCode(null);
    setCouponFieldKey((key) => key + 1);
    announce('Coupon removed.');
    // The Remove button goes with the coupon: focus goes to the emptied code field.
    window.setTimeout(() => document.getElementById(idOf('coupon'))?.focus());
  };
  const input = (typed: BillingDraft) =>
    domestic
      ? {
          address: typed.address,
          state: typed.state,
          country: BILLING_COUNTRY_INDIA,
          gstin: typed.gstin,
          currency,
        }
      : { country: typed.country, currency };

  const submit = form.submit({
    validate: (typed) => ({
      ...(!change && parseSeats(typed.seats) === null ? { seats: SEATS_MESSAGE } : {}),
      ...validateBilling(input(typed)),
    }),
    send: (typed) =>
      onSubmit(
        normaliseBilling(input(typed)),
        { ...typed, couponCode: couponCode ?? '', editionId },
        {
          couponCode: applied?.code,
          seats: (change ? 1 : parseSeats(typed.seats)) ?? 1,
          ...(editionId ? { editionId } : {}),
        },
      ),
    // A code refused when the order was made (its last use went meanwhile) says why; anything else, the spec's words.
    // The seats are named outside billingDetails: their refusal (a team grown past its limit) goes on their field.
    explain: (failure, onFields) => {
      const seatsRefused = failure instanceof ApiError ? failure.body?.fieldErrors?.seats : undefined;
      if (seatsRefused) form.setErrors({ seats: seatsRefused });
      return onFields || seatsRefused
        ? null
        : failure instanceof ApiError && failure.body?.code === 'coupon_refused'
          ? (failure.serverMessage ?? SHOP_MESSAGES.purchase.createFailed)
          : SHOP_MESSAGES.purchase.createFailed;
    },
  });

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <div className="rounded-xl border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700">
        {typeof summary === 'function'
          ? summary(editions?.find((edition) => edition.id === editionId))
          : summary}
        {domestic && <p className="mt-1 text-slate-600">Prices include GST.</p>}
      </div>

      {editions && editionId && (
        <EditionField
          name={idOf('edition')}
          editions={editions}
          currency={currency}
          value={editionId}
          onChange={setEditionId}
        />
      )}

      {domestic ? (
        <IndianBillingFields idOf={idOf} values={values} errors={errors} set={form.set} checkout />
      ) : (
        <CountryField
          id={idOf('country')}
          value={values.country}
          error={errors.country}
          onChange={form.change('country')}
        />
      )}

      {!change && (
        <SeatsField
          id={idOf('seats')}
          value={values.seats}
          error={errors.seats}
          onChange={(seats) => form.set('seats', seats)}
          addSeatsTo={addSeatsTo}
        />
      )}

      {(toolId || change) && (
        <CouponField
          key={couponFieldKey}
          id={idOf('coupon')}
          currency={currency}
          initialCode={couponCode ?? undefined}
          applied={
            applied && quote ? { code: applied.code, discount: quote.discount, total: quote.total } : null
          }
          refusal={refusal}
          busy={quoting && couponCode !== null}
          onApply={setCouponCode}
          onEdit={() => setCouponCode(null)}
        />
      )}

      {quote && (
        <OrderSummary
          quote={quote}
          seats={quote.seats}
          couponCode={applied?.code ?? null}
          onRemoveCoupon={removeCoupon}
        />
      )}

      <FormError message={form.formError} />
      {/* Drawn in the order Tab takes them at every width: Cancel first (above on phones, left on wider screens). */}
      <div className="flex flex-col justify-end gap-3 pt-2 md:flex-row">
        <SecondaryButton onClick={onCancel}>Cancel</SecondaryButton>
        <PrimaryButton size="inline" busy={form.busy !== null}>
          {/* The spec's words, and beside them the amount the payment will ask for (the quote's total). */}
          Proceed to Payment
          {quote?.seats === seats && quote.editionId === editionOf(change, editionId)
            ? ` · Pay ${formatSubunits(quote.total, quote.currency)}`
            : ''}
        </PrimaryButton>
      </div>
    </form>
  );
}
