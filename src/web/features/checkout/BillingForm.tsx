import { useEffect, useId, useRef, useState } from 'react';
import {
  BILLING_COUNTRY_INDIA,
  gstinProblem,
  normaliseBilling,
  validateBilling,
} from '../../../shared/billing';
import { isKnownCountry } from '../../../shared/countries';
import { normaliseGstin } from '../../../shared/gstin';
import { findIndianState } from '../../../shared/indian-states';
import { formatSubunits } from '../../../shared/money';
import {
  mayPayAsFirm,
  normalisePan,
  PROFORMA_VALID_DAYS,
  panOfGstin,
  panProblem,
  TDS_RATE_PERCENT,
  TDS_SECTION,
} from '../../../shared/proforma';
import { parseSeats, SEATS_MESSAGE } from '../../../shared/seats';
import { SHOP_MESSAGES } from '../../../shared/shop';
import { IndianBillingFields } from '../../components/billing/IndianBillingFields';
import { OrderSummary } from '../../components/billing/OrderSummary';
import {
  Button,
  Checkbox,
  FormError,
  PrimaryButton,
  SecondaryButton,
  TextField,
  useForm,
} from '../../components/form';
import { announce } from '../../lib/announce';
import { ApiError } from '../../lib/api';
import type { BillingDraft } from '../../lib/purchase-intent';
import { COUNTRY_OPTIONS, CountryField } from './CountryField';
import { CouponField } from './CouponField';
import { EditionField } from './EditionField';
import { SeatsField } from './SeatsField';
import { type BillingFormProps, editionOf } from './types';
import { useQuote } from './useQuote';

const FIELDS = ['address', 'state', 'country', 'gstin', 'seats', 'pan'] as const;

type BillingValues = {
  address: string;
  state: string;
  country: string;
  gstin: string;
  seats: string;
  /** The buyer deducts TDS (issue 68), under this PAN. */
  tds: boolean;
  pan: string;
};

/**
 * The billing details asked before payment (docs/product.md §2, §5), with the edition (of a tool with editions), the
 * seats, the coupon and the server's price for them. INR orders: address, state, India, optional GSTIN. Other
 * currencies: the country only. An upgrade or a renewal asks no seats: it is priced for all of its license's. A
 * business buyer (a GSTIN) or a team of seats may declare TDS and ask for a proforma invoice instead of paying now
 * (issue 68).
 */
export function BillingForm({
  currency,
  summary,
  draft,
  defaultCountry,
  onCancel,
  onSubmit,
  onProforma,
  toolId,
  onDraftChange,
  addSeatsTo,
  teamLicenseId,
  editions,
  change,
}: BillingFormProps) {
  const domestic = currency === 'INR';
  const prefix = useId();
  const idOf = (field: string) => `${prefix}-${field}`;
  const form = useForm<BillingValues, (typeof FIELDS)[number], 'submit' | 'proforma'>({
    initial: {
      address: draft?.address ?? '',
      state: draft?.state ?? '',
      country:
        draft?.country ?? (defaultCountry && COUNTRY_OPTIONS.includes(defaultCountry) ? defaultCountry : ''),
      gstin: draft?.gstin ?? '',
      seats: draft?.seats || '1',
      tds: false,
      pan: '',
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
  const gstin = normaliseGstin(values.gstin);
  // A business (a well-formed GSTIN) or a team of seats may deduct TDS and pay against a proforma invoice.
  const asFirm = mayPayAsFirm({
    currency,
    gstin: gstin && !gstinProblem(gstin) ? gstin : '',
    seats: seats ?? 1,
    addsSeats: addSeatsTo !== undefined,
  });
  const tds = asFirm && values.tds;
  const { quote, quoting, couponCode, setCouponCode, checkFailed } = useQuote({
    toolId,
    teamLicenseId,
    ...change,
    editionId: editionOf(change, editionId),
    currency,
    seats,
    state: domestic && findIndianState(values.state) ? values.state : '',
    country: !domestic && isKnownCountry(values.country) ? values.country : '',
    initialCode: draft?.couponCode || null,
    tds,
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

  /** The form's two ways to go on, both checked alike: pay now, or ask for a proforma to pay against. */
  const action = (kind: 'submit' | 'proforma', go: NonNullable<BillingFormProps['onProforma']>) => ({
    kind,
    validate: (typed: BillingValues) => ({
      ...(!change && parseSeats(typed.seats) === null ? { seats: SEATS_MESSAGE } : {}),
      ...validateBilling(input(typed)),
      ...(tds && panProblem(normalisePan(typed.pan), gstin)
        ? { pan: panProblem(normalisePan(typed.pan), gstin) ?? '' }
        : {}),
    }),
    send: (typed: BillingValues) =>
      go(
        normaliseBilling(input(typed)),
        { ...typed, couponCode: couponCode ?? '', editionId },
        {
          couponCode: applied?.code,
          seats: (change ? 1 : parseSeats(typed.seats)) ?? 1,
          ...(editionId ? { editionId } : {}),
          ...(tds ? { tds: true, pan: normalisePan(typed.pan) } : {}),
        },
      ),
    // A code refused when the order was made (its last use went meanwhile) says why; anything else, the spec's words.
    // The seats and the PAN are named outside billingDetails: their refusals go on their fields.
    explain: (failure: unknown, onFields: boolean) => {
      const fieldErrors = failure instanceof ApiError ? failure.body?.fieldErrors : undefined;
      const outside = { seats: fieldErrors?.seats, pan: fieldErrors?.pan };
      if (outside.seats || outside.pan)
        form.setErrors(Object.fromEntries(Object.entries(outside).filter(([, message]) => message)));
      return onFields || outside.seats || outside.pan
        ? null
        : failure instanceof ApiError && (failure.body?.code === 'coupon_refused' || kind === 'proforma')
          ? (failure.serverMessage ?? SHOP_MESSAGES.purchase.createFailed)
          : SHOP_MESSAGES.purchase.createFailed;
    },
  });
  const submit = form.submit(action('submit', onSubmit));
  const askProforma = onProforma && (() => void form.run(action('proforma', onProforma)));
  const setTds = (checked: boolean) => {
    form.set('tds', checked);
    // The PAN a GSTIN holds is the one TDS is deducted under: filled in, still editable.
    if (checked && !values.pan) form.set('pan', panOfGstin(gstin));
  };

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

      {domestic && asFirm && (
        <fieldset className="space-y-2 rounded-xl border border-slate-200 px-4 py-3">
          <legend className="px-1 text-sm font-semibold text-brand-900">Buying as a business</legend>
          <Checkbox
            label={`We deduct TDS under section ${TDS_SECTION} (${TDS_RATE_PERCENT} % of the taxable value)`}
            checked={values.tds}
            onCheckedChange={setTds}
          />
          {values.tds && (
            <TextField
              {...form.field('pan')}
              label="PAN for TDS"
              required
              aria-required="true"
              autoComplete="off"
              autoCapitalize="characters"
              maxLength={14}
              hint="We issue the tax invoice for the full value; send us Form 16A from the order’s page."
            />
          )}
          {onProforma && (
            <p className="text-sm text-slate-600">
              Paying by bank transfer or with your accounts team? A proforma invoice holds this price for{' '}
              {PROFORMA_VALID_DAYS} days.
            </p>
          )}
        </fieldset>
      )}

      {quote && (
        <OrderSummary
          quote={quote}
          seats={quote.seats}
          couponCode={applied?.code ?? null}
          onRemoveCoupon={removeCoupon}
          stateChosen={!domestic || Boolean(findIndianState(values.state))}
        />
      )}

      <FormError message={form.formError} />
      {/* Drawn in the order Tab takes them at every width: Cancel first (above on phones, left on wider screens). */}
      <div className="flex flex-col justify-end gap-3 pt-2 md:flex-row">
        <SecondaryButton onClick={onCancel}>Cancel</SecondaryButton>
        {askProforma && domestic && asFirm && (
          <Button
            variant="secondary"
            className="min-h-11 px-5"
            busy={form.busy === 'proforma'}
            onClick={askProforma}
          >
            Get a proforma invoice
          </Button>
        )}
        <PrimaryButton size="inline" busy={form.busy === 'submit'}>
          {/* The spec's words, and beside them the amount the payment will ask for (the quote's total, less TDS). */}
          Proceed to Payment
          {quote?.seats === seats && quote.editionId === editionOf(change, editionId)
            ? ` · Pay ${formatSubunits(quote.amountDue, quote.currency)}`
            : ''}
        </PrimaryButton>
      </div>
    </form>
  );
}
