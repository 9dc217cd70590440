/**
 * The firm's mark (a "P" on a rounded square with a warm dot), drawn on a 64 × 64 grid. The site's logo, the
 * favicon and the tax documents all draw these same shapes.
 */
export const BRAND_MARK = {
  size: 64,
  cornerRadius: 14,
  background: '#17324d',
  letterPath:
    'M18 46V18h15.5c6.4 0 10.5 3.9 10.5 9.6S39.9 37.2 33.5 37.2H25V46zm7-14.6h7.9c2.6 0 4.1-1.4 4.1-3.8s-1.5-3.8-4.1-3.8H25z',
  letterColour: '#ffffff',
  dot: { cx: 47, cy: 45, r: 4, colour: '#e47a52' },
} as const;
