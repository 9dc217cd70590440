import { ArrowLeft } from 'lucide';
import { Fragment } from 'react';
import { Link } from 'wouter';
import { POLICY_LAST_UPDATED } from '../../../shared/constants';
import { ChatButton } from '../../components/ChatButton';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { SiteFooter } from '../../components/SiteFooter';
import {
  type Inline,
  type PolicyBlock,
  type PolicyDocumentContent,
  type RichText,
  sectionSlug,
} from './types';

const linkClass = 'font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900';

function InlineRun({ part }: { part: Inline }) {
  if (typeof part === 'string') return part;
  if ('strong' in part) return <strong className="font-semibold text-slate-900">{part.strong}</strong>;
  // Pages of this site go through the router; mail, phone and other sites are ordinary links.
  return part.href.startsWith('/') ? (
    <Link to={part.href} className={linkClass}>
      {part.text}
    </Link>
  ) : (
    <a href={part.href} className={linkClass}>
      {part.text}
    </a>
  );
}

function Rich({ text }: { text: RichText }) {
  if (typeof text === 'string') return text;
  return text.map((part, index) => (
    // The runs of one sentence never reorder, so their position is a stable key.
    // biome-ignore lint/suspicious/noArrayIndexKey: see above.
    <InlineRun key={index} part={part} />
  ));
}

function Block({ block }: { block: PolicyBlock }) {
  switch (block.kind) {
    case 'paragraph':
      return (
        <p>
          <Rich text={block.text} />
        </p>
      );
    case 'list':
      return (
        <ul className="list-disc space-y-2 pl-5 marker:text-brand-300">
          {block.items.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered.
            <li key={index} className="pl-1">
              <Rich text={item} />
            </li>
          ))}
        </ul>
      );
    case 'contact':
      return (
        <dl className="grid gap-x-6 gap-y-3 rounded-xl border border-slate-200 bg-slate-50 p-5 sm:grid-cols-[auto_minmax(0,1fr)]">
          {block.rows.map((row) => (
            <Fragment key={row.label}>
              <dt className="text-sm font-semibold text-slate-700 sm:pt-px">{row.label}</dt>
              <dd className="-mt-2 break-words text-slate-900 sm:mt-0">
                {row.href ? (
                  <a href={row.href} className={linkClass}>
                    {row.value}
                  </a>
                ) : (
                  row.value
                )}
              </dd>
            </Fragment>
          ))}
        </dl>
      );
  }
}

/**
 * A numbered legal document (Privacy Policy, Terms and Conditions): title and last-updated date, a table of
 * contents that stays in view on wide screens, the sections at a readable measure, and a way back home.
 */
export function PolicyDocument({ content }: { content: PolicyDocumentContent }) {
  const sections = content.sections.map((section, index) => ({
    ...section,
    number: index + 1,
    slug: sectionSlug(section.title),
  }));

  return (
    <>
      <PageHeader />
      <main id="main" tabIndex={-1} className="outline-none">
        <div className="border-b border-slate-200 bg-gradient-to-b from-brand-50 to-white">
          <div className="mx-auto max-w-6xl px-5 pt-14 pb-10 sm:px-6 md:pt-20 md:pb-14">
            <p className="text-sm font-semibold tracking-wide text-accent-700 uppercase">Legal</p>
            <h1 className="mt-3 text-4xl font-bold tracking-tight text-brand-900 sm:text-5xl">
              {content.title}
            </h1>
            <p className="mt-4 text-slate-600">Last updated {content.lastUpdated ?? POLICY_LAST_UPDATED}</p>
          </div>
        </div>
        <div className="mx-auto max-w-6xl px-5 py-10 sm:px-6 md:py-14 lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-16">
          <nav
            aria-labelledby="policy-contents-heading"
            className="mb-10 rounded-xl border border-slate-200 bg-slate-50 p-5 lg:sticky lg:top-24 lg:mb-0 lg:max-h-[calc(100vh-7rem)] lg:self-start lg:overflow-y-auto"
          >
            <h2
              id="policy-contents-heading"
              className="text-sm font-semibold tracking-wide text-slate-700 uppercase"
            >
              Contents
            </h2>
            <ol className="mt-3 space-y-1 text-sm">
              {sections.map((section) => (
                <li key={section.slug}>
                  <a
                    href={`#${section.slug}`}
                    className="flex gap-2 rounded-md px-2 py-1.5 text-slate-700 hover:bg-white hover:text-brand-900"
                  >
                    <span className="w-5 shrink-0 text-right text-slate-500 tabular-nums">
                      {section.number}.
                    </span>{' '}
                    {section.title}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
          <article className="max-w-prose text-base leading-relaxed text-slate-700 sm:text-lg sm:leading-relaxed">
            <div className="space-y-4">
              {content.intro.map((paragraph, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered.
                <p key={index}>
                  <Rich text={paragraph} />
                </p>
              ))}
            </div>
            {sections.map((section) => (
              <section key={section.slug} id={section.slug} className="mt-12 scroll-mt-24">
                <h2 className="flex gap-3 text-2xl font-semibold tracking-tight text-brand-900">
                  <span className="text-accent-700 tabular-nums">{section.number}.</span>{' '}
                  <span>{section.title}</span>
                </h2>
                <div className="mt-4 space-y-4">
                  {section.blocks.map((block, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered.
                    <Block key={index} block={block} />
                  ))}
                </div>
              </section>
            ))}
            <div className="mt-14 border-t border-slate-200 pt-8">
              <Link
                to="/"
                className="inline-flex items-center gap-2 rounded-lg border border-slate-300 px-4 py-2.5 text-base font-semibold text-brand-900 transition-colors hover:border-brand-300 hover:bg-brand-50"
              >
                <Icon node={ArrowLeft} className="size-4" />
                Back to Home
              </Link>
            </div>
          </article>
        </div>
      </main>
      <SiteFooter />
      <aside aria-label="Chat">
        <ChatButton />
      </aside>
    </>
  );
}
