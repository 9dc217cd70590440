import { ChevronDown } from 'lucide';
import type { SelectHTMLAttributes } from 'react';
import { Icon } from '../Icon';
import { controlProps, inputClass } from './field';

type Option = string | { value: string; label: string };

/** A native select in the kit's look, with a chevron; a `placeholder` is a first, empty option that prompts. */
export function Select({
  id,
  value,
  onValueChange,
  options,
  placeholder,
  error,
  ...rest
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'value' | 'onChange' | 'className'> & {
  id: string;
  value: string;
  onValueChange: (value: string) => void;
  options: readonly Option[];
  placeholder?: string;
  error?: string | null;
}) {
  return (
    <div className="relative">
      <select
        {...rest}
        {...controlProps(id, error)}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        className={`${inputClass(Boolean(error))} appearance-none pr-10`}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => {
          const { value: optionValue, label } =
            typeof option === 'string' ? { value: option, label: option } : option;
          return (
            <option key={optionValue} value={optionValue}>
              {label}
            </option>
          );
        })}
      </select>
      <Icon
        node={ChevronDown}
        className="pointer-events-none absolute top-1/2 right-3 size-5 -translate-y-1/2 text-slate-500"
      />
    </div>
  );
}
