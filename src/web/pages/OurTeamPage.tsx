import { ArrowRight, Check } from 'lucide';
import { Link } from 'wouter';
import { ChatButton } from '../components/ChatButton';
import { Icon } from '../components/Icon';
import { PageHeader } from '../components/PageHeader';
import { SiteFooter } from '../components/SiteFooter';
import { CORE_VALUES, PROFESSIONALS, TEAM_CTA, TEAM_HERO, TEAM_STATS, VISION } from '../content/team';
import browserArt from '../features/team/art/browser.svg?no-inline';
import ledgerArt from '../features/team/art/ledger.svg?no-inline';
import teamHeroArt from '../features/team/art/team-hero.svg?no-inline';

const GROUP_ART = { accounting: ledgerArt, web: browserArt } as const;

export default function OurTeamPage() {
  return (
    <>
      <PageHeader />
      <main id="main" tabIndex={-1} className="outline-none">
        <section
          aria-labelledby="team-hero-heading"
          className="overflow-hidden border-b border-slate-200 bg-gradient-to-b from-brand-50 to-white"
        >
          <div className="mx-auto grid max-w-6xl items-center gap-10 px-5 pt-14 pb-12 sm:px-6 md:grid-cols-2 md:pt-20 md:pb-16">
            <div>
              <p className="text-sm font-semibold tracking-wide text-accent-700 uppercase">
                {TEAM_HERO.eyebrow}
              </p>
              <h1
                id="team-hero-heading"
                className="mt-3 text-4xl font-bold tracking-tight text-brand-900 sm:text-5xl"
              >
                {TEAM_HERO.title}
              </h1>
              <p className="mt-5 max-w-xl text-lg leading-relaxed text-slate-700">{TEAM_HERO.lead}</p>
              <div className="mt-8 flex flex-wrap gap-3">
                <Link
                  to="/Contact"
                  className="inline-flex items-center gap-2 rounded-lg bg-brand-800 px-5 py-3 font-semibold text-white shadow-sm transition-colors hover:bg-brand-900"
                >
                  Talk to our team
                  <Icon node={ArrowRight} className="size-4" />
                </Link>
                <a
                  href="#professionals"
                  className="inline-flex items-center rounded-lg border border-slate-300 bg-white px-5 py-3 font-semibold text-brand-900 transition-colors hover:border-brand-300 hover:bg-brand-50"
                >
                  How we are organised
                </a>
              </div>
            </div>
            {/* In the first screen at every width, so loaded at once, never lazily. */}
            <img
              src={teamHeroArt}
              alt=""
              width={480}
              height={400}
              decoding="async"
              className="mx-auto w-full max-w-md"
            />
          </div>
        </section>

        <section aria-label="Experience in numbers" className="border-b border-slate-200">
          <dl className="mx-auto grid max-w-6xl grid-cols-2 gap-x-6 gap-y-8 px-5 py-10 sm:px-6 md:grid-cols-4">
            {TEAM_STATS.map((stat) => (
              <div key={stat.label} className="flex flex-col-reverse">
                <dt className="mt-1 text-sm leading-snug text-slate-600">{stat.label}</dt>
                <dd className="text-3xl font-bold tracking-tight text-brand-800 sm:text-4xl">{stat.value}</dd>
              </div>
            ))}
          </dl>
        </section>

        <section aria-labelledby="vision-heading" className="mx-auto max-w-6xl px-5 py-16 sm:px-6 md:py-24">
          <div className="grid gap-10 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:gap-16">
            <div>
              <h2 id="vision-heading" className="text-3xl font-bold tracking-tight text-brand-900">
                {VISION.title}
              </h2>
              <div className="mt-6 max-w-prose space-y-4 text-lg leading-relaxed text-slate-700">
                {VISION.paragraphs.map((paragraph) => (
                  <p key={paragraph}>{paragraph}</p>
                ))}
              </div>
            </div>
            <div className="self-start rounded-2xl border border-brand-100 bg-brand-50 p-6 sm:p-8">
              <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">How we lead</p>
              <ul className="mt-5 space-y-4">
                {VISION.principles.map((principle) => (
                  <li key={principle} className="flex gap-3 text-slate-800">
                    <span className="mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full bg-brand-800 text-white">
                      <Icon node={Check} className="size-4" />
                    </span>
                    {principle}
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </section>

        <section
          id="professionals"
          aria-labelledby="professionals-heading"
          className="scroll-mt-20 bg-slate-50 py-16 md:py-24"
        >
          <div className="mx-auto max-w-6xl px-5 sm:px-6">
            <h2 id="professionals-heading" className="text-3xl font-bold tracking-tight text-brand-900">
              {PROFESSIONALS.title}
            </h2>
            <p className="mt-4 max-w-2xl text-lg leading-relaxed text-slate-700">{PROFESSIONALS.lead}</p>
            <div className="mt-10 grid gap-6 md:grid-cols-2">
              {PROFESSIONALS.groups.map((group) => {
                return (
                  <article
                    key={group.id}
                    aria-labelledby={`team-${group.id}`}
                    className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
                  >
                    <img
                      src={GROUP_ART[group.id]}
                      alt=""
                      width={160}
                      height={120}
                      loading="lazy"
                      decoding="async"
                      className="h-24 w-32"
                    />
                    <h3 id={`team-${group.id}`} className="mt-5 text-xl font-semibold text-brand-900">
                      {group.name}
                    </h3>
                    <p className="mt-3 leading-relaxed text-slate-700">{group.summary}</p>
                    <ul className="mt-5 space-y-2.5 border-t border-slate-100 pt-5">
                      {group.focus.map((item) => (
                        <li key={item} className="flex gap-3 text-slate-700">
                          <Icon node={Check} className="mt-1 size-4 shrink-0 text-accent-600" />
                          {item}
                        </li>
                      ))}
                    </ul>
                  </article>
                );
              })}
            </div>
          </div>
        </section>

        <section aria-labelledby="values-heading" className="mx-auto max-w-6xl px-5 py-16 sm:px-6 md:py-24">
          <h2 id="values-heading" className="text-3xl font-bold tracking-tight text-brand-900">
            {CORE_VALUES.title}
          </h2>
          <p className="mt-4 max-w-2xl text-lg leading-relaxed text-slate-700">{CORE_VALUES.lead}</p>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {CORE_VALUES.values.map(({ title, text, icon }) => (
              <li key={title} className="rounded-2xl border border-slate-200 p-6">
                <span className="flex size-12 items-center justify-center rounded-xl bg-accent-50 text-accent-700">
                  <Icon node={icon} className="size-6" />
                </span>
                <h3 className="mt-5 text-lg font-semibold text-brand-900">{title}</h3>
                <p className="mt-2 leading-relaxed text-slate-700">{text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="team-cta-heading" className="mx-auto max-w-6xl px-5 pb-16 sm:px-6 md:pb-24">
          <div className="flex flex-col items-start gap-6 rounded-3xl bg-brand-800 px-6 py-10 text-white sm:px-10 md:flex-row md:items-center md:justify-between md:py-12">
            <div className="max-w-2xl">
              <h2 id="team-cta-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
                {TEAM_CTA.title}
              </h2>
              <p className="mt-3 text-lg leading-relaxed text-brand-100">{TEAM_CTA.text}</p>
            </div>
            <Link
              to="/Contact"
              className="inline-flex shrink-0 items-center gap-2 rounded-lg bg-white px-6 py-3 font-semibold text-brand-900 shadow-sm transition-colors hover:bg-brand-50"
            >
              {TEAM_CTA.button}
              <Icon node={ArrowRight} className="size-4" />
            </Link>
          </div>
        </section>
      </main>
      <SiteFooter />
      <aside aria-label="Chat">
        <ChatButton />
      </aside>
    </>
  );
}
