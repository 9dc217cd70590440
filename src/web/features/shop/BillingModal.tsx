import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import {
  BILLING_COUNTRY_INDIA,
  type BillingFieldErrors,
  normaliseBilling,
  validateBilling,
} from '../../../shared/billing';
import type { Currency } from '../../../shared/constants';
import { COUNTRIES } from '../../../shared/countries';
import { INDIAN_STATE_NAMES } from '../../../shared/indian-states';
import { MAX_LENGTH } from '../../../shared/limits';
import { BILLING_FIELD_LABELS } from '../../../shared/money';
import type { BillingDetails } from '../../../shared/shop';
import {
  controlProps,
  Field,
  inputClass,
  PrimaryButton,
  SecondaryButton,
  Select,
} from '../../components/form';
import { Modal } from '../../components/Modal';
import { GstinField } from './GstinField';

type BillingField = keyof BillingFieldErrors;

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
  defaultCountry,
  onCancel,
  onSubmit,
}: {
  open: boolean;
  currency: Currency;
  /** What is being bought and for how much, shown above the form. */
  summary: ReactNode;
  /** Preselected for an international order (the detected country), when known. */
  defaultCountry?: string;
  onCancel: () => void;
  onSubmit: (billing: BillingDetails) => void;
}) {
  return (
    <Modal open={open} onClose={onCancel} title={billingTitle(currency)} className="max-w-lg">
      <BillingForm
        currency={currency}
        summary={summary}
        defaultCountry={defaultCountry}
        onCancel={onCancel}
        onSubmit={onSubmit}
      />
    </Modal>
  );
}

function BillingForm({
  currency,
  summary,
  defaultCountry,
  onCancel,
  onSubmit,
}: {
  currency: Currency;
  summary: ReactNode;
  defaultCountry?: string;
  onCancel: () => void;
  onSubmit: (billing: BillingDetails) => void;
}) {
  const domestic = currency === 'INR';
  const [values, setValues] = useState({
    address: '',
    state: '',
    country: defaultCountry && COUNTRY_OPTIONS.includes(defaultCountry) ? defaultCountry : '',
    gstin: '',
  });
  const [errors, setErrors] = useState<BillingFieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const ids = { address: useId(), state: useId(), country: useId(), gstin: useId() };

  const change = (field: BillingField) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    // Typing in a field clears its message, as on the contact form.
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = domestic
      ? {
          address: values.address,
          state: values.state,
          country: BILLING_COUNTRY_INDIA,
          gstin: values.gstin,
          currency,
        }
      : { country: values.country, currency };
    const found = validateBilling(input);
    setErrors(found);
    const firstInvalid = (['address', 'state', 'country', 'gstin'] as const).find((field) => found[field]);
    if (firstInvalid) {
      formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(ids[firstInvalid])}`)?.focus();
      return;
    }
    onSubmit(normaliseBilling(input));
  };

  return (
    <form ref={formRef} noValidate onSubmit={submit} className="space-y-5">
      <div className="rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-700 ring-1 ring-slate-200">
        {summary}
      </div>

      {domestic ? (
        <>
          <Field id={ids.address} label={BILLING_FIELD_LABELS.address} required error={errors.address}>
            <textarea
              {...controlProps(ids.address, errors.address)}
              required
              rows={2}
              value={values.address}
              onChange={(event) => change('address')(event.target.value)}
              autoComplete="street-address"
              maxLength={MAX_LENGTH.billingAddress}
              className={`${inputClass(Boolean(errors.address))} resize-none`}
            />
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field id={ids.state} label={BILLING_FIELD_LABELS.state} required error={errors.state}>
              <Select
                id={ids.state}
                required
                value={values.state}
                onValueChange={change('state')}
                autoComplete="address-level1"
                options={INDIAN_STATE_NAMES}
                placeholder="Select a state"
                error={errors.state}
              />
            </Field>
            <Field id={ids.country} label={BILLING_FIELD_LABELS.country}>
              <input
                id={ids.country}
                value={BILLING_COUNTRY_INDIA}
                readOnly
                className={inputClass(false, true)}
              />
            </Field>
          </div>
          <GstinField
            id={ids.gstin}
            value={values.gstin}
            error={errors.gstin}
            onValueChange={change('gstin')}
          />
        </>
      ) : (
        <Field id={ids.country} label={BILLING_FIELD_LABELS.country} required error={errors.country}>
          <Select
            id={ids.country}
            required
            value={values.country}
            onValueChange={change('country')}
            autoComplete="country-name"
            options={COUNTRY_OPTIONS}
            placeholder="Select a country"
            error={errors.country}
          />
        </Field>
      )}

      <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
        <SecondaryButton onClick={onCancel}>Cancel</SecondaryButton>
        <PrimaryButton size="inline">Proceed to Payment</PrimaryButton>
      </div>
    </form>
  );
}
