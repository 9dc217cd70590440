import { useId, useState } from 'react';
import { truncateWords } from '../../../shared/text';

/**
 * A description cut to `words` words with a Read more / Show less toggle (docs/product.md §9: 40 on the
 * catalogue, 30 on My Tools).
 */
export function TruncatedText({
  text,
  words,
  className = '',
}: {
  text: string;
  words: number;
  className?: string;
}) {
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  const short = truncateWords(text, words);
  return (
    <div className={className}>
      <p id={id} className="text-sm leading-relaxed text-slate-600">
        {expanded || !short.truncated ? text.trim() : short.text}
      </p>
      {short.truncated && (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded((value) => !value)}
          className="mt-1.5 rounded text-sm font-medium text-brand-600 underline-offset-4 hover:text-brand-800 hover:underline"
        >
          {expanded ? 'Show less' : 'Read more'}
        </button>
      )}
    </div>
  );
}
