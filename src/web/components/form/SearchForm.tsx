import { useState } from 'react';
import { Button } from './buttons';
import { compactInputClass } from './field';

/** A search field with its button, for lists searched on the server; `onSearch` gets the trimmed text. */
export function SearchForm({
  id,
  label,
  placeholder,
  onSearch,
}: {
  id: string;
  label: string;
  placeholder: string;
  onSearch: (text: string) => void;
}) {
  const [text, setText] = useState('');
  return (
    <search className="w-full sm:w-auto">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSearch(text.trim());
        }}
        className="flex w-full gap-2"
      >
        <label htmlFor={id} className="sr-only">
          {label}
        </label>
        <input
          id={id}
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={placeholder}
          className={`min-w-0 flex-1 sm:w-64 ${compactInputClass}`}
        />
        <Button type="submit">Search</Button>
      </form>
    </search>
  );
}
