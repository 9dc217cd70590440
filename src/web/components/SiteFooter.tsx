import { Link } from 'wouter';
import { COPYRIGHT_YEAR } from '../../shared/constants';
import { SITE } from '../../shared/site';
import { BrandLogo } from './BrandLogo';

const FOOTER_LINKS = [
  { to: '/OurTeam', label: 'Our Team' },
  { to: '/Contact', label: 'Contact' },
  { to: '/PrivacyPolicy', label: 'Privacy Policy' },
  { to: '/TermsAndConditions', label: 'Terms and condition' },
  { to: '/refund-policy', label: 'Refund Policy' },
  { to: '/shipping-policy', label: 'Shipping & Delivery' },
] as const;

/**
 * Footer (docs/product.md §1, §2): logo to /, the four links in new tabs, a contact email link, copyright
 * 2025.
 */
export function SiteFooter() {
  return (
    <footer className="bg-brand-900 text-brand-100">
      <div className="mx-auto flex max-w-6xl flex-col gap-8 px-6 py-12 md:flex-row md:items-start md:justify-between">
        <div className="max-w-sm space-y-3">
          <Link to="/" aria-label={`${SITE.name} home`} className="inline-block">
            <BrandLogo tone="light" />
          </Link>
          <p className="text-sm leading-relaxed text-brand-200">{SITE.tagline}</p>
          <a
            href={`mailto:${SITE.email}`}
            className="inline-block text-sm font-medium text-white underline-offset-4 hover:underline"
          >
            {SITE.email}
          </a>
        </div>
        <nav aria-label="Footer">
          <ul className="grid grid-cols-2 gap-x-10 gap-y-3 text-sm">
            {FOOTER_LINKS.map((link) => (
              <li key={link.to}>
                <a
                  href={link.to}
                  target="_blank"
                  rel="noopener"
                  className="text-brand-100 underline-offset-4 hover:text-white hover:underline"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-6xl px-6 py-5 text-xs text-brand-200">
          © {COPYRIGHT_YEAR} {SITE.name}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
