import type { ComponentProps, InputHTMLAttributes, ReactNode } from 'react';
import { compactInputClass, Field, Select, TextField } from '../../components/form';
import { AUTHENTICATOR_CODE } from './ui';

/** The dashboard's form fields beyond the site's kit (components/form): the ones its forms repeat. */

/**
 * The operator's authenticator code, which the server asks for before a change that moves money or customers'
 * data; a pasted code with a space in the middle still fits.
 */
export function AuthenticatorCodeField({
  label = 'Code from your authenticator app',
  ...props
}: Omit<ComponentProps<typeof TextField>, 'label'> & { label?: string }) {
  return <TextField label={label} {...AUTHENTICATOR_CODE} {...props} />;
}

/** A labelled choice from a fixed list, typed by its values: `<SelectField {...form.field('kind')} … />`. */
export function SelectField<T extends string>({
  id,
  label,
  hint,
  error,
  value,
  onValueChange,
  options,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string | null;
  value: T;
  onValueChange: (value: T) => void;
  options: ComponentProps<typeof Select>['options'];
}) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <Select
        id={id}
        value={value}
        onValueChange={(chosen) => onValueChange(chosen as T)}
        options={options}
        error={error}
      />
    </Field>
  );
}

/** One input of a list screen's filter bar: a small label over a compact control. */
export function FilterInput({
  id,
  label,
  value,
  onValueChange,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'className'> & {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        className={`block w-full ${compactInputClass}`}
        {...props}
      />
    </div>
  );
}

/** The From and To days of a filter bar (two cells of its grid), both changed through one range. */
export function DateRangeInputs<Range extends { from: string; to: string }>({
  idPrefix,
  range,
  onChange,
  required,
}: {
  idPrefix: string;
  range: Range;
  onChange: (range: Range) => void;
  required?: boolean;
}) {
  return (['from', 'to'] as const).map((end) => (
    <FilterInput
      key={end}
      id={`${idPrefix}-${end}`}
      label={end === 'from' ? 'From' : 'To'}
      type="date"
      required={required}
      value={range[end]}
      onValueChange={(day) => onChange({ ...range, [end]: day })}
    />
  ));
}
