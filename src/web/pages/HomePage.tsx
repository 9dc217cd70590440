import { SITE } from '../../shared/site';
import { ChatButton } from '../components/ChatButton';
import { SiteFooter } from '../components/SiteFooter';
import { AboutSection } from '../features/home/AboutSection';
import { HeroSection } from '../features/home/HeroSection';
import { HomeHeader } from '../features/home/HomeHeader';
import { ProductsSection } from '../features/home/ProductsSection';
import { ServicesSection } from '../features/home/ServicesSection';
import { ToolsPromoSection } from '../features/home/ToolsPromoSection';

/**
 * Home (docs/product.md §2): hero, about, services, products and the tools shop teaser, with the home chat
 * greeting.
 */
export default function HomePage() {
  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded-full bg-white px-4 py-2 font-semibold text-brand-900 shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <HomeHeader />
      <main id="main" tabIndex={-1} className="pt-16 outline-none md:pt-0">
        <HeroSection />
        <AboutSection />
        <ServicesSection />
        <ProductsSection />
        <ToolsPromoSection />
      </main>
      <SiteFooter />
      {/* A landmark of its own, so the floating button is not content outside every region. */}
      <aside aria-label="Chat">
        <ChatButton message={SITE.chat.homeMessage} />
      </aside>
    </>
  );
}
