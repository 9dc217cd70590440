import { type ArtProps, INK } from './palette';

const BARS = [46, 66, 60, 88, 108, 132];
const ARCH_XS = Array.from({ length: 11 }, (_, i) => 58 + i * 42);

/** A rising revenue chart over a row of Jaipur's pink arches; the ring nods to the 99% success rate. */
export function HeroArt({ className }: ArtProps) {
  const linePoints = BARS.map((h, i) => `${159 + i * 48},${276 - h - 16}`).join(' ');
  return (
    <svg viewBox="0 0 560 440" className={className} aria-hidden="true" focusable="false">
      <circle cx="300" cy="208" r="196" fill={INK.navy100} />
      <rect x="30" y="346" width="500" height="94" rx="6" fill={INK.accent100} />
      <rect x="24" y="336" width="512" height="12" rx="6" fill={INK.accent200} />
      {ARCH_XS.map((x) => (
        <g key={x} fill={INK.accent200}>
          <path d={`M${x - 12} 336a12 12 0 0 1 24 0z`} />
          <path d={`M${x - 11} 440v-48a11 11 0 0 1 22 0v48z`} />
          <path d={`M${x - 6} 374v-10a6 6 0 0 1 12 0v10z`} fill={INK.accent300} />
        </g>
      ))}
      <rect x="120" y="100" width="340" height="226" rx="20" fill={INK.navy900} opacity="0.1" />
      <rect x="110" y="86" width="340" height="226" rx="20" fill={INK.white} />
      <rect x="136" y="108" width="96" height="10" rx="5" fill={INK.navy200} />
      <rect x="136" y="126" width="60" height="8" rx="4" fill={INK.navy100} />
      <path d="M136 276h290" stroke={INK.navy100} strokeWidth="2" />
      {BARS.map((h, i) => (
        <rect
          key={h}
          x={145 + i * 48}
          y={276 - h}
          width="28"
          height={h}
          rx="6"
          fill={i === BARS.length - 1 ? INK.accent400 : i % 2 ? INK.navy600 : INK.navy700}
        />
      ))}
      <polyline
        points={linePoints}
        fill="none"
        stroke={INK.gold}
        strokeWidth="4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      {BARS.map((h, i) => (
        <circle
          key={h}
          cx={159 + i * 48}
          cy={276 - h - 16}
          r="5"
          fill={INK.white}
          stroke={INK.gold}
          strokeWidth="3"
        />
      ))}
      <rect x="410" y="18" width="124" height="112" rx="18" fill={INK.navy800} />
      <circle cx="472" cy="74" r="32" fill="none" stroke={INK.navy600} strokeWidth="10" />
      <circle
        cx="472"
        cy="74"
        r="32"
        fill="none"
        stroke={INK.accent300}
        strokeWidth="10"
        strokeLinecap="round"
        strokeDasharray="199 201"
        transform="rotate(-90 472 74)"
      />
      <path
        d="m458 75 9 9 18-20"
        fill="none"
        stroke={INK.white}
        strokeWidth="6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <ellipse cx="84" cy="312" rx="38" ry="11" fill={INK.accent500} />
      <rect x="46" y="282" width="76" height="30" fill={INK.accent500} />
      <ellipse cx="84" cy="282" rx="38" ry="11" fill={INK.accent400} />
      <ellipse cx="84" cy="266" rx="38" ry="11" fill={INK.accent500} />
      <rect x="46" y="248" width="76" height="18" fill={INK.accent500} />
      <ellipse cx="84" cy="248" rx="38" ry="11" fill={INK.accent300} />
      <path d="M70 248h28" stroke={INK.accent500} strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}
