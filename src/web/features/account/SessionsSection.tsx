import { Monitor } from 'lucide';
import { useEffect, useState } from 'react';
import type { AccountSession } from '../../../shared/account';
import { Button, FormError } from '../../components/form';
import { useAction } from '../../components/form/useAction';
import { Icon } from '../../components/Icon';
import { focusOrFallback } from '../../lib/announce';
import { formatDate } from '../../lib/dates';
import { useQuery } from '../../lib/useQuery';
import { AccountSection } from './AccountSection';
import { accountApi } from './api';
import { countryName, sessionTimes } from './format';
import { useReauth } from './ReauthPrompt';
import { failureMessage, SavedNote, useSavedNote } from './SavedNote';

/** Something else on the page (a password change) signed browsers out: the list is read again. */
const SESSIONS_CHANGED = 'account:sessions-changed';
export const sessionsChanged = () => window.dispatchEvent(new Event(SESSIONS_CHANGED));

export function SessionsSection() {
  return (
    <AccountSection
      id="sessions"
      title="Sessions"
      description="The browsers signed in to your account. Sign out any you do not recognise, then change your password."
    >
      {() => <SessionList />}
    </AccountSection>
  );
}

function SessionList() {
  const {
    data: items,
    setData: setItems,
    error,
    reload,
  } = useQuery('sessions', accountApi.sessions, (failure) =>
    console.error('Failed to load an account list', failure),
  );
  // One action at a time; `acting` says whose button shows it.
  const action = useAction((failure) => failureMessage(failure, 'That did not work. Please try again.'));
  const [acting, setActing] = useState<string | null>(null);
  const busy = (key: string) => action.busy && acting === key;
  const saved = useSavedNote();
  const reauth = useReauth();

  useEffect(() => {
    const onChanged = () => void reload();
    window.addEventListener(SESSIONS_CHANGED, onChanged);
    return () => window.removeEventListener(SESSIONS_CHANGED, onChanged);
  }, [reload]);

  const act = async (key: string, call: () => Promise<{ message: string }>) => {
    if (action.busy) return;
    setActing(key);
    saved.clear();
    // The list is read again whether or not it worked.
    await action.run(async () => {
      try {
        saved.show((await call()).message);
      } finally {
        await reload();
      }
    });
    // The row's button went with its row; with no other browser left "Sign out everywhere else" is disabled
    // too: then the next browser's Sign out, else the section's heading.
    focusOrFallback(null, () => {
      const others = document.getElementById('sign-out-others') as HTMLButtonElement | null;
      if (others && !others.disabled) return others;
      return (
        document.querySelector<HTMLElement>('#sessions li button:not([disabled])') ??
        document.getElementById('sessions-heading')
      );
    });
  };

  if (error !== null)
    return <FormError message="Your sessions could not be loaded. Please reload the page." />;
  if (!items) return <p className="text-sm text-slate-600">Loading your sessions...</p>;
  const others = items.filter((session) => !session.current);
  return (
    <div className="space-y-4">
      <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200">
        {items.map((session) => (
          <SessionRow
            key={session.id}
            session={session}
            busy={busy(session.id)}
            onSignOut={() =>
              act(session.id, async () => {
                const result = await accountApi.endSession(session.id);
                setItems((current) => current?.filter((each) => each.id !== session.id) ?? null);
                return result;
              })
            }
          />
        ))}
      </ul>
      <FormError message={action.error} />
      <div className="flex flex-wrap items-center gap-4">
        <Button
          id="sign-out-others"
          variant="secondary"
          busy={busy('others')}
          disabled={others.length === 0}
          onClick={() => act('others', () => reauth.guard(accountApi.endOtherSessions))}
        >
          Sign out everywhere else
        </Button>
        <SavedNote note={saved.note} />
      </div>
      {reauth.prompt}
    </div>
  );
}

function SessionRow({
  session,
  busy,
  onSignOut,
}: {
  session: AccountSession;
  busy: boolean;
  onSignOut: () => void;
}) {
  return (
    <li className="flex flex-wrap items-start gap-x-4 gap-y-2 p-4">
      <Icon node={Monitor} className="mt-0.5 size-5 shrink-0 text-brand-700" />
      <div className="min-w-0 flex-1 basis-56">
        <p className="font-semibold text-slate-900">
          {session.browser} on {session.os}{' '}
          {session.current && (
            <span className="ml-2 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800">
              This browser
            </span>
          )}
        </p>
        <p className="mt-1 text-sm text-slate-600">
          {countryName(session.country)} · {sessionTimes(session)}
        </p>
      </div>
      {!session.current && (
        <Button
          variant="secondary"
          busy={busy}
          onClick={onSignOut}
          aria-label={`Sign out ${session.browser} on ${session.os}, signed in ${formatDate(session.signedInAt, 'dayAndTimeInIndia')} (India time)`}
        >
          Sign out
        </Button>
      )}
    </li>
  );
}
