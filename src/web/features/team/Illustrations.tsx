/**
 * Our own artwork for the Our Team page: a Jaipur jharokha arch framing rising results, flanked by the two
 * teams' emblems (a ledger and a browser). Decorative only, so hidden from assistive technology.
 */

const NAVY_900 = '#0f2236';
const NAVY_800 = '#17324d';
const NAVY_700 = '#204265';
const NAVY_200 = '#b9cfe5';
const NAVY_100 = '#dde8f3';
const ACCENT_400 = '#e47a52';
const ACCENT_200 = '#f5c4ae';

export function TeamHeroArt({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 480 400" aria-hidden="true" focusable="false" className={className}>
      <circle cx="250" cy="210" r="180" fill={NAVY_100} />
      <circle cx="372" cy="92" r="30" fill={ACCENT_200} />
      <path d="M140 362V196q0-78 100-116 100 38 100 116v166z" fill={NAVY_800} />
      <path d="M164 362V200q0-60 76-92 76 32 76 92v162z" fill={NAVY_700} />
      <g fill={NAVY_200}>
        <rect x="182" y="300" width="22" height="62" rx="4" />
        <rect x="212" y="272" width="22" height="90" rx="4" />
        <rect x="242" y="244" width="22" height="118" rx="4" />
        <rect x="272" y="210" width="22" height="152" rx="4" />
      </g>
      <polyline
        points="186,282 222,250 252,226 292,176"
        fill="none"
        stroke={ACCENT_400}
        strokeWidth="6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="292" cy="176" r="9" fill={ACCENT_400} />
      <rect x="110" y="358" width="260" height="14" rx="7" fill={NAVY_900} />
      <g transform="translate(40 150)">
        <rect width="104" height="124" rx="14" fill="#fff" stroke={NAVY_200} strokeWidth="2" />
        <rect x="16" y="18" width="44" height="8" rx="4" fill={NAVY_800} />
        <g fill={NAVY_100}>
          <rect x="16" y="40" width="72" height="6" rx="3" />
          <rect x="16" y="56" width="72" height="6" rx="3" />
          <rect x="16" y="72" width="72" height="6" rx="3" />
        </g>
        <rect x="16" y="92" width="40" height="12" rx="6" fill={ACCENT_200} />
        <text
          x="74"
          y="102"
          fontFamily="Inter Variable, system-ui, sans-serif"
          fontSize="14"
          fontWeight="700"
          fill={NAVY_800}
        >
          ₹
        </text>
      </g>
      <g transform="translate(346 196)">
        <rect width="112" height="92" rx="14" fill="#fff" stroke={NAVY_200} strokeWidth="2" />
        <circle cx="16" cy="16" r="4" fill={ACCENT_400} />
        <circle cx="30" cy="16" r="4" fill={NAVY_200} />
        <circle cx="44" cy="16" r="4" fill={NAVY_200} />
        <path
          d="M38 44l-14 14 14 14M74 44l14 14-14 14M62 40 50 76"
          fill="none"
          stroke={NAVY_800}
          strokeWidth="6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </g>
    </svg>
  );
}

export function LedgerArt({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 160 120" aria-hidden="true" focusable="false" className={className}>
      <rect x="18" y="14" width="84" height="96" rx="10" fill="#fff" stroke={NAVY_200} strokeWidth="2" />
      <rect x="30" y="28" width="36" height="7" rx="3.5" fill={NAVY_800} />
      <g fill={NAVY_100}>
        <rect x="30" y="46" width="60" height="5" rx="2.5" />
        <rect x="30" y="60" width="60" height="5" rx="2.5" />
        <rect x="30" y="74" width="44" height="5" rx="2.5" />
      </g>
      <rect x="30" y="90" width="28" height="9" rx="4.5" fill={ACCENT_200} />
      <circle cx="116" cy="66" r="30" fill={NAVY_700} />
      <path d="M116 66V36a30 30 0 0 1 28.5 39.3z" fill={ACCENT_400} />
      <circle cx="116" cy="66" r="12" fill="#fff" />
    </svg>
  );
}

export function BrowserArt({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 160 120" aria-hidden="true" focusable="false" className={className}>
      <rect x="10" y="14" width="120" height="88" rx="10" fill="#fff" stroke={NAVY_200} strokeWidth="2" />
      <path d="M10 24a10 10 0 0 1 10-10h100a10 10 0 0 1 10 10v8H10z" fill={NAVY_100} />
      <circle cx="22" cy="23" r="3" fill={ACCENT_400} />
      <circle cx="32" cy="23" r="3" fill={NAVY_200} />
      <circle cx="42" cy="23" r="3" fill={NAVY_200} />
      <rect x="22" y="44" width="44" height="34" rx="5" fill={NAVY_700} />
      <g fill={NAVY_100}>
        <rect x="74" y="44" width="44" height="6" rx="3" />
        <rect x="74" y="58" width="36" height="6" rx="3" />
        <rect x="74" y="72" width="40" height="6" rx="3" />
      </g>
      <rect x="22" y="86" width="30" height="8" rx="4" fill={ACCENT_200} />
      <circle cx="134" cy="90" r="20" fill={NAVY_800} />
      <path
        d="M128 83l-7 7 7 7M140 83l7 7-7 7"
        fill="none"
        stroke="#fff"
        strokeWidth="3.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
