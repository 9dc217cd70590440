import { COUNTRIES } from '../../../shared/countries';
import { BILLING_FIELD_LABELS } from '../../../shared/money';
import { Field, Select } from '../../components/form';

export const COUNTRY_OPTIONS = COUNTRIES.map((country) => country.name);

/** An international order's one billing detail: the buyer's country (docs/product.md §5). */
export function CountryField({
  id,
  value,
  error,
  onChange,
}: {
  id: string;
  value: string;
  error?: string;
  onChange: (country: string) => void;
}) {
  return (
    <Field id={id} label={BILLING_FIELD_LABELS.country} required error={error}>
      <Select
        id={id}
        aria-required="true"
        value={value}
        onValueChange={onChange}
        autoComplete="country-name"
        options={COUNTRY_OPTIONS}
        placeholder="Select a country"
        error={error}
      />
    </Field>
  );
}
