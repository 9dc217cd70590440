import type { AnchorHTMLAttributes } from 'react';
import { Link, useRoute } from 'wouter';

type NavLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'className' | 'href'> & {
  to: string;
  /** Active only on `to` itself; otherwise also on every address under it (`/admin/orders/42` for Orders). */
  end?: boolean;
  className: (state: { isActive: boolean }) => string;
};

/**
 * A navigation link that knows whether it leads to the current page: it styles itself from `isActive` and tells
 * assistive technology with `aria-current="page"`. wouter's own Link only compares the exact address.
 */
export function NavLink({ to, end = false, className, ...rest }: NavLinkProps) {
  const [isActive] = useRoute(end ? to : `${to.replace(/\/$/, '')}/*?`);
  return (
    <Link
      to={to}
      className={className({ isActive })}
      aria-current={isActive ? 'page' : undefined}
      {...rest}
    />
  );
}
