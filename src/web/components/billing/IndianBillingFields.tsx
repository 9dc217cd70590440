import { BILLING_COUNTRY_INDIA } from '../../../shared/billing';
import { INDIAN_STATE_NAMES } from '../../../shared/indian-states';
import { MAX_LENGTH } from '../../../shared/limits';
import { BILLING_FIELD_LABELS } from '../../../shared/money';
import { controlProps, Field, inputClass, Select } from '../form';
import { GstinField } from './GstinField';

type IndianBillingField = 'address' | 'state' | 'gstin';

/**
 * The billing details of an INR order (docs/product.md §5) as a tax invoice names them: the address, the state
 * (the place of supply) and the optional GSTIN, each control `idOf(field)`. The checkout (`checkout`) asks a
 * two-line address that can grow and shows India, fixed, beside the state; the correction of an issued invoice
 * (BillingCorrection.tsx) a three-line address and no country.
 */
export function IndianBillingFields({
  idOf,
  values,
  errors,
  set,
  checkout = false,
}: {
  idOf: (field: IndianBillingField | 'country') => string;
  values: Record<IndianBillingField, string>;
  errors: Partial<Record<IndianBillingField, string>>;
  set: (field: IndianBillingField, value: string) => void;
  checkout?: boolean;
}) {
  const state = (
    <Field id={idOf('state')} label={BILLING_FIELD_LABELS.state} required error={errors.state}>
      {/* aria-required, not required: an empty required select is reported invalid before anyone touches it. */}
      <Select
        id={idOf('state')}
        aria-required="true"
        value={values.state}
        onValueChange={(value) => set('state', value)}
        autoComplete="address-level1"
        options={INDIAN_STATE_NAMES}
        placeholder="Select a state"
        error={errors.state}
      />
    </Field>
  );
  return (
    <>
      <Field id={idOf('address')} label={BILLING_FIELD_LABELS.address} required error={errors.address}>
        <textarea
          {...controlProps(idOf('address'), errors.address)}
          required
          rows={checkout ? 2 : 3}
          value={values.address}
          onChange={(event) => set('address', event.target.value)}
          autoComplete="street-address"
          maxLength={MAX_LENGTH.billingAddress}
          className={`${inputClass(Boolean(errors.address))} ${checkout ? 'resize-y' : 'resize-none'}`}
        />
      </Field>
      {checkout ? (
        <div className="grid gap-4 sm:grid-cols-2">
          {state}
          <Field id={idOf('country')} label={BILLING_FIELD_LABELS.country}>
            <input
              id={idOf('country')}
              value={BILLING_COUNTRY_INDIA}
              readOnly
              className={inputClass(false, true)}
            />
          </Field>
        </div>
      ) : (
        state
      )}
      <GstinField
        id={idOf('gstin')}
        value={values.gstin}
        error={errors.gstin}
        onValueChange={(value) => set('gstin', value)}
      />
    </>
  );
}
