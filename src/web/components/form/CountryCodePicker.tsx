import { Check, ChevronDown, Search } from 'lucide';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { type CountryCode, searchCountryCodes } from '../../../shared/country-codes';
import { Icon } from '../Icon';

/** Flags are emoji; name the colour-emoji fonts first so systems that have one use it for the regional letters. */
const FLAG_CLASS =
  "text-lg leading-none font-['Apple_Color_Emoji','Segoe_UI_Emoji','Noto_Color_Emoji','Twemoji_Mozilla',sans-serif]";

/**
 * The signup form's dial-code picker (docs/product.md §2): a button showing the chosen flag and code that
 * opens a searchable list (WAI-ARIA combobox with a listbox). Escape closes the list without closing the
 * dialog around it.
 */
export function CountryCodePicker({
  value,
  onChange,
  invalid,
  disabled,
}: {
  value: CountryCode;
  onChange: (entry: CountryCode) => void;
  invalid?: boolean;
  disabled?: boolean;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const matches = useMemo(() => searchCountryCodes(query), [query]);

  useEffect(() => {
    if (!open) return;
    searchRef.current?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!wrapperRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  useEffect(() => {
    if (!open) return;
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active, open]);

  const openList = () => {
    setQuery('');
    const selected = searchCountryCodes('').findIndex((entry) => entry.iso === value.iso);
    setActive(Math.max(0, selected));
    setOpen(true);
  };

  const choose = (entry: CountryCode) => {
    onChange(entry);
    setOpen(false);
    buttonRef.current?.focus();
  };

  const onSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((index) => Math.min(matches.length - 1, index + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => Math.max(0, index - 1));
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      setActive(event.key === 'Home' ? 0 : matches.length - 1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const entry = matches[active];
      if (entry) choose(entry);
    } else if (event.key === 'Escape') {
      // Cancelling the key stops the surrounding <dialog> from treating it as its own close request.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      buttonRef.current?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <div ref={wrapperRef}>
      <button
        ref={buttonRef}
        type="button"
        disabled={disabled}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-label={`Country code: ${value.country} ${value.code}`}
        onClick={() => (open ? setOpen(false) : openList())}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            openList();
          }
        }}
        className={`flex h-full min-h-11 items-center gap-1.5 rounded-l-lg border border-r-0 bg-slate-50 px-3 text-base text-slate-900 transition-colors hover:bg-slate-100 ${
          invalid ? 'border-red-600' : 'border-slate-300'
        }`}
      >
        <span aria-hidden="true" className={FLAG_CLASS}>
          {value.flag}
        </span>
        <span className="tabular-nums">{value.code}</span>
        <Icon node={ChevronDown} className="size-4 text-slate-500" />
      </button>
      {open && (
        <div className="absolute inset-x-0 top-full z-50 mt-1.5 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-xl">
          <div className="relative border-b border-slate-100 p-2">
            <Icon
              node={Search}
              className="pointer-events-none absolute top-1/2 left-4.5 size-4 -translate-y-1/2 text-slate-500"
            />
            <label htmlFor={`${id}-search`} className="sr-only">
              Search country or dial code
            </label>
            <input
              ref={searchRef}
              id={`${id}-search`}
              type="text"
              role="combobox"
              aria-expanded="true"
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={matches[active] ? `${id}-option-${matches[active].iso}` : undefined}
              autoComplete="off"
              placeholder="Search country or code"
              value={query}
              onChange={(event) => {
                setQuery(event.target.value);
                setActive(0);
              }}
              onKeyDown={onSearchKeyDown}
              className="block w-full rounded-lg border border-slate-300 py-2 pr-3 pl-9 text-base placeholder:text-slate-500 focus:border-brand-600 focus:outline-2 focus:outline-offset-0 focus:outline-brand-600"
            />
          </div>
          <div
            ref={listRef}
            id={listId}
            role="listbox"
            aria-label="Country codes"
            className="max-h-56 overflow-y-auto p-1.5"
          >
            {matches.length === 0 && (
              <p className="px-3 py-2.5 text-sm text-slate-600">No matching country</p>
            )}
            {matches.map((entry, index) => {
              const selected = entry.iso === value.iso;
              return (
                // biome-ignore lint/a11y/useKeyWithClickEvents: keys reach the options through the search box (aria-activedescendant).
                <div
                  key={entry.iso}
                  id={`${id}-option-${entry.iso}`}
                  data-index={index}
                  role="option"
                  aria-selected={selected}
                  tabIndex={-1}
                  onPointerMove={() => setActive(index)}
                  onClick={() => choose(entry)}
                  className={`flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2 text-sm ${
                    index === active ? 'bg-brand-50 text-brand-900' : 'text-slate-700'
                  }`}
                >
                  <span aria-hidden="true" className={FLAG_CLASS}>
                    {entry.flag}
                  </span>
                  <span className="flex-1">{entry.country}</span>
                  <span className="tabular-nums text-slate-600">{entry.code}</span>
                  <Icon node={Check} className={`size-4 text-brand-700 ${selected ? '' : 'invisible'}`} />
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}
