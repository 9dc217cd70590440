import { ArrowRight, House, Mail, Wrench } from 'lucide';
import { Link } from 'wouter';
import { Icon } from '../components/Icon';
import { PageHeader } from '../components/PageHeader';
import { SiteFooter } from '../components/SiteFooter';

const DESTINATIONS = [
  {
    to: '/',
    label: 'Home',
    text: 'Our services in accounting, tax, business planning and web development.',
    icon: House,
  },
  {
    to: '/utility-tools',
    label: 'Utility Tools',
    text: 'Licensed desktop PDF tools for Windows and macOS, with lifetime validity.',
    icon: Wrench,
  },
  {
    to: '/Contact',
    label: 'Contact',
    text: 'Ask us anything — we will point you in the right direction.',
    icon: Mail,
  },
] as const;

function LostArt() {
  return (
    <svg viewBox="0 0 240 120" aria-hidden="true" focusable="false" className="h-24 w-48 sm:h-28 sm:w-56">
      <text
        x="120"
        y="96"
        textAnchor="middle"
        fontFamily="system-ui, sans-serif"
        fontSize="104"
        fontWeight="800"
        fill="#dde8f3"
      >
        404
      </text>
      <circle cx="120" cy="60" r="26" fill="#17324d" />
      <circle cx="120" cy="60" r="15" fill="none" stroke="#fff" strokeWidth="4" />
      <path d="M131 71l13 13" stroke="#e47a52" strokeWidth="7" strokeLinecap="round" />
    </svg>
  );
}

/** Shown, with HTTP 404, for any address the site does not have. */
export default function NotFoundPage() {
  return (
    <>
      <PageHeader />
      <main id="main" tabIndex={-1} className="bg-gradient-to-b from-brand-50 to-white outline-none">
        <div className="mx-auto max-w-4xl px-5 py-16 text-center sm:px-6 md:py-24">
          <div className="flex justify-center">
            <LostArt />
          </div>
          <h1 className="mt-6 text-3xl font-bold tracking-tight text-brand-900 sm:text-4xl">
            Page not found
          </h1>
          <p className="mx-auto mt-4 max-w-xl text-lg leading-relaxed text-slate-700">
            Sorry, we couldn’t find the page you were looking for. It may have moved, or the address may have
            a typo. These pages might help instead:
          </p>
          <ul className="mt-10 grid gap-4 text-left sm:grid-cols-3">
            {DESTINATIONS.map(({ to, label, text, icon }) => (
              <li key={to}>
                <Link
                  to={to}
                  className="group flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-300 hover:shadow-md"
                >
                  <span className="flex size-10 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                    <Icon node={icon} className="size-5" />
                  </span>
                  <span className="mt-4 flex items-center gap-1.5 font-semibold text-brand-900">
                    {label}
                    <Icon
                      node={ArrowRight}
                      className="size-4 transition-transform group-hover:translate-x-0.5"
                    />
                  </span>
                  <span className="mt-1.5 text-sm leading-relaxed text-slate-600">{text}</span>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </main>
      <SiteFooter />
    </>
  );
}
