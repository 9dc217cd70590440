import { type FormEvent, useId, useState } from 'react';
import { AUTH_MESSAGES, isValidEmail } from '../../../shared/auth';
import { RESET_CODE_LENGTH } from '../../../shared/constants';
import { MAX_LENGTH } from '../../../shared/limits';
import { FormError, linkButtonClass, PrimaryButton, TextField, useForm } from '../../components/form';
import type { AuthUser } from '../../session/AuthContext';
import { useAuth } from '../../session/AuthContext';
import { AccountSection } from './AccountSection';
import { accountApi } from './api';
import { useReauth } from './ReauthPrompt';
import { failureMessage, SavedNote, SubmitRow, useSavedNote } from './SavedNote';

const FIELDS = ['email', 'code'] as const;

export function EmailSection() {
  return (
    <AccountSection
      id="email"
      title="Email"
      description="Where you sign in, and where licenses, download links and invoices go. Invoices already issued keep the address they were issued to."
    >
      {(user) => <EmailForm user={user} />}
    </AccountSection>
  );
}

/** Two steps in one form: the new address gets a code, then the code moves the account there. */
function EmailForm({ user }: { user: AuthUser }) {
  const id = useId();
  const { refresh } = useAuth();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<{ email: string; code: string }, (typeof FIELDS)[number], 'send' | 'confirm'>({
    initial: { email: '', code: '' },
    fields: FIELDS,
    idOf: (field) => `${id}-${field}`,
  });
  const saved = useSavedNote();
  const reauth = useReauth();

  const sendCode = (event: FormEvent) => {
    saved.clear();
    form.submit({
      kind: 'send',
      validate: (values) => (isValidEmail(values.email) ? {} : { email: AUTH_MESSAGES.emailInvalid }),
      send: async (values) => {
        const result = await reauth.guard(() => accountApi.requestEmailChange(values.email.trim()));
        setSentTo(values.email.trim());
        form.focus('code');
        saved.show(result.message);
      },
      explain: (failure, onFields) => (onFields ? null : failureMessage(failure, AUTH_MESSAGES.forgotFailed)),
    })(event);
  };

  const confirm = (event: FormEvent) => {
    saved.clear();
    form.submit({
      kind: 'confirm',
      validate: (values) =>
        new RegExp(`^\\d{${RESET_CODE_LENGTH}}$`).test(values.code.trim())
          ? {}
          : { code: AUTH_MESSAGES.codeInvalid },
      send: async (values) => {
        const result = await reauth.guard(() =>
          accountApi.confirmEmailChange(sentTo ?? values.email, values.code.trim()),
        );
        setSentTo(null);
        form.setValues({ email: '', code: '' });
        // The code's form goes: focus back to the address field, which is there again.
        form.focus('email');
        saved.show(result.message);
        await refresh();
      },
      explain: (failure, onFields) => (onFields ? null : failureMessage(failure, AUTH_MESSAGES.verifyFailed)),
    })(event);
  };

  return (
    <div className="max-w-md space-y-4">
      <p className="text-sm text-slate-700">
        Now: <strong className="font-semibold text-slate-900 break-all">{user.email}</strong>
      </p>
      {sentTo === null ? (
        <form onSubmit={sendCode} noValidate className="space-y-4">
          <TextField
            {...form.field('email')}
            label="New Email"
            type="email"
            required
            autoComplete="email"
            maxLength={MAX_LENGTH.email}
          />
          <SubmitRow form={form} action="send" busyLabel="Sending code..." note={saved.note}>
            Send Code
          </SubmitRow>
        </form>
      ) : (
        <form onSubmit={confirm} noValidate className="space-y-4">
          <TextField
            {...form.field('code')}
            label="Verification Code"
            hint={`The ${RESET_CODE_LENGTH}-digit code we emailed to ${sentTo}. It expires in 10 minutes.`}
            required
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern={`\\d{${RESET_CODE_LENGTH}}`}
            maxLength={RESET_CODE_LENGTH}
            inputClassName="tracking-[0.3em]"
          />
          <FormError message={form.formError} />
          <div className="flex flex-wrap items-center gap-4">
            <PrimaryButton size="inline" busy={form.busy === 'confirm'} busyLabel="Confirming...">
              Confirm Email
            </PrimaryButton>
            <button
              type="button"
              className={`${linkButtonClass} text-sm`}
              onClick={() => {
                setSentTo(null);
                saved.clear();
                form.focus('email');
              }}
            >
              Use another address
            </button>
          </div>
          <SavedNote note={saved.note} />
        </form>
      )}
      {reauth.prompt}
    </div>
  );
}
