import { Link } from 'wouter';
import { TeamInvitation } from '../features/shop/TeamInvitation';
import { ToolsLayout } from '../layout/ToolsLayout';

/** /my-tools/team-invitations/<token>: a seat of someone's team license, offered by email (issue 54). */
export default function TeamInvitationPage() {
  return (
    <ToolsLayout>
      <div className="border-b border-slate-200 bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto max-w-6xl px-5 pt-10 pb-8 sm:px-6 md:pt-14">
          <p className="text-sm">
            <Link href="/my-tools" className="font-medium text-brand-700 underline underline-offset-2">
              My Tools
            </Link>
          </p>
          <h1 className="mt-3 text-3xl font-bold tracking-tight text-brand-900 sm:text-4xl">
            Team invitation
          </h1>
        </div>
      </div>
      <div className="mx-auto max-w-6xl px-5 py-10 sm:px-6 md:py-12">
        <TeamInvitation />
      </div>
    </ToolsLayout>
  );
}
