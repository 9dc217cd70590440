import { type ReactNode, useId, useState } from 'react';
import { BILLING_COUNTRY_INDIA, normaliseBilling, validateBilling } from '../../../shared/billing';
import type { Currency } from '../../../shared/constants';
import { COUNTRIES } from '../../../shared/countries';
import { INDIAN_STATE_NAMES } from '../../../shared/indian-states';
import { MAX_LENGTH } from '../../../shared/limits';
import { BILLING_FIELD_LABELS } from '../../../shared/money';
import { type BillingDetails, SHOP_MESSAGES } from '../../../shared/shop';
import {
  controlProps,
  Field,
  FormError,
  inputClass,
  PrimaryButton,
  SecondaryButton,
  Select,
  useForm,
} from '../../components/form';
import { Modal } from '../../components/Modal';
import { ApiError } from '../../lib/api';
import { type AppliedCoupon, CouponField } from './CouponField';
import { GstinField } from './GstinField';

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
}: {
  open: boolean;
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
  onSubmit: (billing: BillingDetails, draft: BillingDraft, couponCode?: string) => Promise<void>;
}) {
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
      />
    </Modal>
  );
}

/** What the buyer typed in the form, kept by the page so a second attempt starts from it. */
export type BillingDraft = { address: string; state: string; country: string; gstin: string };

const FIELDS = ['address', 'state', 'country', 'gstin'] as const;

function BillingForm({
  currency,
  summary,
  draft,
  defaultCountry,
  onCancel,
  onSubmit,
  toolId,
}: {
  currency: Currency;
  summary: ReactNode;
  draft?: BillingDraft;
  defaultCountry?: string;
  onCancel: () => void;
  onSubmit: (billing: BillingDetails, draft: BillingDraft, couponCode?: string) => Promise<void>;
  toolId?: string;
}) {
  const [coupon, setCoupon] = useState<AppliedCoupon | null>(null);
  const domestic = currency === 'INR';
  const prefix = useId();
  const idOf = (field: string) => `${prefix}-${field}`;
  const form = useForm({
    initial: draft ?? {
      address: '',
      state: '',
      country: defaultCountry && COUNTRY_OPTIONS.includes(defaultCountry) ? defaultCountry : '',
      gstin: '',
    },
    fields: FIELDS,
    idOf,
    serverPath: 'billingDetails',
  });
  const { values, errors } = form;
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
    validate: (typed) => validateBilling(input(typed)),
    send: (typed) => onSubmit(normaliseBilling(input(typed)), typed, coupon?.code),
    // A code refused when the order was made (its last use went meanwhile) says why; anything else, the spec's words.
    explain: (failure, onFields) =>
      onFields
        ? null
        : failure instanceof ApiError && failure.body?.code === 'coupon_refused'
          ? (failure.serverMessage ?? SHOP_MESSAGES.purchase.createFailed)
          : SHOP_MESSAGES.purchase.createFailed,
  });

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      <div className="rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-700 ring-1 ring-slate-200">
        {summary}
        {domestic && <p className="mt-1 text-slate-600">Prices include GST.</p>}
      </div>

      {domestic ? (
        <>
          <Field id={idOf('address')} label={BILLING_FIELD_LABELS.address} required error={errors.address}>
            <textarea
              {...controlProps(idOf('address'), errors.address)}
              required
              rows={2}
              value={values.address}
              onChange={(event) => form.set('address', event.target.value)}
              autoComplete="street-address"
              maxLength={MAX_LENGTH.billingAddress}
              className={`${inputClass(Boolean(errors.address))} resize-none`}
            />
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field id={idOf('state')} label={BILLING_FIELD_LABELS.state} required error={errors.state}>
              {/* aria-required, not required: an empty required select is reported invalid before anyone touches it. */}
              <Select
                id={idOf('state')}
                aria-required="true"
                value={values.state}
                onValueChange={form.change('state')}
                autoComplete="address-level1"
                options={INDIAN_STATE_NAMES}
                placeholder="Select a state"
                error={errors.state}
              />
            </Field>
            <Field id={idOf('country')} label={BILLING_FIELD_LABELS.country}>
              <input
                id={idOf('country')}
                value={BILLING_COUNTRY_INDIA}
                readOnly
                className={inputClass(false, true)}
              />
            </Field>
          </div>
          <GstinField
            id={idOf('gstin')}
            value={values.gstin}
            error={errors.gstin}
            onValueChange={form.change('gstin')}
          />
        </>
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

      {toolId && (
        <CouponField
          id={idOf('coupon')}
          toolId={toolId}
          currency={currency}
          applied={coupon}
          onApplied={setCoupon}
        />
      )}

      <FormError message={form.formError} />
      {/* Drawn in the order Tab takes them at every width: Cancel first (above on phones, left on wider screens). */}
      <div className="flex flex-col gap-3 pt-2 sm:flex-row sm:justify-end">
        <SecondaryButton onClick={onCancel}>Cancel</SecondaryButton>
        <PrimaryButton size="inline" busy={form.busy !== null}>
          Proceed to Payment
        </PrimaryButton>
      </div>
    </form>
  );
}
