import { type FormEvent, useId } from 'react';
import { type PasswordChangeField, validatePasswordChange } from '../../../shared/account';
import { PasswordField, useForm } from '../../components/form';
import { AccountSection } from './AccountSection';
import { accountApi } from './api';
import { failureMessage, SubmitRow, useSavedNote } from './SavedNote';
import { sessionsChanged } from './SessionsSection';

const FIELDS = [
  'currentPassword',
  'password',
  'confirmPassword',
] as const satisfies readonly PasswordChangeField[];
const EMPTY = { currentPassword: '', password: '', confirmPassword: '' };

export function PasswordSection() {
  return (
    <AccountSection
      id="password"
      title="Password"
      description="Changing it signs out every other browser signed in to your account, and we email you a notice."
      reserve="min-h-[19.25rem]"
    >
      {() => <PasswordForm />}
    </AccountSection>
  );
}

function PasswordForm() {
  const id = useId();
  const form = useForm({ initial: EMPTY, fields: FIELDS, idOf: (field) => `${id}-${field}` });
  const saved = useSavedNote();

  const onSubmit = (event: FormEvent) => {
    saved.clear();
    form.submit({
      validate: (values) => {
        const issue = validatePasswordChange(values);
        return issue ? { [issue.field]: issue.message } : {};
      },
      send: async (values) => {
        const result = await accountApi.changePassword(values);
        form.setValues(EMPTY);
        saved.show(result.message);
        // Every other browser was signed out: the Sessions list shows it.
        sessionsChanged();
      },
      explain: (failure, onFields) =>
        onFields ? null : failureMessage(failure, 'Your password could not be changed.'),
    })(event);
  };

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-md space-y-4">
      <PasswordField
        {...form.field('currentPassword')}
        label="Current Password"
        required
        autoComplete="current-password"
      />
      <PasswordField {...form.field('password')} label="New Password" required autoComplete="new-password" />
      <PasswordField
        {...form.field('confirmPassword')}
        label="Confirm New Password"
        required
        autoComplete="new-password"
      />
      <SubmitRow form={form} busyLabel="Changing..." note={saved.note}>
        Change Password
      </SubmitRow>
    </form>
  );
}
