import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import type { Currency } from '../../../shared/constants';
import { COUNTRIES } from '../../../shared/countries';
import { INDIAN_STATE_NAMES } from '../../../shared/indian-states';
import {
  BILLING_COUNTRY_INDIA,
  type BillingDetails,
  type BillingFieldErrors,
  normaliseBilling,
  validateBilling,
} from '../../../shared/shop';
import { Modal } from '../../components/Modal';

type Field = keyof BillingFieldErrors;

export function billingTitle(currency: Currency): string {
  return currency === 'INR' ? 'Billing Information' : 'Billing Information (International Order)';
}

/**
 * The billing details asked before payment (spec §2, §5). INR orders: address, state, India, optional GSTIN.
 * Other currencies: the country only. Closes on Cancel, Escape or a click on the backdrop.
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

const inputClass =
  'block w-full rounded-lg border px-3.5 py-2.5 text-base text-slate-800 shadow-xs sm:text-sm placeholder:text-slate-500 focus:ring-2 focus:outline-none';
const okBorder = 'border-slate-300 bg-white focus:border-brand-500 focus:ring-brand-200';
const errorBorder = 'border-red-500 bg-white focus:border-red-600 focus:ring-red-200';

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
    country: defaultCountry && COUNTRIES.some((c) => c.name === defaultCountry) ? defaultCountry : '',
    gstin: '',
  });
  const [errors, setErrors] = useState<BillingFieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const ids = { address: useId(), state: useId(), country: useId(), gstin: useId(), gstinHint: useId() };

  const change = (field: Field) => (value: string) => {
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
          <FormField id={ids.address} label="Address" required error={errors.address}>
            <textarea
              id={ids.address}
              required
              rows={2}
              value={values.address}
              onChange={(event) => change('address')(event.target.value)}
              autoComplete="street-address"
              maxLength={300}
              aria-invalid={errors.address ? true : undefined}
              aria-describedby={errors.address ? `${ids.address}-error` : undefined}
              className={`${inputClass} resize-none ${errors.address ? errorBorder : okBorder}`}
            />
          </FormField>
          <div className="grid gap-5 sm:grid-cols-2">
            <FormField id={ids.state} label="State" required error={errors.state}>
              <select
                id={ids.state}
                required
                value={values.state}
                onChange={(event) => change('state')(event.target.value)}
                autoComplete="address-level1"
                aria-invalid={errors.state ? true : undefined}
                aria-describedby={errors.state ? `${ids.state}-error` : undefined}
                className={`${inputClass} ${errors.state ? errorBorder : okBorder}`}
              >
                <option value="">Select a state</option>
                {INDIAN_STATE_NAMES.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </FormField>
            <FormField id={ids.country} label="Country">
              <input
                id={ids.country}
                value={BILLING_COUNTRY_INDIA}
                readOnly
                className={`${inputClass} cursor-default border-slate-200 bg-slate-100 text-slate-700 focus:border-slate-300 focus:ring-slate-200`}
              />
            </FormField>
          </div>
          <FormField id={ids.gstin} label="GSTIN" optional error={errors.gstin}>
            <input
              id={ids.gstin}
              value={values.gstin}
              onChange={(event) => change('gstin')(event.target.value)}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={20}
              placeholder="e.g. 08ABCDE1234F1Z5"
              aria-invalid={errors.gstin ? true : undefined}
              aria-describedby={errors.gstin ? `${ids.gstin}-error ${ids.gstinHint}` : ids.gstinHint}
              className={`${inputClass} uppercase placeholder:normal-case ${errors.gstin ? errorBorder : okBorder}`}
            />
            <p id={ids.gstinHint} className="mt-1.5 text-xs text-slate-600">
              For a GST invoice in your business's name.
            </p>
          </FormField>
        </>
      ) : (
        <FormField id={ids.country} label="Country" required error={errors.country}>
          <select
            id={ids.country}
            required
            value={values.country}
            onChange={(event) => change('country')(event.target.value)}
            autoComplete="country-name"
            aria-invalid={errors.country ? true : undefined}
            aria-describedby={errors.country ? `${ids.country}-error` : undefined}
            className={`${inputClass} ${errors.country ? errorBorder : okBorder}`}
          >
            <option value="">Select a country</option>
            {COUNTRIES.map((country) => (
              <option key={country.code} value={country.name}>
                {country.name}
              </option>
            ))}
          </select>
        </FormField>
      )}

      <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
        <button
          type="button"
          onClick={onCancel}
          className="inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-300 bg-white px-5 text-sm font-semibold text-slate-700 hover:bg-slate-50"
        >
          Cancel
        </button>
        <button
          type="submit"
          className="inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-800 px-5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
        >
          Proceed to Payment
        </button>
      </div>
    </form>
  );
}

function FormField({
  id,
  label,
  required,
  optional,
  error,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  optional?: boolean;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
        {required && (
          <span className="text-red-700" aria-hidden="true">
            {' '}
            *
          </span>
        )}
        {optional && <span className="font-normal text-slate-600"> (optional)</span>}
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
