import { ArrowRight, Check } from 'lucide';
import { type FocusEvent, useState } from 'react';
import { Link } from 'wouter';
import {
  BULLET_STAGGER_S,
  SERVICE_CARD_MIN_HEIGHT_PX,
  SERVICES_ARROW_OFFSET,
} from '../../../shared/constants';
import { Icon } from '../../components/Icon';
import { SECTION_INTROS, SERVICE_CARDS, type ServiceCard } from '../../content/home-sections';
import { ScrollArrow } from './ScrollArrow';
import { SectionIntro } from './SectionIntro';

const GRID_COLUMNS = 12;

/**
 * Column span (out of 12) of card `index` while card `active` is hovered or focused (docs/product.md §4): the
 * active card takes 8, its row neighbour 4, every other card 6. Cards sit two to a row, so the neighbour
 * differs in the last bit.
 */
export function serviceSpan(index: number, active: number | null): number {
  if (active === null) return GRID_COLUMNS / 2;
  if (index === active) return 8;
  if ((index ^ 1) === active) return GRID_COLUMNS - 8;
  return GRID_COLUMNS / 2;
}

/** Services (docs/product.md §2, §3, §4): four cards that widen on hover to reveal their bullet lists. */
export function ServicesSection() {
  const [active, setActive] = useState<number | null>(null);
  const rows = [SERVICE_CARDS.slice(0, 2), SERVICE_CARDS.slice(2, 4)];

  return (
    <section
      id="services"
      tabIndex={-1}
      aria-labelledby="services-title"
      className="scroll-mt-[65px] overflow-x-clip bg-brand-50 py-20 outline-none md:py-28"
    >
      <div className="mx-auto max-w-7xl px-5 md:px-8">
        <SectionIntro id="services-title" intro={SECTION_INTROS.services} />

        {/* On wide screens each row is a 12-column track shared by its two cards; flex-grow carries the span
            so the widening animates. Below 768 px the cards stack at full width. */}
        <div className="mt-12 flex flex-col gap-6">
          {rows.map((row, rowIndex) => (
            <div key={row.map((card) => card.id).join()} className="flex flex-col gap-6 md:flex-row">
              {row.map((card, cardIndex) => {
                const index = rowIndex * 2 + cardIndex;
                return (
                  <ServiceCardView
                    key={card.id}
                    card={card}
                    span={serviceSpan(index, active)}
                    expanded={active === index}
                    onActivate={() => setActive(index)}
                    onDeactivate={() => setActive((current) => (current === index ? null : current))}
                  />
                );
              })}
            </div>
          ))}
        </div>

        <div className="mt-14 flex justify-center">
          <ScrollArrow target="products" offset={-SERVICES_ARROW_OFFSET} label="Scroll to Products" />
        </div>
      </div>
    </section>
  );
}

type ServiceCardViewProps = {
  card: ServiceCard;
  span: number;
  expanded: boolean;
  onActivate: () => void;
  onDeactivate: () => void;
};

function ServiceCardView({ card, span, expanded, onActivate, onDeactivate }: ServiceCardViewProps) {
  const titleId = `service-${card.id}`;
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onDeactivate();
  };

  return (
    <article
      aria-labelledby={titleId}
      data-span={span}
      data-expanded={expanded}
      onMouseEnter={onActivate}
      onMouseLeave={onDeactivate}
      onFocus={onActivate}
      onBlur={onBlur}
      style={{ flexGrow: span, minHeight: SERVICE_CARD_MIN_HEIGHT_PX }}
      className={`relative isolate flex flex-col justify-end overflow-hidden rounded-2xl text-white shadow-lg shadow-brand-900/10 transition-[flex-grow,transform] duration-500 ease-out md:h-[29rem] md:basis-0 lg:h-96 ${expanded ? 'z-10 max-md:scale-105' : ''}`}
    >
      {/* The picture covers the card whatever its shape: the file itself says "slice". */}
      <img
        src={card.image}
        alt=""
        width={480}
        height={320}
        loading="lazy"
        decoding="async"
        className={`absolute inset-0 -z-20 size-full transition-transform duration-700 ease-out ${expanded ? 'scale-110' : 'scale-100'}`}
      />
      <div
        data-testid="service-overlay"
        className="absolute inset-0 -z-10 bg-brand-900 transition-opacity duration-500"
        style={{ opacity: expanded ? 0.7 : 0.5 }}
      />
      <div className="absolute inset-0 -z-10 bg-linear-to-t from-brand-900/95 via-brand-900/60 to-transparent" />

      <div className="p-6 md:p-8">
        <span className={`inline-flex size-11 items-center justify-center rounded-xl ${card.colorClasses}`}>
          <Icon node={card.icon} className="size-5.5" />
        </span>
        <h3 id={titleId} className="mt-4 text-2xl font-semibold tracking-tight">
          {card.title}
        </h3>
        <p className="mt-2 max-w-md leading-relaxed text-brand-100">{card.summary}</p>

        <div
          className={`grid transition-[grid-template-rows] duration-500 ease-out ${expanded ? 'md:grid-rows-[1fr]' : 'md:grid-rows-[0fr]'}`}
        >
          <ul className="min-h-0 overflow-hidden pt-4 lg:grid lg:grid-cols-2 lg:gap-x-6">
            {card.bullets.map((bullet, i) => (
              <li
                key={bullet}
                style={{ transitionDelay: expanded ? `${i * BULLET_STAGGER_S}s` : '0s' }}
                className={`flex items-start gap-2 py-1 transition duration-300 ${expanded ? 'md:translate-y-0 md:opacity-100' : 'md:translate-y-2 md:opacity-0'}`}
              >
                <Icon node={Check} className="mt-1 size-4 shrink-0 text-accent-300" />
                <span>{bullet}</span>
              </li>
            ))}
          </ul>
        </div>

        <Link
          to="/Contact"
          className="mt-5 inline-flex items-center gap-1.5 text-sm font-semibold text-white underline-offset-4 hover:underline"
        >
          Enquire now<span className="sr-only"> about {card.title}</span>
          <Icon node={ArrowRight} className="size-4" />
        </Link>
      </div>
    </article>
  );
}
