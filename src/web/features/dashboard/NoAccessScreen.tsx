import { DASHBOARD_MESSAGES } from '../../../shared/dashboard';
import { Button } from '../../components/form';
import { GateShell } from './GateShell';
import { useScreenTitle } from './ui';
import { useSignOut } from './useSignOut';

/** A signed-in account without the operator role: nothing to see, a way out. */
export function NoAccessScreen({ email, onSignedOut }: { email: string; onSignedOut: () => void }) {
  useScreenTitle('No access');
  const { busy, signOut } = useSignOut(onSignedOut);
  return (
    <GateShell title="No access">
      <p className="text-slate-700">
        You are signed in as <strong>{email}</strong>. {DASHBOARD_MESSAGES.notOperator}
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        <a
          href="/"
          className="inline-flex min-h-10 items-center rounded-lg border border-slate-300 px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50"
        >
          Go to the website
        </a>
        <Button variant="secondary" busy={busy} onClick={signOut}>
          Sign in with another account
        </Button>
      </div>
    </GateShell>
  );
}
