import { type ArtProps, INK } from './palette';

/** Pictures for the two product cards, on a 480×300 canvas (the card keeps that 8:5 ratio, so nothing shifts). */

export function BiDashboardArt({ className }: ArtProps) {
  return (
    <svg viewBox="0 0 480 300" className={className} aria-hidden="true" focusable="false">
      <rect width="480" height="300" fill={INK.navy50} />
      <rect x="40" y="34" width="400" height="240" rx="16" fill={INK.navy900} opacity="0.08" />
      <rect x="32" y="26" width="400" height="240" rx="16" fill={INK.white} />
      <path d="M32 42a16 16 0 0 1 16-16h54v240H48a16 16 0 0 1-16-16z" fill={INK.navy800} />
      {[56, 80, 104, 128].map((y) => (
        <rect key={y} x="46" y={y} width={y === 56 ? 40 : 30} height="8" rx="4" fill={INK.navy500} />
      ))}
      {[0, 1, 2].map((i) => (
        <g key={i}>
          <rect x={120 + i * 100} y="44" width="88" height="52" rx="10" fill={INK.navy50} />
          <rect x={132 + i * 100} y="56" width="34" height="7" rx="3.5" fill={INK.navy300} />
          <rect
            x={132 + i * 100}
            y="72"
            width="52"
            height="12"
            rx="6"
            fill={[INK.navy700, INK.accent400, INK.teal][i]}
          />
        </g>
      ))}
      <rect x="120" y="110" width="188" height="138" rx="10" fill={INK.navy50} />
      <path d="M134 224c20-6 28-40 50-40s26 22 46 22 30-50 64-62v82H134z" fill={INK.navy200} opacity="0.8" />
      <path
        d="M134 224c20-6 28-40 50-40s26 22 46 22 30-50 64-62"
        fill="none"
        stroke={INK.navy600}
        strokeWidth="4"
        strokeLinecap="round"
      />
      <rect x="320" y="110" width="88" height="138" rx="10" fill={INK.navy50} />
      <circle cx="364" cy="160" r="26" fill="none" stroke={INK.navy200} strokeWidth="12" />
      <circle
        cx="364"
        cy="160"
        r="26"
        fill="none"
        stroke={INK.accent400}
        strokeWidth="12"
        strokeDasharray="104 164"
        transform="rotate(-90 364 160)"
      />
      {[204, 220].map((y) => (
        <rect key={y} x="336" y={y} width={y === 204 ? 56 : 40} height="8" rx="4" fill={INK.navy300} />
      ))}
    </svg>
  );
}

export function PdfToolsArt({ className }: ArtProps) {
  return (
    <svg viewBox="0 0 480 300" className={className} aria-hidden="true" focusable="false">
      <rect width="480" height="300" fill={INK.accent100} />
      <circle cx="240" cy="150" r="118" fill={INK.accent200} opacity="0.7" />
      <g transform="rotate(-8 170 150)">
        <rect x="110" y="58" width="130" height="170" rx="12" fill={INK.white} />
        {[92, 112, 132, 152].map((y) => (
          <rect key={y} x="130" y={y} width={y === 152 ? 54 : 90} height="8" rx="4" fill={INK.navy200} />
        ))}
      </g>
      <rect x="216" y="50" width="140" height="184" rx="12" fill={INK.navy900} opacity="0.1" />
      <rect x="208" y="42" width="140" height="184" rx="12" fill={INK.white} />
      <path d="M308 42h28a12 12 0 0 1 12 12v28z" fill={INK.navy100} />
      {[84, 104, 124, 144, 164].map((y) => (
        <rect key={y} x="228" y={y} width={y === 164 ? 60 : 100} height="8" rx="4" fill={INK.navy200} />
      ))}
      <rect x="228" y="186" width="64" height="26" rx="6" fill={INK.accent500} />
      <path
        d="M239 205v-12h5a3.5 3.5 0 0 1 0 7h-5m14 5v-12h4a6 6 0 0 1 0 12zm17 0v-12h8m-8 6h6"
        fill="none"
        stroke={INK.white}
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="356" cy="226" r="30" fill={INK.navy800} />
      <path
        d="m342 226 10 10 18-20"
        fill="none"
        stroke={INK.white}
        strokeWidth="6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The tools shop dashboard in miniature: a notice bar, a search box and a grid of tool cards. */
export function ToolsShopArt({ className }: ArtProps) {
  const tileColours = [INK.accent400, INK.navy600, INK.teal, INK.gold, INK.navy400, INK.accent300];
  return (
    <svg viewBox="0 0 560 380" className={className} aria-hidden="true" focusable="false">
      <rect x="10" y="14" width="540" height="356" rx="18" fill={INK.navy950} opacity="0.5" />
      <rect width="540" height="356" rx="18" fill={INK.white} />
      <path d="M0 18A18 18 0 0 1 18 0h504a18 18 0 0 1 18 18v26H0z" fill={INK.navy900} />
      <circle cx="22" cy="22" r="6" fill={INK.accent400} />
      <circle cx="42" cy="22" r="6" fill={INK.gold} />
      <circle cx="62" cy="22" r="6" fill={INK.teal} />
      <rect x="24" y="62" width="492" height="34" rx="8" fill={INK.accent100} />
      <rect x="40" y="75" width="220" height="8" rx="4" fill={INK.accent300} />
      <rect x="24" y="112" width="110" height="12" rx="6" fill={INK.navy800} />
      <rect x="300" y="108" width="150" height="22" rx="11" fill={INK.navy50} stroke={INK.navy200} />
      <rect x="460" y="108" width="56" height="22" rx="11" fill={INK.navy700} />
      {tileColours.map((colour, i) => {
        const x = 24 + (i % 3) * 168;
        const y = 146 + Math.floor(i / 3) * 104;
        return (
          <g key={colour}>
            <rect x={x} y={y} width="156" height="92" rx="12" fill={INK.navy50} />
            <rect x={x + 12} y={y + 12} width="28" height="28" rx="8" fill={colour} />
            <rect x={x + 50} y={y + 16} width="74" height="8" rx="4" fill={INK.navy600} />
            <rect x={x + 50} y={y + 30} width="46" height="7" rx="3.5" fill={INK.navy200} />
            <rect x={x + 12} y={y + 56} width="132" height="22" rx="8" fill={INK.navy800} />
          </g>
        );
      })}
    </svg>
  );
}
