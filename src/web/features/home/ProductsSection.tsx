import { ArrowRight } from 'lucide';
import { type FocusEvent, type KeyboardEvent, type MouseEvent, useRef, useState } from 'react';
import { TRUNCATE_WORDS } from '../../../shared/constants';
import { truncateWords } from '../../../shared/text';
import { Icon } from '../../components/Icon';
import { PRODUCT_CARDS, type ProductCard, SECTION_INTROS } from '../../content/home-sections';
import { SectionIntro } from './SectionIntro';

/**
 * Products (docs/product.md §2, §4): a two-card grid; pointing at a card, focusing it from the keyboard or tapping
 * it reveals its description and link; a second tap, Escape or moving focus away hides them again.
 */
export function ProductsSection() {
  const [expanded, setExpanded] = useState<Readonly<Record<string, boolean>>>({});

  return (
    <section
      id="products"
      tabIndex={-1}
      aria-labelledby="products-title"
      className="scroll-mt-[65px] bg-white py-20 outline-none md:py-28"
    >
      <div className="mx-auto max-w-7xl px-5 md:px-8">
        <SectionIntro id="products-title" intro={SECTION_INTROS.products} />
        <ul className="mt-12 grid gap-8 md:grid-cols-2">
          {PRODUCT_CARDS.map((product) => (
            <li key={product.id}>
              <ProductCardView
                product={product}
                expanded={expanded[product.id] === true}
                onToggle={() => setExpanded((state) => ({ ...state, [product.id]: !state[product.id] }))}
              />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

type ProductCardViewProps = { product: ProductCard; expanded: boolean; onToggle: () => void };

export function ProductCardView({ product, expanded, onToggle }: ProductCardViewProps) {
  const titleId = `product-${product.id}`;
  const descriptionId = `product-${product.id}-description`;
  const overlayId = `product-${product.id}-overlay`;
  const short = truncateWords(product.description, TRUNCATE_WORDS.products);
  // Hover needs no state (CSS, on devices that can hover); a tap or keyboard focus opens the overlay here.
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  /** Set while Escape hands focus back to the toggle, which must not reopen what Escape just closed. */
  const returningFocus = useRef(false);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    event.stopPropagation();
    setOpen(false);
    returningFocus.current = true;
    toggleRef.current?.focus();
    returningFocus.current = false;
  };
  // Focus that arrives by keyboard opens the overlay (a tap focuses the button too, but its click decides).
  const onFocus = (event: FocusEvent) => {
    if (!returningFocus.current && event.target.matches(':focus-visible')) setOpen(true);
  };
  const onBlur = (event: FocusEvent) => {
    if (!event.currentTarget.contains(event.relatedTarget)) setOpen(false);
  };
  // A tap on the open overlay, outside its link and button, closes it again.
  const onOverlayClick = (event: MouseEvent) => {
    if (!(event.target as Element).closest('a, button')) setOpen(false);
  };

  return (
    <article
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      onBlur={onBlur}
      className="group relative overflow-hidden rounded-3xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-xl hover:shadow-brand-900/10"
    >
      <img
        src={product.image}
        alt=""
        width={480}
        height={300}
        loading="lazy"
        decoding="async"
        className="aspect-[8/5] h-auto w-full"
      />
      <div className="flex items-center gap-4 p-6">
        <span
          className={`inline-flex size-12 shrink-0 items-center justify-center rounded-xl ${product.colorClasses}`}
        >
          <Icon node={product.icon} className="size-6" />
        </span>
        <div>
          <h3 id={titleId} className="text-xl font-semibold text-brand-900">
            {product.title}
          </h3>
          <p className="text-slate-600">{product.tagline}</p>
        </div>
      </div>
      <button
        ref={toggleRef}
        type="button"
        aria-expanded={open}
        aria-controls={overlayId}
        onClick={() => setOpen((value) => !value)}
        className="absolute inset-0 cursor-pointer rounded-3xl focus-visible:outline-offset-[-4px]"
      >
        <span className="sr-only">{`About ${product.title}`}</span>
      </button>

      {/* Shown on hover (where there is one) and while open; its controls stay reachable by keyboard. */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard closes it with Escape or by leaving it. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the overlay only catches a second tap to close. */}
      <div
        id={overlayId}
        data-testid="product-overlay"
        onClick={onOverlayClick}
        className={`absolute inset-0 flex flex-col overflow-hidden bg-brand-900/90 p-6 text-white transition-opacity duration-300 backdrop-blur-md md:p-8 ${
          open
            ? 'opacity-100'
            : 'pointer-events-none opacity-0 group-hover:pointer-events-auto group-hover:opacity-100'
        }`}
      >
        <div className="mt-auto flex min-h-0 flex-col">
          <p aria-hidden="true" className="shrink-0 text-xl font-semibold">
            {product.title}
          </p>
          {/* The full text may be taller than a phone's card: it scrolls (reachable by keyboard once expanded),
              and the buttons below stay in view. */}
          <p
            id={descriptionId}
            tabIndex={expanded ? 0 : undefined}
            className="mt-3 min-h-0 overflow-y-auto leading-relaxed text-brand-100"
          >
            {expanded ? product.description : short.text}
          </p>
          <div className="mt-5 flex shrink-0 flex-wrap items-center gap-4">
            {short.truncated && (
              <button
                type="button"
                aria-expanded={expanded}
                aria-controls={descriptionId}
                onClick={onToggle}
                className="cursor-pointer text-sm font-semibold text-accent-200 underline underline-offset-4 hover:text-white"
              >
                {expanded ? 'Show less' : 'Read more'}
              </button>
            )}
            {product.isComingSoon ? (
              <span className="rounded-full bg-amber-300 px-3 py-1 text-sm font-semibold text-brand-900">
                Coming Soon
              </span>
            ) : (
              // biome-ignore lint/a11y/noAmbiguousAnchorText: the documented label; the hidden text below names the product.
              <a
                href={product.link}
                target="_blank"
                rel="noopener noreferrer"
                className="ml-auto inline-flex items-center gap-1.5 rounded-full bg-white px-5 py-2.5 text-sm font-semibold text-brand-900 transition-colors hover:bg-accent-100"
              >
                Learn more
                <span className="sr-only">{` about ${product.title} (opens in a new tab)`}</span>
                <Icon node={ArrowRight} className="size-4 -rotate-45" />
              </a>
            )}
          </div>
        </div>
      </div>
    </article>
  );
}
