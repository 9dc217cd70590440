import { Eye, EyeOff } from 'lucide';
import { useState } from 'react';
import { Icon } from '../Icon';
import { controlProps, Field, inputClass, type TextFieldProps } from './field';

/** A password input with a show/hide toggle, so people on phones can check what they typed. */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'inputClassName'>) {
  const { id, label, value, onValueChange, error, hint, inputRef, ...rest } = props;
  const [visible, setVisible] = useState(false);
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <div className="relative">
        <input
          {...rest}
          {...controlProps(id, error, hint)}
          ref={inputRef}
          type={visible ? 'text' : 'password'}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          autoCapitalize="none"
          spellCheck={false}
          className={`${inputClass(Boolean(error))} pr-11`}
        />
        <button
          type="button"
          onClick={() => setVisible(!visible)}
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-pressed={visible}
          className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-slate-500 hover:text-brand-800"
        >
          {visible ? <Icon node={EyeOff} className="size-5" /> : <Icon node={Eye} className="size-5" />}
        </button>
      </div>
    </Field>
  );
}
