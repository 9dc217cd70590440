import type { ReactNode } from 'react';
import type { AuthUser } from '../../session/AuthContext';
import { useAuth } from '../../session/AuthContext';

/**
 * One settings section of /account: a <section> under an <h2> with its name in bold. The heading and description
 * are prerendered; the body, which needs the signed-in user, renders once the auth check has answered (a visitor
 * who is not signed in is sent to /utility-tools by the AuthProvider meanwhile).
 */
export function AccountSection({
  id,
  title,
  description,
  reserve,
  children,
}: {
  /**
   * The body's height while the auth check is out (a Tailwind min-height class): the sections on a phone's first
   * screen hold their form's place, so nothing moves when it appears (issue 56, CLS).
   */
  reserve?: string;
  /** The section's anchor: /account#<id>. */
  id: string;
  title: string;
  description?: ReactNode;
  children: (user: AuthUser) => ReactNode;
}) {
  const { user } = useAuth();
  const headingId = `${id}-heading`;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="scroll-mt-24 border-t border-slate-200 py-8 first:border-t-0 md:grid md:grid-cols-[16rem_1fr] md:gap-10 md:py-10"
    >
      <div>
        {/* Focus comes here when what had it is gone and nothing else in the section can take it. */}
        <h2
          id={headingId}
          tabIndex={-1}
          className="scroll-mt-24 rounded-sm text-xl font-bold tracking-tight text-brand-900 outline-none focus:outline-2 focus:outline-solid focus:outline-offset-4 focus:outline-brand-700"
        >
          {title}
        </h2>
        {description && <p className="mt-2 text-sm leading-relaxed text-slate-600">{description}</p>}
      </div>
      <div className={`mt-5 min-w-0 md:mt-0 ${user ? '' : (reserve ?? '')}`}>
        {user ? children(user) : null}
      </div>
    </section>
  );
}
