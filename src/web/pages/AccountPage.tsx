import { AccountSections } from '../features/account/AccountSections';
import { ToolsLayout } from '../layout/ToolsLayout';

/** /account (issue 33): the signed-in buyer's settings; everyone else is sent to /utility-tools. */
export default function AccountPage() {
  return (
    <ToolsLayout>
      <div className="border-b border-slate-200 bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto max-w-6xl px-5 pt-12 pb-10 sm:px-6 md:pt-16 md:pb-12">
          <p className="text-sm font-semibold tracking-wide text-accent-700 uppercase">Your settings</p>
          <h1 className="mt-3 text-4xl font-bold tracking-tight text-brand-900 sm:text-5xl">Account</h1>
          <p className="mt-4 max-w-2xl text-lg leading-relaxed text-slate-700">
            Your profile, password and sign-in email, the passkeys and browsers you sign in with, the emails
            you receive, and your data.
          </p>
        </div>
      </div>
      <AccountSections />
    </ToolsLayout>
  );
}
