import { type FormEvent, useState } from 'react';
import type { AdminRelease } from '../../../../shared/releases';
import { Button, FormError, TextField } from '../../../components/form';
import { useAction } from '../../../components/form/useAction';
import { dashboardApi, problem } from '../api';

/**
 * Publish a draft or yank a published release: each changes what every buyer's updater sees at once, so each asks
 * for a fresh code from the authenticator app.
 */
export function ReleaseActions({
  release,
  onChange,
}: {
  release: AdminRelease;
  onChange: (release: AdminRelease) => void;
}) {
  const [code, setCode] = useState('');
  const { run, busy, error } = useAction(problem);
  if (release.state === 'yanked') {
    return <p className="text-sm text-slate-700">Yanked: in no feed, no update check and not on My Tools.</p>;
  }
  const action = release.state === 'draft' ? 'publish' : 'yank';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await run(async () => {
      onChange(await dashboardApi.releaseAction(release.id, action, code));
      setCode('');
    });
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-3">
      <TextField
        id={`release-${release.id}-code`}
        label={`Code from your authenticator app (to ${action})`}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        value={code}
        onValueChange={setCode}
        className="w-full sm:w-64"
      />
      <Button type="submit" variant={action === 'yank' ? 'danger' : 'primary'} busy={busy}>
        {action === 'publish' ? `Publish ${release.version}` : `Yank ${release.version}`}
      </Button>
      <FormError message={error} />
    </form>
  );
}
