/**
 * Our own marks for the two desktop platforms: a monitor with a taskbar and a laptop with a menu bar. They are
 * deliberately generic drawings, not the vendors' trademarked logos, and always appear next to the platform's name.
 * Unlike the illustrations they stay inline: each is a few hundred bytes and takes its colour from the text
 * (`currentColor`), which a picture loaded as an image cannot.
 */

/**
 * Each platform's drawing, a group (a few bytes lighter than a fragment on the home page); both are drawn in one frame
 * (below), so they match in size and stroke.
 */
const DRAWINGS = {
  // A monitor with a taskbar.
  Windows: (
    <g>
      <rect x="4" y="6" width="32" height="22" rx="3" />
      <path d="M4 23h32M15 34h10M20 28v6" />
      <path d="M8 25.5h3m3 0h2" strokeWidth="1.6" />
    </g>
  ),
  // A laptop with a menu bar.
  macOS: (
    <g>
      <rect x="7" y="8" width="26" height="18" rx="2.5" />
      <path d="M7 12h26M3 31h34l-3-5H6z" />
      <circle cx="10" cy="10" r="0.6" strokeWidth="1.4" />
    </g>
  ),
} as const;

export function PlatformMark({
  platform,
  className,
}: {
  platform: keyof typeof DRAWINGS;
  className?: string;
}) {
  return (
    <svg
      viewBox="0 0 40 40"
      className={className}
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {DRAWINGS[platform]}
    </svg>
  );
}
