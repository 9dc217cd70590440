import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import { KeyRound } from 'lucide';
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { ACCOUNT_MESSAGES, REAUTH_WINDOW_MINUTES } from '../../../shared/account';
import { AUTH_MESSAGES } from '../../../shared/auth';
import { MAX_LENGTH } from '../../../shared/limits';
import { FormError, PasswordField, PrimaryButton, useForm } from '../../components/form';
import { busyButtonProps, linkButtonClass } from '../../components/form/buttons';
import { Icon } from '../../components/Icon';
import { ApiError } from '../../lib/api';
import { accountApi } from './api';
import { failureMessage } from './SavedNote';

/** What a risky change rejects with when the person closes the prompt instead of confirming. */
const cancelled = () => new ApiError(403, { code: 'reauth_cancelled', message: 'Nothing was changed.' });

const needsReauth = (failure: unknown) =>
  failure instanceof ApiError && failure.body?.code === 'reauth_required';

/**
 * Sudo mode on the account page (decision 042): `guard(call)` makes a risky change; when the server answers 403
 * `reauth_required`, `prompt` (rendered by the section, under its form) asks for the password or a passkey inline,
 * and once it is given the same change is made again, so the person carries on with what they asked. Closing the
 * prompt rejects with "Nothing was changed."
 */
export function useReauth(): { guard: <T>(call: () => Promise<T>) => Promise<T>; prompt: ReactNode } {
  const [pending, setPending] = useState<{ resolve: () => void; reject: (reason: Error) => void } | null>(
    null,
  );
  const guard = useCallback(async <T,>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (failure) {
      if (!needsReauth(failure)) throw failure;
      await new Promise<void>((resolve, reject) => setPending({ resolve, reject }));
      return call();
    }
  }, []);
  const prompt = pending ? (
    <ReauthPrompt
      onConfirmed={() => {
        setPending(null);
        pending.resolve();
      }}
      onCancel={() => {
        setPending(null);
        pending.reject(cancelled());
      }}
    />
  ) : null;
  return { guard, prompt };
}

function ReauthPrompt({ onConfirmed, onCancel }: { onConfirmed: () => void; onCancel: () => void }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const form = useForm<{ password: string }, 'password', 'password' | 'passkey'>({
    initial: { password: '' },
    fields: ['password'] as const,
    idOf: () => `${id}-password`,
  });
  /** "Use a passkey" only for an account that has one, in a browser that can use it (issue 63). */
  const [passkeys, setPasskeys] = useState(false);
  useEffect(() => input.current?.focus(), []);
  useEffect(() => {
    if (!browserSupportsWebAuthn()) return;
    let current = true;
    accountApi.passkeys().then(
      (list) => current && setPasskeys(list.length > 0),
      // Not known: the password is always there.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);

  // A wrong password goes on the field (the server names it); anything else under the form.
  const explain = (failure: unknown, onField: boolean) =>
    onField
      ? null
      : failure instanceof Error && failure.name === 'NotAllowedError'
        ? 'No passkey was chosen.'
        : failureMessage(failure, ACCOUNT_MESSAGES.passkeyFailed);

  const withPassword = form.submit({
    kind: 'password',
    validate: ({ password }) => (password ? {} : { password: AUTH_MESSAGES.passwordRequired }),
    send: async ({ password }) => {
      await accountApi.reauth({ password });
      onConfirmed();
    },
    explain,
  });

  const withPasskey = () =>
    void form.run({
      kind: 'passkey',
      send: async () => {
        const optionsJSON = await accountApi.reauthPasskeyOptions();
        const credential = await startAuthentication({ optionsJSON });
        await accountApi.reauth({ credential: credential as unknown as Record<string, unknown> });
        onConfirmed();
      },
      explain,
    });

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mt-4 max-w-md space-y-3 rounded-xl border border-amber-300 bg-amber-50 p-4"
    >
      <h3 id={`${id}-title`} className="font-semibold text-slate-900">
        Confirm it’s you
      </h3>
      <p className="text-sm text-slate-700">
        This change needs your password or a passkey once more. This browser will not ask again for{' '}
        {REAUTH_WINDOW_MINUTES} minutes.
      </p>
      <form onSubmit={withPassword} noValidate className="space-y-3">
        <PasswordField
          {...form.field('password')}
          label="Password"
          autoComplete="current-password"
          required
          inputRef={input}
          maxLength={MAX_LENGTH.passwordInput}
        />
        <FormError message={form.formError} />
        <div className="flex flex-wrap items-center gap-3">
          <PrimaryButton size="inline" busy={form.busy === 'password'} busyLabel="Checking...">
            Confirm
          </PrimaryButton>
          {passkeys && (
            <button
              type="button"
              {...busyButtonProps(form.busy === 'passkey', withPasskey)}
              className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-brand-900 hover:bg-slate-50 aria-disabled:cursor-wait aria-disabled:opacity-70"
            >
              <Icon node={KeyRound} className="size-4 text-brand-700" />
              {form.busy === 'passkey' ? 'Waiting for your passkey...' : 'Use a passkey'}
            </button>
          )}
          <button type="button" className={`${linkButtonClass} text-sm`} onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
