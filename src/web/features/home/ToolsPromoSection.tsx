import { ArrowRight, Check } from 'lucide';
import { Link } from 'wouter';
import { Icon } from '../../components/Icon';
import { TOOLS_PROMO } from '../../content/home-sections';
import { PlatformMark } from './art/PlatformMarks';
import toolsShopArt from './art/tools-shop.svg?no-inline';

/**
 * The utility-tools shop teaser (docs/product.md §2 "a further section using a dashboard image and utility
 * logos").
 */
export function ToolsPromoSection() {
  return (
    <section
      id="tools-promo"
      aria-labelledby="tools-promo-title"
      className="overflow-hidden bg-brand-800 py-20 text-white md:py-28"
    >
      <div className="mx-auto grid max-w-7xl items-center gap-14 px-5 md:px-8 lg:grid-cols-2">
        <div>
          <p className="text-sm font-semibold tracking-widest text-accent-300 uppercase">
            {TOOLS_PROMO.eyebrow}
          </p>
          <h2 id="tools-promo-title" className="mt-3 text-3xl font-semibold tracking-tight md:text-4xl">
            {TOOLS_PROMO.title}
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-brand-100">{TOOLS_PROMO.text}</p>

          <ul className="mt-8 flex flex-wrap gap-3" aria-label="What the tools do">
            {TOOLS_PROMO.tools.map(({ label, icon, colorClasses }) => (
              <li
                key={label}
                className="inline-flex items-center gap-2.5 rounded-xl bg-white/5 py-2 pr-4 pl-2 ring-1 ring-white/10"
              >
                <span className={`inline-flex size-9 items-center justify-center rounded-lg ${colorClasses}`}>
                  <Icon node={icon} className="size-4.5" />
                </span>
                <span className="text-sm font-medium">{label}</span>
              </li>
            ))}
          </ul>

          <ul className="mt-8 space-y-3">
            {TOOLS_PROMO.points.map((point) => (
              <li key={point} className="flex items-start gap-3 text-brand-100">
                <Icon node={Check} className="mt-1 size-4.5 shrink-0 text-accent-300" />
                {point}
              </li>
            ))}
          </ul>

          <div className="mt-10 flex flex-wrap items-center gap-x-8 gap-y-6">
            <Link
              to={TOOLS_PROMO.href}
              className="inline-flex items-center gap-2 rounded-full bg-white px-6 py-3 font-semibold text-brand-900 transition-colors hover:bg-accent-100"
            >
              {TOOLS_PROMO.cta}
              <Icon node={ArrowRight} className="size-4.5" />
            </Link>
            <ul className="flex items-center gap-5" aria-label="Available for">
              {TOOLS_PROMO.platforms.map((platform) => (
                <li
                  key={platform}
                  className="inline-flex items-center gap-2 text-sm font-medium text-brand-100"
                >
                  <PlatformMark platform={platform} className="size-7 text-white" />
                  {platform}
                </li>
              ))}
            </ul>
          </div>
        </div>
        <div className="relative">
          <div className="absolute -inset-8 rounded-full bg-brand-600/40 blur-3xl" aria-hidden="true" />
          <img
            src={toolsShopArt}
            alt=""
            width={560}
            height={380}
            loading="lazy"
            decoding="async"
            className="relative aspect-[28/19] h-auto w-full"
          />
        </div>
      </div>
    </section>
  );
}
