import { ArrowRight } from 'lucide-react';
import { useState } from 'react';
import { TRUNCATE_WORDS } from '../../../shared/constants';
import { truncateWords } from '../../../shared/text';
import { PRODUCT_CARDS, type ProductCard, SECTION_INTROS } from '../../content/home';
import { SectionIntro } from './SectionIntro';

/**
 * Products (docs/product.md §2, §4): a two-card grid; hovering or focusing a card reveals its description and
 * link.
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
  const { Image, icon: Icon } = product;
  const titleId = `product-${product.id}`;
  const descriptionId = `product-${product.id}-description`;
  const short = truncateWords(product.description, TRUNCATE_WORDS.products);

  return (
    <article
      aria-labelledby={titleId}
      className="group relative overflow-hidden rounded-3xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-xl hover:shadow-brand-900/10"
    >
      <Image className="aspect-[8/5] h-auto w-full" />
      <div className="flex items-center gap-4 p-6">
        <span
          className={`inline-flex size-12 shrink-0 items-center justify-center rounded-xl ${product.colorClasses}`}
        >
          <Icon className="size-6" aria-hidden="true" />
        </span>
        <div>
          <h3 id={titleId} className="text-xl font-semibold text-brand-900">
            {product.title}
          </h3>
          <p className="text-slate-600">{product.tagline}</p>
        </div>
      </div>

      {/* Shown on hover, and whenever focus is inside (keyboard), so every control in it stays reachable. */}
      <div
        data-testid="product-overlay"
        className="pointer-events-none absolute inset-0 flex flex-col overflow-y-auto bg-brand-900/90 p-6 text-white opacity-0 transition-opacity duration-300 group-focus-within:pointer-events-auto group-focus-within:opacity-100 group-hover:pointer-events-auto group-hover:opacity-100 backdrop-blur-md md:p-8"
      >
        <div className="mt-auto">
          <p aria-hidden="true" className="text-xl font-semibold">
            {product.title}
          </p>
          <p id={descriptionId} className="mt-3 leading-relaxed text-brand-100">
            {expanded ? product.description : short.text}
          </p>
          <div className="mt-5 flex flex-wrap items-center gap-4">
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
                <ArrowRight className="size-4 -rotate-45" aria-hidden="true" />
              </a>
            )}
          </div>
        </div>
      </div>
    </article>
  );
}
