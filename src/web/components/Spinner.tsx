import { LoaderCircle } from 'lucide';
import { Icon } from './Icon';

/** A loading indicator announced to screen readers; `label` is read out, not shown. */
export function Spinner({ label, className = '' }: { label: string; className?: string }) {
  return (
    <div role="status" className={`flex items-center justify-center ${className}`}>
      <Icon node={LoaderCircle} className="size-9 animate-spin text-brand-500 motion-reduce:animate-none" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
