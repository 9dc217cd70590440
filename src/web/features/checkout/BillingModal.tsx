import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { BILLING_COUNTRY_INDIA, normaliseBilling, validateBilling } from '../../../shared/billing';
import type { CheckoutQuote } from '../../../shared/checkout-quote';
import type { Currency } from '../../../shared/constants';
import { COUNTRIES, isKnownCountry } from '../../../shared/countries';
import { findIndianState } from '../../../shared/indian-states';
import { BILLING_FIELD_LABELS, formatSubunits } from '../../../shared/money';
import { MAX_SEATS, parseSeats, SEATS_MESSAGE } from '../../../shared/seats';
import { type BillingDetails, SHOP_MESSAGES } from '../../../shared/shop';
import { IndianBillingFields } from '../../components/billing/IndianBillingFields';
import { OrderSummary } from '../../components/billing/OrderSummary';
import {
  controlProps,
  Field,
  FormError,
  inputClass,
  PrimaryButton,
  SecondaryButton,
  Select,
  useForm,
} from '../../components/form/index';
import { Modal } from '../../components/Modal';
import { announce } from '../../lib/announce';
import { ApiError } from '../../lib/api';
import type { BillingDraft } from '../../lib/purchase-intent';
import { checkoutApi } from './api';
import { CouponField } from './CouponField';

/** Said when the quote itself failed (no answer, a server error): never a reason the server did not give. */
const CHECK_FAILED = 'The code could not be checked. Please try again.';

const COUNTRY_OPTIONS = COUNTRIES.map((country) => country.name);

export function billingTitle(currency: Currency): string {
  return currency === 'INR' ? 'Billing Information' : 'Billing Information (International Order)';
}

/**
 * The billing details asked before payment (docs/product.md §2, §5). INR orders: address, state, India, optional
 * GSTIN. Other currencies: the country only. Closes on Cancel, Escape or a click on the backdrop.
 */
export function BillingModal({
  open,
  currency,
  summary,
  draft,
  defaultCountry,
  onCancel,
  onSubmit,
  returnFocus,
  toolId,
  onDraftChange,
  addSeatsTo,
}: {
  open: boolean;
  /** "Add seats" (issue 54): the number of seats the buyer's team has now; the form asks how many more. */
  addSeatsTo?: number;
  /** Everything typed, as it is typed (and the applied coupon): the page keeps it for the next attempt. */
  onDraftChange?: (draft: BillingDraft) => void;
  /** The tool being bought: with it the form offers the optional coupon code (checked by the server). */
  toolId?: string;
  /** Where focus goes on close when the page opened the dialog itself (a purchase carried on after signing in). */
  returnFocus?: () => HTMLElement | null;
  currency: Currency;
  /** What is being bought and for how much, shown above the form. */
  summary: ReactNode;
  /** What the buyer typed last time (a checkout they closed), to start from. */
  draft?: BillingDraft;
  /** Preselected for an international order (the detected country), when known. */
  defaultCountry?: string;
  onCancel: () => void;
  /**
   * The details as the order takes them, and as typed (to start from next time); settles once the payment has
   * started, or fails with the server's answer.
   */
  onSubmit: (billing: BillingDetails, draft: BillingDraft, order: OrderChoice) => Promise<void>;
}) {
  useEffect(() => {
    // Fire and forget (checkout recovery): the dialog works the same whether or not the server remembered it.
    if (open && toolId) checkoutApi.checkoutOpened({ toolId }).catch(() => undefined);
  }, [open, toolId]);
  return (
    <Modal
      open={open}
      onClose={onCancel}
      title={billingTitle(currency)}
      className="max-w-lg"
      returnFocus={returnFocus}
    >
      <BillingForm
        currency={currency}
        summary={summary}
        draft={draft}
        defaultCountry={defaultCountry}
        onCancel={onCancel}
        onSubmit={onSubmit}
        toolId={toolId}
        onDraftChange={onDraftChange}
        addSeatsTo={addSeatsTo}
      />
    </Modal>
  );
}

/** What the order buys beyond the billing details: the coupon applied and the number of seats. */
export type OrderChoice = { couponCode?: string; seats: number };

const FIELDS = ['address', 'state', 'country', 'gstin', 'seats'] as const;

function BillingForm({
  currency,
  summary,
  draft,
  defaultCountry,
  onCancel,
  onSubmit,
  toolId,
  onDraftChange,
  addSeatsTo,
}: {
  onDraftChange?: (draft: BillingDraft) => void;
  currency: Currency;
  summary: ReactNode;
  draft?: BillingDraft;
  defaultCountry?: string;
  onCancel: () => void;
  onSubmit: (billing: BillingDetails, draft: BillingDraft, order: OrderChoice) => Promise<void>;
  toolId?: string;
  addSeatsTo?: number;
}) {
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
  const seats = parseSeats(values.seats);
  const { quote, quoting, couponCode, setCouponCode, checkFailed } = useQuote({
    toolId,
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
    draftRef.current?.({ ...values, couponCode: couponCode ?? '' });
  }, [values, couponCode]);

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
      ...(parseSeats(typed.seats) === null ? { seats: SEATS_MESSAGE } : {}),
      ...validateBilling(input(typed)),
    }),
    send: (typed) =>
      onSubmit(
        normaliseBilling(input(typed)),
        { ...typed, couponCode: couponCode ?? '' },
        { couponCode: applied?.code, seats: parseSeats(typed.seats) ?? 1 },
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
        {summary}
        {domestic && <p className="mt-1 text-slate-600">Prices include GST.</p>}
      </div>

      {domestic ? (
        <IndianBillingFields idOf={idOf} values={values} errors={errors} set={form.set} checkout />
      ) : (
        <Field id={idOf('country')} label={BILLING_FIELD_LABELS.country} required error={errors.country}>
          <Select
            id={idOf('country')}
            aria-required="true"
            value={values.country}
            onValueChange={form.change('country')}
            autoComplete="country-name"
            options={COUNTRY_OPTIONS}
            placeholder="Select a country"
            error={errors.country}
          />
        </Field>
      )}

      <Field
        id={idOf('seats')}
        label={addSeatsTo ? 'Seats to add' : 'Seats'}
        required
        hint={
          addSeatsTo
            ? `Your team has ${addSeatsTo} ${addSeatsTo === 1 ? 'seat' : 'seats'}. Each new seat is one more person.`
            : 'One seat for yourself; more make a team, and you invite each person by email.'
        }
        error={errors.seats}
      >
        <input
          {...controlProps(idOf('seats'), errors.seats, true)}
          type="number"
          inputMode="numeric"
          required
          min={1}
          max={MAX_SEATS}
          step={1}
          value={values.seats}
          onChange={(event) => form.set('seats', event.target.value)}
          className={inputClass(Boolean(errors.seats))}
        />
      </Field>

      {toolId && (
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
          {quote?.seats === seats ? ` · Pay ${formatSubunits(quote.total, quote.currency)}` : ''}
        </PrimaryButton>
      </div>
    </form>
  );
}

/**
 * The server's price for what the form says now (POST /api/checkout/quote): asked again when the number of seats,
 * the state, the country or the coupon changes, a moment after the last change (a number typed or stepped through
 * asks once). An answer that arrives after a newer question is dropped; no number of seats, no price. An applied
 * code is announced with its effect; a refused one is a normal answer whose reason shows on the field.
 */
function useQuote({
  toolId,
  currency,
  seats,
  state,
  country,
  initialCode,
}: {
  toolId?: string;
  currency: Currency;
  seats: number | null;
  state: string;
  country: string;
  initialCode: string | null;
}) {
  // With the number of seats it prices: the summary says what the amounts are for while a newer number is asked.
  const [quote, setQuote] = useState<(CheckoutQuote & { seats: number }) | null>(null);
  const [quoting, setQuoting] = useState(false);
  const [couponCode, setCode] = useState<string | null>(initialCode);
  const [checkFailed, setCheckFailed] = useState<string | null>(null);
  const announceResult = useRef(false);

  const quoted = useRef(false);
  useEffect(() => {
    if (!toolId) return;
    if (seats === null) {
      setQuote(null);
      setQuoting(false);
      return;
    }
    let current = true;
    setQuoting(true);
    const ask = () =>
      checkoutApi
        .quote({
          toolId,
          currency,
          state,
          seats,
          ...(country ? { country } : {}),
          ...(couponCode ? { couponCode } : {}),
        })
        .then(
          (answer) => {
            if (!current) return;
            setQuote({ ...answer, seats });
            setCheckFailed(null);
            if (announceResult.current && answer.coupon) {
              announce(
                answer.coupon.applied
                  ? `Coupon ${answer.coupon.code} applied: ${formatSubunits(answer.discount, currency)} off, new price ${formatSubunits(answer.total, currency)}.`
                  : answer.coupon.message,
              );
            }
          },
          (failure: unknown) => {
            if (!current) return;
            setQuote(null);
            const message = (failure instanceof ApiError && failure.serverMessage) || CHECK_FAILED;
            if (couponCode) {
              setCheckFailed(message);
              if (announceResult.current) announce(message);
            }
          },
        )
        .finally(() => {
          if (!current) return;
          setQuoting(false);
          announceResult.current = false;
        });
    const timer = window.setTimeout(ask, quoted.current ? 300 : 0);
    quoted.current = true;
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [toolId, currency, seats, state, country, couponCode]);

  const setCouponCode = (code: string | null) => {
    announceResult.current = code !== null;
    setCheckFailed(null);
    setCode(code);
  };
  return { quote, quoting, couponCode, setCouponCode, checkFailed };
}
