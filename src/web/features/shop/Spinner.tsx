import { LoaderCircle } from 'lucide-react';

/** A loading indicator announced to screen readers; `label` is read out, not shown. */
export function Spinner({ label, className = '' }: { label: string; className?: string }) {
  return (
    <div role="status" className={`flex items-center justify-center ${className}`}>
      <LoaderCircle
        className="size-9 animate-spin text-brand-500 motion-reduce:animate-none"
        aria-hidden="true"
      />
      <span className="sr-only">{label}</span>
    </div>
  );
}
