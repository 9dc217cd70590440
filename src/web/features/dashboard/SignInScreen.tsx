import { type FormEvent, useState } from 'react';
import { Button, FormError, TextField } from '../../components/form';
import { useAction } from '../../components/form/useAction';
import { dashboardApi, problem } from './api';
import { GateShell } from './GateShell';
import { useScreenTitle } from './ui';

/** Step 1: the site account's email and password (the same sign-in as the shop). */
export function SignInScreen({ onSignedIn }: { onSignedIn: () => void }) {
  useScreenTitle('Sign in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { run, busy, error } = useAction((failure) =>
    problem(failure, 'Could not sign in. Please try again.'),
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await run(async () => {
      await dashboardApi.login(email, password);
      onSignedIn();
    });
  };

  return (
    <GateShell title="Sign in to the dashboard">
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField
          id="admin-email"
          label="Email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onValueChange={setEmail}
        />
        <TextField
          id="admin-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onValueChange={setPassword}
        />
        <FormError message={error} />
        <Button type="submit" busy={busy} className="w-full">
          Continue
        </Button>
      </form>
    </GateShell>
  );
}
