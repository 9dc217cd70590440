import { Mail, MapPin, MessageCircle, Phone } from 'lucide';
import type { ReactNode } from 'react';
import { chatLink, formatAddress, SITE } from '../../../shared/site';
import { Icon } from '../../components/Icon';

function DetailRow({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <li className="flex gap-4">
      <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-white/10 text-accent-200">
        {icon}
      </span>
      <div className="min-w-0">
        <p className="text-sm font-medium text-brand-200">{label}</p>
        <div className="mt-0.5 text-base break-words text-white">{children}</div>
      </div>
    </li>
  );
}

/** The contact panel (docs/product.md §2): phone, email and the Jaipur address, each usable in one tap. */
export function ContactDetails() {
  return (
    <section
      aria-labelledby="contact-details-heading"
      className="relative overflow-hidden rounded-2xl bg-brand-800 p-6 text-white shadow-lg shadow-brand-900/10 sm:p-8"
    >
      {/* Hung from the top corner: the panel's height settles late on a slow phone, and a decoration anchored to the
          bottom moved with it (CLS 0.059 in the audit). */}
      <svg
        aria-hidden="true"
        viewBox="0 0 200 200"
        className="pointer-events-none absolute -top-16 -right-16 size-64 text-white/5"
      >
        <circle cx="100" cy="100" r="98" fill="none" stroke="currentColor" strokeWidth="2" />
        <circle cx="100" cy="100" r="70" fill="none" stroke="currentColor" strokeWidth="2" />
        <circle cx="100" cy="100" r="42" fill="currentColor" />
      </svg>
      <h2 id="contact-details-heading" className="text-xl font-semibold">
        Contact information
      </h2>
      <p className="mt-2 text-brand-100">
        Call or write to us directly — we are glad to talk through your books, taxes or next website.
      </p>
      <ul className="relative mt-8 space-y-6">
        <DetailRow icon={<Icon node={Phone} className="size-5" />} label="Phone">
          <a href={SITE.phoneHref} className="font-medium underline-offset-4 hover:underline">
            {SITE.phone}
          </a>
        </DetailRow>
        <DetailRow icon={<Icon node={Mail} className="size-5" />} label="Email">
          <a href={`mailto:${SITE.email}`} className="font-medium underline-offset-4 hover:underline">
            {SITE.email}
          </a>
        </DetailRow>
        <DetailRow icon={<Icon node={MapPin} className="size-5" />} label="Registered office">
          <address className="not-italic leading-relaxed">
            {[SITE.legalName, ...formatAddress('\n').split('\n')].map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
          </address>
        </DetailRow>
      </ul>
      <a
        href={chatLink(SITE.chat.defaultMessage)}
        target="_blank"
        rel="noopener noreferrer"
        className="relative mt-8 inline-flex items-center gap-2 rounded-lg bg-white px-4 py-2.5 text-sm font-semibold text-brand-900 transition-colors hover:bg-brand-50"
      >
        <Icon node={MessageCircle} className="size-4" />
        Chat on WhatsApp
        <span className="sr-only">(opens in a new tab)</span>
      </a>
    </section>
  );
}
