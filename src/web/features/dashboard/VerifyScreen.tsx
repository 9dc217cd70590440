import { type FormEvent, useState } from 'react';
import { Button, TextField } from '../../components/form';
import { useAction } from '../../components/form/useAction';
import { dashboardApi, problem } from './api';
import { GateShell } from './GateShell';
import { useScreenTitle } from './ui';

/** Step 2 of every dashboard sign-in: the authenticator app's code, or one recovery code. */
export function VerifyScreen({
  email,
  onVerified,
  onSignedOut,
}: {
  email: string;
  onVerified: () => void;
  onSignedOut: () => void;
}) {
  useScreenTitle('Two-step verification');
  const [code, setCode] = useState('');
  const { run, busy, error } = useAction(problem);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const verified = await run(async () => {
      await dashboardApi.verify(code);
      onVerified();
    });
    if (!verified) setCode('');
  };

  return (
    <GateShell title="Two-step verification">
      <p className="mb-4 text-slate-700">
        Signed in as <strong>{email}</strong>. Enter the 6-digit code from your authenticator app. Lost the
        phone? Use one of your recovery codes instead.
      </p>
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField
          id="admin-code"
          label="Code"
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          required
          maxLength={16}
          value={code}
          onValueChange={setCode}
          error={error}
        />
        <Button type="submit" busy={busy} className="w-full">
          Verify
        </Button>
      </form>
      <button
        type="button"
        className="mt-4 text-sm font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900"
        onClick={async () => {
          await dashboardApi.logout().catch(() => undefined);
          onSignedOut();
        }}
      >
        Sign out
      </button>
    </GateShell>
  );
}
