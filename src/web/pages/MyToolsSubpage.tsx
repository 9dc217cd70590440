import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ToolsLayout } from '../layout/ToolsLayout';

/**
 * A page below My Tools (an order, a team invitation): the way back, the page's title and, when given, a line on
 * what the page holds, all in the prerendered shell, so they paint before the page's own data arrives.
 */
export function MyToolsSubpage({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: string;
  children: ReactNode;
}) {
  return (
    <ToolsLayout>
      <div className="border-b border-slate-200 bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto max-w-6xl px-5 pt-10 pb-8 sm:px-6 md:pt-14">
          <p className="text-sm">
            <Link href="/my-tools" className="font-medium text-brand-700 underline underline-offset-2">
              My Tools
            </Link>
          </p>
          <h1 className="mt-3 text-3xl font-bold tracking-tight text-brand-900 sm:text-4xl">{title}</h1>
          {intro && <p className="mt-3 max-w-2xl text-slate-700">{intro}</p>}
        </div>
      </div>
      <div className="mx-auto max-w-6xl px-5 py-10 sm:px-6 md:py-12">{children}</div>
    </ToolsLayout>
  );
}
