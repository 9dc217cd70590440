import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ArrowLeft } from './icons';

/** The dashboard's links from one screen to another. */

/** The link from one record's screen back to the list it is in, above the screen's title. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="mb-3 inline-flex items-center gap-1 text-sm font-medium text-brand-700 underline underline-offset-2"
    >
      <ArrowLeft className="size-4" aria-hidden="true" />
      {children}
    </Link>
  );
}

/** A link to another dashboard screen from a table cell or a sentence. */
export function ScreenLink({
  to,
  className = '',
  children,
}: {
  to: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Link to={to} className={`font-medium text-brand-700 underline underline-offset-2 ${className}`}>
      {children}
    </Link>
  );
}
