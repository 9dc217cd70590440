import { SITE } from '../../shared/site';
import { ChatButton } from '../components/ChatButton';
import { SiteFooter } from '../components/SiteFooter';
import { HeroSection } from '../features/home/HeroSection';
import { HomeHeader } from '../features/home/HomeHeader';
import { partWhenSeen, WhenSeen } from '../lib/hydrate-when-seen';

type Section = keyof typeof import('../features/home/below-the-fold');
/** One of the sections below the hero, from their shared chunk, hydrated when seen. */
const belowTheFold = (selector: string, section: Section) =>
  partWhenSeen(selector, () => import('../features/home/below-the-fold').then((module) => module[section]));
const ABOUT = belowTheFold('#about', 'AboutSection');
const SERVICES = belowTheFold('#services', 'ServicesSection');
const PRODUCTS = belowTheFold('#products', 'ProductsSection');
const TOOLS_PROMO = belowTheFold('#tools-promo', 'ToolsPromoSection');

/** Fetches the sections' code before the router shows this page (src/web/App.tsx). */
export const preload = () =>
  Promise.all([ABOUT, SERVICES, PRODUCTS, TOOLS_PROMO].map((part) => part.preload()));

/**
 * Home (docs/product.md §2): hero, about, services, products and the tools shop teaser, with the home chat
 * greeting. The sections below the hero hydrate when the visitor comes near them (decision 024).
 */
export default function HomePage() {
  return (
    <>
      {/* The same link as components/SkipLink, written out: importing it would pull the pages' header chunk in. */}
      <a
        href="#main"
        data-skip-link
        className="sr-only z-50 rounded-full bg-white px-4 py-2 font-semibold text-brand-900 shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <HomeHeader />
      <main id="main" tabIndex={-1} className="pt-16 outline-none md:pt-0">
        <HeroSection />
        <WhenSeen part={ABOUT} />
        <WhenSeen part={SERVICES} />
        <WhenSeen part={PRODUCTS} />
        <WhenSeen part={TOOLS_PROMO} />
      </main>
      <SiteFooter />
      {/* A landmark of its own, so the floating button is not content outside every region. */}
      <aside aria-label="Chat">
        <ChatButton message={SITE.chat.homeMessage} />
      </aside>
    </>
  );
}
