import type { ReactNode } from 'react';
import { type ArtProps, INK } from './palette';

/**
 * Backgrounds for the four service cards. They sit under a navy overlay, so they use mid tones on a dark base and
 * fill the card whatever its shape ("slice").
 */

function Backdrop({ className, children }: ArtProps & { children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 480 320"
      preserveAspectRatio="xMidYMid slice"
      className={className}
      aria-hidden="true"
      focusable="false"
    >
      <rect width="480" height="320" fill={INK.navy700} />
      <g fill="none" stroke={INK.navy600} strokeWidth="1">
        {[40, 80, 120, 160, 200, 240, 280].map((y) => (
          <path key={y} d={`M0 ${y}h480`} />
        ))}
      </g>
      {children}
    </svg>
  );
}

export function FundAccountingArt({ className }: ArtProps) {
  return (
    <Backdrop className={className}>
      <circle cx="352" cy="112" r="78" fill={INK.navy500} />
      <path d="M352 112V34a78 78 0 0 1 74 54z" fill={INK.accent400} />
      <path d="m352 112 74-24a78 78 0 0 1-30 88z" fill={INK.gold} />
      <circle cx="352" cy="112" r="30" fill={INK.navy700} />
      <g stroke={INK.navy300} strokeWidth="3" fill="none">
        <path d="M120 70v40M60 150v-40h120v40M120 110v40" />
      </g>
      <rect x="84" y="40" width="72" height="34" rx="8" fill={INK.navy300} />
      <rect x="28" y="150" width="64" height="30" rx="8" fill={INK.navy400} />
      <rect x="88" y="150" width="64" height="30" rx="8" fill={INK.accent300} />
      <rect x="148" y="150" width="64" height="30" rx="8" fill={INK.navy400} />
    </Backdrop>
  );
}

export function BusinessAccountingArt({ className }: ArtProps) {
  return (
    <Backdrop className={className}>
      <rect x="250" y="26" width="170" height="214" rx="14" fill={INK.navy500} />
      {[54, 82, 110, 138, 166].map((y, i) => (
        <g key={y}>
          <rect x="270" y={y} width="76" height="10" rx="5" fill={INK.navy300} />
          <rect x="360" y={y} width="40" height="10" rx="5" fill={i === 4 ? INK.accent300 : INK.navy200} />
        </g>
      ))}
      <path d="M270 196h130" stroke={INK.navy200} strokeWidth="3" />
      <path d="M64 40h118v170l-14-10-15 10-15-10-15 10-15-10-15 10-15-10-14 10z" fill={INK.navy400} />
      {[64, 88, 112, 136].map((y) => (
        <rect key={y} x="82" y={y} width={y === 136 ? 48 : 82} height="9" rx="4.5" fill={INK.navy200} />
      ))}
      <circle cx="154" cy="166" r="18" fill={INK.gold} />
      <path
        d="m146 166 6 6 11-12"
        fill="none"
        stroke={INK.navy800}
        strokeWidth="4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </Backdrop>
  );
}

export function PlanningArt({ className }: ArtProps) {
  return (
    <Backdrop className={className}>
      <path d="M30 270 110 214l70 24 90-84 70 30 110-110v216H30z" fill={INK.navy500} opacity="0.7" />
      <path
        d="M30 270 110 214l70 24 90-84 70 30 110-110"
        fill="none"
        stroke={INK.accent300}
        strokeWidth="7"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path d="m420 54 34-8-8 34z" fill={INK.accent300} />
      {[
        [110, 214],
        [180, 238],
        [270, 154],
        [340, 184],
      ].map(([x = 0, y = 0]) => (
        <circle key={x} cx={x} cy={y} r="9" fill={INK.navy800} stroke={INK.gold} strokeWidth="4" />
      ))}
      <rect x="44" y="38" width="120" height="70" rx="12" fill={INK.navy400} />
      <rect x="60" y="56" width="56" height="9" rx="4.5" fill={INK.navy200} />
      <rect x="60" y="78" width="86" height="14" rx="7" fill={INK.gold} />
    </Backdrop>
  );
}

export function WebDevelopmentArt({ className }: ArtProps) {
  return (
    <Backdrop className={className}>
      <rect x="40" y="36" width="300" height="210" rx="16" fill={INK.navy500} />
      <path d="M40 52a16 16 0 0 1 16-16h268a16 16 0 0 1 16 16v18H40z" fill={INK.navy400} />
      <circle cx="62" cy="53" r="6" fill={INK.accent300} />
      <circle cx="82" cy="53" r="6" fill={INK.gold} />
      <circle cx="102" cy="53" r="6" fill={INK.teal} />
      <rect x="62" y="92" width="120" height="74" rx="8" fill={INK.navy300} />
      <rect x="198" y="92" width="120" height="12" rx="6" fill={INK.navy200} />
      <rect x="198" y="114" width="92" height="12" rx="6" fill={INK.navy300} />
      <rect x="198" y="136" width="64" height="20" rx="10" fill={INK.accent300} />
      <path
        d="m112 196-22 14 22 14m40-28 22 14-22 14m-12-34-12 40"
        fill="none"
        stroke={INK.navy100}
        strokeWidth="6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <rect x="356" y="110" width="90" height="170" rx="16" fill={INK.navy800} />
      <rect x="366" y="130" width="70" height="120" rx="6" fill={INK.navy400} />
      <rect x="376" y="142" width="50" height="34" rx="5" fill={INK.navy200} />
      <rect x="376" y="186" width="50" height="8" rx="4" fill={INK.navy300} />
      <rect x="376" y="202" width="34" height="8" rx="4" fill={INK.navy300} />
      <rect x="376" y="222" width="50" height="16" rx="8" fill={INK.accent300} />
    </Backdrop>
  );
}
