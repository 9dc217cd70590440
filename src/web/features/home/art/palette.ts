/** The brand palette from styles.css, for SVG fills (Tailwind classes do not reach SVG attributes). */
export const INK = {
  navy950: '#0a1827',
  navy900: '#0f2236',
  navy800: '#17324d',
  navy700: '#204265',
  navy600: '#2a527c',
  navy500: '#3a6898',
  navy400: '#5a87b5',
  navy300: '#8aaed0',
  navy200: '#b9cfe5',
  navy100: '#dde8f3',
  navy50: '#f1f6fb',
  accent500: '#d65f35',
  accent400: '#e47a52',
  accent300: '#ee9f7d',
  accent200: '#f5c4ae',
  accent100: '#fbe4da',
  gold: '#f2b84b',
  teal: '#3fa7a0',
  white: '#ffffff',
} as const;

export type ArtProps = { className?: string };
