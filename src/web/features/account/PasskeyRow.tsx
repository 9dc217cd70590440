import { KeyRound } from 'lucide';
import { type FormEvent, useId, useState } from 'react';
import { type AccountPasskey, PASSKEY_NAME_MAX_LENGTH, passkeyNameProblem } from '../../../shared/account';
import { Button, FormError, TextField, useForm } from '../../components/form';
import { useAction } from '../../components/form/useAction';
import { Icon } from '../../components/Icon';
import { focusOrFallback } from '../../lib/announce';
import { accountApi } from './api';
import { formatWhen } from './format';
import { useReauth } from './ReauthPrompt';
import { failureMessage } from './SavedNote';

/** Checks a passkey's name as the server does, so its field shows the problem before anything is sent. */
export const checkPasskeyName = ({ name }: { name: string }) => {
  const problem = passkeyNameProblem(name);
  return problem ? { name: problem } : {};
};

/** The form of a passkey's name, to add a passkey or to rename one: its one field. */
export function usePasskeyNameForm(name: string) {
  const id = useId();
  return useForm({ initial: { name }, fields: ['name'] as const, idOf: () => `${id}-name` });
}

type Changed = (passkeys: AccountPasskey[], message: string) => void;

/** One passkey: its name and dates, "Rename" (an inline form) and "Remove". */
export function PasskeyRow({ passkey, onChanged }: { passkey: AccountPasskey; onChanged: Changed }) {
  const [renaming, setRenaming] = useState(false);
  const removal = useAction((failure) => failureMessage(failure, 'The passkey could not be removed.'));
  const renameButtonId = useId();
  const reauth = useReauth();

  const remove = () =>
    removal.run(async () => {
      const result = await reauth.guard(() => accountApi.removePasskey(passkey.id));
      onChanged(result.passkeys, result.message);
    });

  return (
    <li className="p-4">
      {renaming ? (
        <RenameForm
          passkey={passkey}
          onDone={(passkeys, message) => {
            setRenaming(false);
            if (passkeys && message) onChanged(passkeys, message);
            window.setTimeout(() => focusOrFallback(document.getElementById(renameButtonId)), 0);
          }}
        />
      ) : (
        <div className="flex flex-wrap items-start gap-x-4 gap-y-2">
          <Icon node={KeyRound} className="mt-0.5 size-5 shrink-0 text-brand-700" />
          <div className="min-w-0 flex-1 basis-56">
            <p className="font-semibold break-words text-slate-900">{passkey.name}</p>
            <p className="mt-1 text-sm text-slate-600">
              Added {formatWhen(passkey.createdAt)} ·{' '}
              {passkey.lastUsedAt ? `Last used ${formatWhen(passkey.lastUsedAt)}` : 'Not used yet'}
              {passkey.synced ? ' · Synced' : ''}
            </p>
          </div>
          <div className="flex gap-2">
            <Button
              id={renameButtonId}
              variant="secondary"
              onClick={() => setRenaming(true)}
              aria-label={`Rename ${passkey.name}`}
            >
              Rename
            </Button>
            <Button
              variant="secondary"
              busy={removal.busy}
              onClick={remove}
              aria-label={`Remove ${passkey.name}`}
            >
              Remove
            </Button>
          </div>
        </div>
      )}
      <div className="mt-2">
        <FormError message={removal.error} />
      </div>
      {reauth.prompt}
    </li>
  );
}

function RenameForm({
  passkey,
  onDone,
}: {
  passkey: AccountPasskey;
  onDone: (passkeys?: AccountPasskey[], message?: string) => void;
}) {
  const form = usePasskeyNameForm(passkey.name);
  const onSubmit = (event: FormEvent) =>
    form.submit({
      validate: checkPasskeyName,
      send: async (values) => {
        const result = await accountApi.renamePasskey(passkey.id, values.name.trim());
        onDone(result.passkeys, result.message);
      },
      explain: (failure, onFields) =>
        onFields ? null : failureMessage(failure, 'The passkey could not be renamed.'),
    })(event);
  return (
    // Escape cancels, as Cancel does (focus back on Rename).
    <form
      onSubmit={onSubmit}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        onDone();
      }}
      noValidate
      className="space-y-3"
    >
      <TextField
        {...form.field('name')}
        label="Passkey Name"
        required
        autoFocus
        maxLength={PASSKEY_NAME_MAX_LENGTH}
      />
      <FormError message={form.formError} />
      <div className="flex gap-2">
        <Button type="submit" busy={form.busy === 'submit'}>
          Save
        </Button>
        <Button variant="secondary" onClick={() => onDone()}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
