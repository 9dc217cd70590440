import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { type FormEvent, useState } from 'react';
import { ACCOUNT_MESSAGES, PASSKEY_NAME_MAX_LENGTH } from '../../../shared/account';
import { FormError, PrimaryButton, TextField } from '../../components/form';
import { useQuery } from '../../lib/useQuery';
import { AccountSection } from './AccountSection';
import { accountApi } from './api';
import { checkPasskeyName, PasskeyRow, usePasskeyNameForm } from './PasskeyRow';
import { useReauth } from './ReauthPrompt';
import { failureMessage, SavedNote, useSavedNote } from './SavedNote';

export function PasskeysSection() {
  return (
    <AccountSection
      id="passkeys"
      title="Passkeys"
      description="Sign in with your fingerprint, face or screen lock instead of your password. Name each passkey after the device that keeps it."
    >
      {() => <Passkeys />}
    </AccountSection>
  );
}

function Passkeys() {
  const list = useQuery('passkeys', accountApi.passkeys, (failure) =>
    console.error('Failed to load an account list', failure),
  );
  const saved = useSavedNote();
  if (list.error !== null)
    return <FormError message="Your passkeys could not be loaded. Please reload the page." />;
  if (!list.data) return <p className="text-sm text-slate-600">Loading your passkeys...</p>;
  return (
    <div className="max-w-xl space-y-5">
      {list.data.length > 0 ? (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200">
          {list.data.map((passkey) => (
            <PasskeyRow
              key={passkey.id}
              passkey={passkey}
              onChanged={(passkeys, message) => {
                list.setData(() => passkeys);
                saved.show(message);
              }}
            />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">You have no passkeys yet.</p>
      )}
      <SavedNote note={saved.note} />
      <AddPasskeyForm
        onAdded={(passkeys) => {
          list.setData(() => passkeys);
          saved.show(ACCOUNT_MESSAGES.passkeyAdded);
        }}
      />
    </div>
  );
}

function AddPasskeyForm({
  onAdded,
}: {
  onAdded: (passkeys: Awaited<ReturnType<typeof accountApi.passkeys>>) => void;
}) {
  const [supported] = useState(() => browserSupportsWebAuthn());
  const form = usePasskeyNameForm('');
  const reauth = useReauth();

  const onSubmit = (event: FormEvent) =>
    form.submit({
      validate: checkPasskeyName,
      send: async (values) => {
        const options = await reauth.guard(accountApi.passkeyOptions);
        const credential = await startRegistration({ optionsJSON: options });
        const result = await accountApi.addPasskey(values.name.trim(), credential);
        form.setValues({ name: '' });
        onAdded(result.passkeys);
      },
      explain: (failure, onFields) => {
        if (onFields) return null;
        // The person closed the browser's prompt, or the device already holds a passkey for this account.
        if (
          failure instanceof Error &&
          (failure.name === 'NotAllowedError' || failure.name === 'InvalidStateError')
        )
          return 'No passkey was added. If this device already has one for your account, use that one.';
        return failureMessage(failure, ACCOUNT_MESSAGES.passkeyFailed);
      },
    })(event);

  if (!supported) return <p className="text-sm text-slate-600">This browser cannot create passkeys.</p>;
  return (
    <div>
      <form onSubmit={onSubmit} noValidate className="space-y-4 rounded-xl bg-slate-50 p-4">
        <TextField
          {...form.field('name')}
          label="Passkey Name"
          hint="For example: Work laptop, or My phone."
          required
          maxLength={PASSKEY_NAME_MAX_LENGTH}
        />
        <FormError message={form.formError} />
        <PrimaryButton size="inline" busy={form.busy === 'submit'} busyLabel="Waiting for your device...">
          Add a passkey
        </PrimaryButton>
      </form>
      {reauth.prompt}
    </div>
  );
}
