import { SITE } from '../../shared/site';

/** The firm's mark and name. `tone` picks the text colour for light or dark backgrounds. */
export function BrandLogo({
  tone = 'dark',
  showName = true,
}: {
  tone?: 'dark' | 'light';
  showName?: boolean;
}) {
  return (
    <span className="inline-flex items-center gap-2.5">
      <svg viewBox="0 0 64 64" width="36" height="36" aria-hidden="true" className="shrink-0">
        <rect width="64" height="64" rx="14" fill="#17324d" />
        <path
          d="M18 46V18h15.5c6.4 0 10.5 3.9 10.5 9.6S39.9 37.2 33.5 37.2H25V46zm7-14.6h7.9c2.6 0 4.1-1.4 4.1-3.8s-1.5-3.8-4.1-3.8H25z"
          fill="#fff"
        />
        <circle cx="47" cy="45" r="4" fill="#e47a52" />
      </svg>
      {showName && (
        <span
          className={`text-lg font-semibold tracking-tight ${tone === 'light' ? 'text-white' : 'text-brand-800'}`}
        >
          {SITE.name}
        </span>
      )}
    </span>
  );
}
