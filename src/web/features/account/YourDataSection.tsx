import { Download } from 'lucide';
import { Icon } from '../../components/Icon';
import { AccountSection } from './AccountSection';

/** "Your data" (DPDP Act s. 11): one download of everything the shop holds about the account. */
export function YourDataSection() {
  return (
    <AccountSection
      id="your-data"
      title="Your data"
      description="A copy of everything we hold about your account, whenever you want it."
    >
      {() => (
        <div className="max-w-xl space-y-4 text-sm leading-relaxed text-slate-700">
          <p>
            One JSON file with your profile, the sign-ins we keep, your orders, tax invoices and credit notes,
            your licenses and the devices they run on, the messages you sent us from this address, the emails
            we sent you, the consents you gave or withdrew, and who we share data with (Razorpay, our mail
            provider and our host) and why. It starts with a summary in plain words.
          </p>
          <a
            href="/api/account/export"
            download
            className="inline-flex min-h-11 items-center justify-center gap-2 rounded-lg bg-brand-800 px-5 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-brand-700"
          >
            <Icon node={Download} className="size-4" />
            Download my data
          </a>
        </div>
      )}
    </AccountSection>
  );
}
