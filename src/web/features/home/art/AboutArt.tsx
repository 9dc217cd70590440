import type { ReactNode } from 'react';
import { type ArtProps, INK } from './palette';

/** Illustrations for the five About cards: one scene per card, same 320×220 canvas and palette. */

function Canvas({ className, children }: ArtProps & { children: ReactNode }) {
  return (
    <svg viewBox="0 0 320 220" className={className} aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

function Person({ x, y, body, skin = INK.accent200 }: { x: number; y: number; body: string; skin?: string }) {
  return (
    <g>
      <path d={`M${x - 34} ${y + 92}v-22a34 34 0 0 1 68 0v22z`} fill={body} />
      <circle cx={x} cy={y + 18} r="20" fill={skin} />
      <path d={`M${x - 20} ${y + 16}a20 20 0 0 1 40 0c-8-6-26-8-40 0z`} fill={INK.navy900} />
    </g>
  );
}

export function TeamArt({ className }: ArtProps) {
  return (
    <Canvas className={className}>
      <circle cx="160" cy="118" r="92" fill={INK.navy100} />
      <rect x="194" y="26" width="92" height="46" rx="12" fill={INK.white} />
      <path d="m212 72-6 14 18-14z" fill={INK.white} />
      <circle cx="218" cy="49" r="5" fill={INK.accent400} />
      <circle cx="240" cy="49" r="5" fill={INK.navy400} />
      <circle cx="262" cy="49" r="5" fill={INK.navy700} />
      <Person x={98} y={88} body={INK.navy500} />
      <Person x={222} y={88} body={INK.accent400} />
      <Person x={160} y={72} body={INK.navy700} skin={INK.accent300} />
      <rect x="40" y="178" width="240" height="14" rx="7" fill={INK.navy800} />
    </Canvas>
  );
}

export function FinanceArt({ className }: ArtProps) {
  return (
    <Canvas className={className}>
      <circle cx="160" cy="112" r="92" fill={INK.navy100} />
      <rect x="62" y="34" width="132" height="160" rx="12" fill={INK.white} />
      <rect x="78" y="52" width="64" height="9" rx="4.5" fill={INK.navy700} />
      {[78, 100, 122, 144].map((y) => (
        <g key={y}>
          <rect x="78" y={y} width="58" height="7" rx="3.5" fill={INK.navy200} />
          <rect x="150" y={y} width="30" height="7" rx="3.5" fill={y === 144 ? INK.accent400 : INK.navy300} />
        </g>
      ))}
      <path d="M78 166h102" stroke={INK.navy700} strokeWidth="3" />
      <rect x="176" y="86" width="82" height="110" rx="12" fill={INK.navy800} />
      <rect x="188" y="98" width="58" height="22" rx="5" fill={INK.teal} />
      {[0, 1, 2].map((row) =>
        [0, 1, 2].map((col) => (
          <rect
            key={`${row}-${col}`}
            x={188 + col * 21}
            y={130 + row * 20}
            width="15"
            height="13"
            rx="3"
            fill={row === 2 && col === 2 ? INK.accent400 : INK.navy500}
          />
        )),
      )}
      <ellipse cx="276" cy="188" rx="22" ry="7" fill={INK.accent500} />
      <rect x="254" y="172" width="44" height="16" fill={INK.accent500} />
      <ellipse cx="276" cy="172" rx="22" ry="7" fill={INK.gold} />
    </Canvas>
  );
}

export function ExperienceArt({ className }: ArtProps) {
  return (
    <Canvas className={className}>
      <circle cx="160" cy="114" r="92" fill={INK.navy100} />
      <rect x="56" y="140" width="64" height="54" rx="6" fill={INK.navy400} />
      <rect x="128" y="108" width="64" height="86" rx="6" fill={INK.navy600} />
      <rect x="200" y="70" width="64" height="124" rx="6" fill={INK.navy800} />
      <path d="M232 70V26" stroke={INK.navy900} strokeWidth="4" strokeLinecap="round" />
      <path d="M234 28h36l-9 11 9 11h-36z" fill={INK.accent400} />
      <circle cx="88" cy="120" r="10" fill={INK.gold} />
      <circle cx="160" cy="88" r="10" fill={INK.gold} />
      <path
        d="M88 120 160 88l56-30"
        fill="none"
        stroke={INK.gold}
        strokeWidth="4"
        strokeDasharray="2 10"
        strokeLinecap="round"
      />
      <rect x="36" y="192" width="248" height="8" rx="4" fill={INK.navy900} />
    </Canvas>
  );
}

export function ApproachArt({ className }: ArtProps) {
  return (
    <Canvas className={className}>
      <circle cx="160" cy="112" r="92" fill={INK.navy100} />
      <path
        d="M52 186c40 0 34-58 80-58s38 34 76 34 34-66 58-92"
        fill="none"
        stroke={INK.navy400}
        strokeWidth="6"
        strokeDasharray="1 14"
        strokeLinecap="round"
      />
      <circle cx="52" cy="186" r="11" fill={INK.navy700} />
      <circle cx="132" cy="128" r="11" fill={INK.navy700} />
      <circle cx="208" cy="162" r="11" fill={INK.navy700} />
      <path
        d="m47 186 4 4 7-8m69-54 4 4 7-8m69 30 4 4 7-8"
        fill="none"
        stroke={INK.white}
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="262" cy="62" r="40" fill={INK.white} />
      <circle cx="262" cy="62" r="28" fill={INK.accent200} />
      <circle cx="262" cy="62" r="16" fill={INK.accent400} />
      <circle cx="262" cy="62" r="5" fill={INK.navy900} />
      <path d="m262 62 34-30" stroke={INK.navy900} strokeWidth="4" strokeLinecap="round" />
      <path d="m288 28 14-4-4 14z" fill={INK.navy900} />
    </Canvas>
  );
}

export function WhyArt({ className }: ArtProps) {
  return (
    <Canvas className={className}>
      <circle cx="160" cy="112" r="92" fill={INK.navy100} />
      <path d="M160 28 226 52v52c0 44-28 74-66 90-38-16-66-46-66-90V52z" fill={INK.navy700} />
      <path d="M160 44 212 63v41c0 35-21 59-52 73z" fill={INK.navy600} />
      <path
        d="m130 108 20 20 40-44"
        fill="none"
        stroke={INK.white}
        strokeWidth="12"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      {[
        [62, 66, 1],
        [262, 74, 0.8],
        [250, 170, 0.6],
        [74, 162, 0.7],
      ].map(([x = 0, y = 0, s = 1]) => (
        <path
          key={`${x}-${y}`}
          transform={`translate(${x} ${y}) scale(${s})`}
          d="M0-16 4.7-6.5 15.2-5l-7.6 7.4L9.4 13 0 8l-9.4 5 1.8-10.6L-15.2-5l10.5-1.5z"
          fill={INK.gold}
        />
      ))}
    </Canvas>
  );
}
