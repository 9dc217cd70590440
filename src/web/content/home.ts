/**
 * What the home page's first screen says: the navigation and the hero (docs/product.md §2). The sections below it
 * say theirs in `home-sections.ts`, which loads with their code (docs/decisions/024-hydrate-below-the-fold-when-seen.md).
 * Components only render this data, so a wording change never touches layout code.
 */
import { CLAIMS, type SCROLL_OFFSETS } from '../../shared/constants';
import { SITE } from '../../shared/site';

export type SectionId = keyof typeof SCROLL_OFFSETS;

export type NavEntry = { id: SectionId; label: string };

/** The home navigation bar (docs/product.md §2): same four entries on desktop and in the mobile drawer. */
export const HOME_NAV: readonly NavEntry[] = [
  { id: 'home', label: 'Home' },
  { id: 'about', label: 'About' },
  { id: 'services', label: 'Services' },
  { id: 'products', label: 'Products' },
];

export const HERO = {
  title: 'Grow Your Business Strategically',
  tagline: SITE.tagline,
  successClaim: `${CLAIMS.clientSuccessRate} Client Success Rate`,
  stats: [
    { value: CLAIMS.combinedExperience, label: 'Years of combined experience' },
    { value: CLAIMS.founderExperience, label: 'Years of founder experience' },
    { value: CLAIMS.teamExperience, label: 'Years of team experience' },
  ],
} as const;
