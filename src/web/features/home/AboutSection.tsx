import { useEffect, useState } from 'react';
import { ABOUT_ARROW_OFFSET, ABOUT_FLIP_INTERVAL_MS } from '../../../shared/constants';
import { ABOUT_CARDS, type AboutCard, SECTION_INTROS } from '../../content/home-sections';
import { ScrollArrow } from './ScrollArrow';
import { SectionIntro } from './SectionIntro';
import { usePrefersReducedMotion } from './scroll';

/**
 * About (docs/product.md §2, §4): five cards that show a picture and flip to their text on hover or focus;
 * every 10 s all of them turn together. The rotation can be paused (WCAG 2.2.2) and never runs for visitors
 * who prefer less motion.
 */
export function AboutSection() {
  const reducedMotion = usePrefersReducedMotion();
  const [paused, setPaused] = useState(false);
  const [showText, setShowText] = useState(false);
  const rotating = !reducedMotion && !paused;

  useEffect(() => {
    if (!rotating) return;
    const timer = window.setInterval(() => setShowText((value) => !value), ABOUT_FLIP_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [rotating]);

  return (
    <section
      id="about"
      tabIndex={-1}
      aria-labelledby="about-title"
      className="scroll-mt-10 bg-white pt-16 pb-20 outline-none md:pt-20 md:pb-28"
    >
      <div className="mx-auto max-w-7xl px-5 md:px-8">
        <div className="flex flex-col gap-6 md:flex-row md:items-end md:justify-between">
          <SectionIntro id="about-title" intro={SECTION_INTROS.about} />
          {!reducedMotion && (
            <button
              type="button"
              onClick={() => setPaused((value) => !value)}
              className="inline-flex shrink-0 cursor-pointer items-center gap-2 self-start rounded-full border border-slate-200 px-4 py-2 text-sm font-medium text-slate-700 transition-colors hover:border-brand-300 hover:text-brand-900 md:self-auto"
            >
              <span
                aria-hidden="true"
                className={`size-2 rounded-full ${paused ? 'bg-slate-400' : 'bg-accent-500 motion-safe:animate-pulse'}`}
              />
              {paused ? 'Resume card rotation' : 'Pause card rotation'}
            </button>
          )}
        </div>

        <ul className="mt-12 grid gap-6 md:grid-cols-2 xl:grid-cols-6">
          {ABOUT_CARDS.map((card) => (
            <li
              key={card.id}
              className="md:last:col-span-2 md:last:mx-auto md:last:w-[calc(50%-0.75rem)] xl:col-span-2 xl:last:mx-0 xl:last:w-full xl:[&:nth-child(4)]:col-start-2"
            >
              <AboutFlipCard card={card} showText={showText} />
            </li>
          ))}
        </ul>

        <div className="mt-14 flex justify-center">
          <ScrollArrow target="services" offset={-ABOUT_ARROW_OFFSET} label="Scroll to Services" />
        </div>
      </div>
    </section>
  );
}

function AboutFlipCard({ card, showText }: { card: AboutCard; showText: boolean }) {
  const titleId = `about-card-${card.id}`;
  const turned = showText ? 'rotate-y-180' : 'group-hover:rotate-y-180 group-focus:rotate-y-180';
  return (
    <article
      // biome-ignore lint/a11y/noNoninteractiveTabindex: focus turns the card for keyboard and touch users, as hover does for a mouse.
      tabIndex={0}
      aria-labelledby={titleId}
      data-side={showText ? 'text' : 'image'}
      className="group h-92 rounded-2xl perspective-distant"
    >
      <div className={`relative size-full transition-transform duration-700 transform-3d ${turned}`}>
        <div
          aria-hidden="true"
          className="absolute inset-0 flex flex-col overflow-hidden rounded-2xl border border-brand-100 bg-brand-50 backface-hidden"
        >
          <img
            src={card.image}
            alt=""
            width={320}
            height={220}
            loading="lazy"
            decoding="async"
            className="min-h-0 w-full flex-1 p-6"
          />
          <div className="flex items-center justify-between gap-3 border-t border-brand-100 bg-white px-6 py-4">
            <span className="text-lg font-semibold text-brand-900">{card.title}</span>
          </div>
        </div>
        {/* Centred when it fits; scrolls rather than clips when a large default font makes it taller. */}
        <div className="absolute inset-0 flex rotate-y-180 flex-col overflow-y-auto rounded-2xl bg-brand-800 p-7 text-white backface-hidden">
          <div className="my-auto">
            <h3 id={titleId} className="text-xl font-semibold">
              {card.title}
            </h3>
            <div className="mt-3 h-1 w-10 rounded-full bg-accent-400" />
            <p className="mt-4 text-[0.9375rem] leading-relaxed text-brand-100">{card.text}</p>
          </div>
        </div>
      </div>
    </article>
  );
}
