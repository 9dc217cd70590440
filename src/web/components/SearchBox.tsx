import { Search } from 'lucide';
import { useId, useRef } from 'react';
import { useKeepTypedBeforeHydration } from '../lib/prerendered-form';
import { Icon } from './Icon';

/** A labelled search field; the label is for screen readers, the placeholder is the documented text. */
export function SearchBox({
  value,
  onChange,
  placeholder,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  label: string;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  useKeepTypedBeforeHydration(inputRef, (_name, typed) => {
    if (value === '') onChange(typed);
  });
  return (
    <div className="relative w-full sm:max-w-sm">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Icon
        node={Search}
        className="pointer-events-none absolute top-1/2 left-3.5 size-4.5 -translate-y-1/2 text-slate-400"
      />
      <input
        ref={inputRef}
        id={id}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        autoComplete="off"
        className="h-11 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-10 text-base sm:text-sm text-slate-800 shadow-xs placeholder:text-slate-500 focus:border-brand-600 focus:outline-2 focus:outline-offset-0 focus:outline-brand-600"
      />
    </div>
  );
}

/** Case-insensitive match of every word of `query` against the text (name, description, device). */
export function matchesSearch(query: string, ...fields: Array<string | null | undefined>): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = fields.filter(Boolean).join(' ').toLowerCase();
  return words.every((word) => haystack.includes(word));
}
