import { TriangleAlert, UsersRound } from 'lucide';
import { Link, useLocation } from 'wouter';
import { FormError, PrimaryButton } from '../../components/form';
import { useAction } from '../../components/form/useAction';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { ApiError } from '../../lib/api';
import { formatDate } from '../../lib/dates';
import { useQuery } from '../../lib/useQuery';
import { useAuth } from '../../session/AuthContext';
import { teamsApi } from './api';

export const INVITATION_MESSAGES = {
  notFound: 'This invitation is not valid any more: it was cancelled, already used or has expired.',
  loadFailed: 'Failed to load this invitation. Please try again.',
  acceptFailed: 'The seat could not be accepted. Please try again.',
} as const;

/** The token in /my-tools/team-invitations/<token>, read in the browser (the prerendered shell has none). */
function tokenFromLocation(): string | null {
  const match = /^\/my-tools\/team-invitations\/([^/]+)\/?$/.exec(window.location.pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/** An address with no token in it: no such invitation. */
const NO_TOKEN = new Error('no invitation token in the address');

const problemOf = (failure: unknown): keyof typeof INVITATION_MESSAGES =>
  failure === NO_TOKEN || (failure instanceof ApiError && failure.status === 404) ? 'notFound' : 'loadFailed';

/**
 * /my-tools/team-invitations/<token> (issue 54), the link of an invitation email. Signed out, the page's sign-in
 * prompt asks to sign in or sign up and comes back here (decision 045). Signed in: whose team, which tool, and
 * "Accept seat", which lands on My Tools with the new tool focused and named.
 */
export function TeamInvitation() {
  const { checked, loggedIn, user } = useAuth();
  const [, navigate] = useLocation();
  const acceptance = useAction(
    (failure) => (failure instanceof ApiError && failure.serverMessage) || INVITATION_MESSAGES.acceptFailed,
  );

  const { data: preview, error } = useQuery(
    checked && loggedIn ? 'invitation' : null,
    () => {
      const token = tokenFromLocation();
      return token ? teamsApi.invitation(token) : Promise.reject(NO_TOKEN);
    },
    (failure) => {
      if (problemOf(failure) === 'loadFailed') console.error('Failed to load the invitation', failure);
    },
  );
  const problem = error === null ? null : problemOf(error);

  const accept = () => {
    const token = tokenFromLocation();
    if (!token) return;
    void acceptance.run(async () => {
      const accepted = await teamsApi.accept(token);
      navigate('/my-tools', { state: { seatOf: accepted.toolId } });
    });
  };

  if (problem) {
    return (
      <div className="space-y-6">
        <p role="alert" className="inline-flex items-center gap-2 text-red-800">
          <Icon node={TriangleAlert} className="size-5" />
          {INVITATION_MESSAGES[problem]}
        </p>
        <p>
          <Link href="/my-tools" className="font-medium text-brand-700 underline underline-offset-2">
            Go to My Tools
          </Link>
        </p>
      </div>
    );
  }
  if (!preview) return <Spinner label="Loading the invitation" className="min-h-72" />;
  const otherAccount = user && user.email.toLowerCase() !== preview.email.toLowerCase();
  return (
    <section
      aria-labelledby="invitation-heading"
      className="max-w-xl rounded-2xl border border-slate-200 bg-white p-6 shadow-sm shadow-slate-900/5"
    >
      <div className="flex items-start gap-4">
        <span className="inline-flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
          <Icon node={UsersRound} className="size-6" />
        </span>
        <div className="min-w-0">
          <h2 id="invitation-heading" className="text-lg leading-snug font-semibold text-brand-900">
            {preview.toolName}
          </h2>
          <p className="mt-1 text-sm text-slate-600">A seat from {preview.ownerName}'s team</p>
        </div>
      </div>
      <p className="mt-4 text-base leading-relaxed text-slate-700">
        {preview.ownerName} invited {preview.email} to use {preview.toolName}. Accepting puts the tool in your
        My Tools with your own license key, its installers and updates. The invitation works until{' '}
        {formatDate(preview.expiresAt)}.
      </p>
      {otherAccount && (
        <p className="mt-3 text-sm text-slate-700">
          You are signed in as {user.email}: the seat goes to this account.
        </p>
      )}
      <div className="mt-6 space-y-3">
        <FormError message={acceptance.error} />
        <PrimaryButton
          type="button"
          size="inline"
          busy={acceptance.busy}
          busyLabel="Accepting..."
          onClick={accept}
        >
          Accept seat
        </PrimaryButton>
      </div>
    </section>
  );
}
