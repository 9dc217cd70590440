import { Link2Off, Mail } from 'lucide';
import { Link } from 'wouter';
import { DOWNLOAD_LINK_VALID_HOURS } from '../../shared/constants';
import { SITE } from '../../shared/site';
import { Icon } from '../components/Icon';
import { ToolsLayout } from '../layout/ToolsLayout';

const primary =
  'inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-800 px-5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700';
const secondary =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-5 text-sm font-semibold text-slate-700 hover:bg-slate-50';

/** Where an expired or unknown download link lands (docs/product.md §2; docs/product.md §10.6). */
export default function InvalidLinkPage() {
  return (
    <ToolsLayout>
      <div className="bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto flex max-w-2xl flex-col items-center px-5 py-16 text-center sm:px-6 md:py-24">
          <span className="inline-flex size-16 items-center justify-center rounded-2xl bg-accent-100 text-accent-700">
            <Icon node={Link2Off} className="size-8" />
          </span>
          <h1 className="mt-6 text-3xl font-bold tracking-tight text-brand-900 sm:text-4xl">
            Invalid or Expired Link
          </h1>
          <p className="mt-4 text-lg leading-relaxed text-slate-700">
            This download link is not valid any more. For your security, download links are valid for{' '}
            {DOWNLOAD_LINK_VALID_HOURS} hours after they are sent.
          </p>
          <p className="mt-3 leading-relaxed text-slate-600">
            Open My Tools and choose Get Credentials to receive a fresh link and your license key by email.
          </p>
          <div className="mt-9 flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
            <Link to="/my-tools" className={primary}>
              Go to My Tools
            </Link>
            <Link to="/utility-tools" className={secondary}>
              Browse All Tools
            </Link>
            <a href={`mailto:${SITE.supportEmail}`} className={secondary}>
              <Icon node={Mail} className="size-4" />
              Contact Support
            </a>
          </div>
        </div>
      </div>
    </ToolsLayout>
  );
}
