import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import { KeyRound } from 'lucide';
import { useState } from 'react';
import { ACCOUNT_MESSAGES } from '../../../shared/account';
import type { AuthUser } from '../../../shared/auth';
import { Notice } from '../../components/form';
import { busyButtonProps } from '../../components/form/buttons';
import { useAction } from '../../components/form/useAction';
import { Icon } from '../../components/Icon';
import { authApi, errorText } from './api';

/**
 * "Sign in with a passkey", below the login form (issue 33): the browser offers the passkeys it holds for this site
 * (discoverable credentials, so no email is typed), and the server checks the one chosen.
 */
export function PasskeySignIn({
  onLoggedIn,
  onClose,
}: {
  onLoggedIn: (user: AuthUser) => void;
  onClose: () => void;
}) {
  const [supported] = useState(() => browserSupportsWebAuthn());
  const { run, busy, error } = useAction((failure) =>
    failure instanceof Error && failure.name === 'NotAllowedError'
      ? 'No passkey was chosen.'
      : errorText(failure, ACCOUNT_MESSAGES.passkeySignInFailed),
  );
  if (!supported) return null;

  const signIn = () =>
    run(async () => {
      const optionsJSON = await authApi.passkeyOptions();
      const credential = await startAuthentication({ optionsJSON });
      const result = await authApi.passkeyLogin(credential);
      onLoggedIn(result.user);
      onClose();
      window.location.reload();
    });

  return (
    <div className="mt-5 space-y-3 border-t border-slate-200 pt-5">
      {error && <Notice tone="error">{error}</Notice>}
      <button
        type="button"
        {...busyButtonProps(busy, () => void signIn())}
        className="inline-flex h-11 w-full items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-brand-900 hover:bg-slate-50 aria-disabled:cursor-wait aria-disabled:opacity-70"
      >
        <Icon node={KeyRound} className="size-4 text-brand-700" />
        {busy ? 'Waiting for your passkey...' : 'Sign in with a passkey'}
      </button>
    </div>
  );
}
