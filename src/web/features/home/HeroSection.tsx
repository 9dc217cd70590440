import { ArrowRight, Check } from 'lucide';
import { Link } from 'wouter';
import { HERO_ARROW_OFFSET } from '../../../shared/constants';
import { Icon } from '../../components/Icon';
import { HERO } from '../../content/home';
import heroArt from './art/hero.svg?no-inline';
import { ScrollArrow } from './ScrollArrow';
import { SectionLink } from './SectionLink';

/**
 * Hero (docs/product.md §1, §2): heading, tagline, the success claim, the two buttons and the arrow down to
 * About.
 */
export function HeroSection() {
  return (
    <section
      id="home"
      tabIndex={-1}
      aria-labelledby="home-title"
      className="relative scroll-mt-[75px] overflow-hidden bg-linear-to-b from-brand-50 via-white to-white outline-none"
    >
      <div className="mx-auto grid max-w-7xl items-center gap-10 px-5 pt-10 md:px-8 md:pt-16 lg:grid-cols-[1.05fr_1fr] lg:gap-16 lg:pt-20">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-accent-100 px-4 py-1.5 text-sm font-semibold text-accent-800">
            <Icon node={Check} className="size-4.5" strokeWidth={3} />
            {HERO.successClaim}
          </p>
          <h1
            id="home-title"
            className="mt-6 text-4xl leading-[1.08] font-semibold tracking-tight text-balance text-brand-900 sm:text-5xl lg:text-6xl"
          >
            {HERO.title}
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-slate-600">{HERO.tagline}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link
              to="/Contact"
              className="inline-flex items-center gap-2 rounded-full bg-brand-800 px-6 py-3 font-semibold text-white shadow-sm transition-colors hover:bg-brand-900"
            >
              Get Started
              <Icon node={ArrowRight} className="size-4.5" />
            </Link>
            <SectionLink
              section="about"
              className="inline-flex items-center rounded-full border border-brand-200 bg-white px-6 py-3 font-semibold text-brand-800 transition-colors hover:border-brand-300 hover:bg-brand-50"
            >
              Learn More<span className="sr-only"> about us</span>
            </SectionLink>
          </div>
          <dl className="mt-12 grid max-w-lg grid-cols-3 gap-4 border-t border-slate-200 pt-8">
            {HERO.stats.map((stat) => (
              <div key={stat.label} className="flex flex-col-reverse gap-1">
                <dt className="text-sm leading-snug text-slate-600">{stat.label}</dt>
                <dd className="text-3xl font-semibold tracking-tight text-brand-800">{stat.value}</dd>
              </div>
            ))}
          </dl>
        </div>
        <div className="mx-auto w-full max-w-xl">
          {/* In the first screen at every width, so loaded at once, never lazily. */}
          <img
            src={heroArt}
            alt=""
            width={560}
            height={440}
            decoding="async"
            className="aspect-[14/11] h-auto w-full"
          />
        </div>
      </div>
      <div className="flex justify-center pt-6 pb-10">
        <ScrollArrow target="about" offset={-HERO_ARROW_OFFSET} label="Scroll to About" />
      </div>
    </section>
  );
}
