/**
 * The home sections below the first screen, one chunk that loads when the visitor comes near the first of them
 * (src/web/pages/HomePage.tsx).
 */
export { AboutSection } from './AboutSection';
export { ProductsSection } from './ProductsSection';
export { ServicesSection } from './ServicesSection';
export { ToolsPromoSection } from './ToolsPromoSection';
