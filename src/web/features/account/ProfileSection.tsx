import { type FormEvent, useId, useState } from 'react';
import { type ProfileField, validateProfile } from '../../../shared/account';
import type { AuthUser } from '../../../shared/auth';
import { phoneDigits } from '../../../shared/auth';
import { COUNTRY_CODES, type CountryCode, DEFAULT_COUNTRY, splitPhone } from '../../../shared/country-codes';
import { MAX_LENGTH } from '../../../shared/limits';
import { controlProps, Field, inputClass, TextField, useForm } from '../../components/form';
import { CountryCodePicker } from '../../components/form/CountryCodePicker';
import { useAuth } from '../../session/AuthContext';
import { AccountSection } from './AccountSection';
import { accountApi } from './api';
import { failureMessage, SubmitRow, useSavedNote } from './SavedNote';

const FIELDS = ['name', 'phone'] as const satisfies readonly ProfileField[];

export function ProfileSection() {
  return (
    <AccountSection
      id="profile"
      title="Profile"
      description="Your name and phone, as invoices and our messages use them."
      reserve="min-h-[13.75rem]"
    >
      {(user) => <ProfileForm user={user} />}
    </AccountSection>
  );
}

function ProfileForm({ user }: { user: AuthUser }) {
  const id = useId();
  const { refresh } = useAuth();
  const stored = splitPhone(user.phone);
  const [country, setCountry] = useState<CountryCode>(
    COUNTRY_CODES.find((entry) => entry.code === stored.dialCode) ?? DEFAULT_COUNTRY,
  );
  const form = useForm({
    initial: { name: user.name, phone: stored.number },
    fields: FIELDS,
    idOf: (field) => `${id}-${field}`,
  });
  const saved = useSavedNote();
  const phoneError = form.errorFor('phone');

  const onSubmit = (event: FormEvent) => {
    saved.clear();
    form.submit({
      validate: (values) => {
        const issue = validateProfile({ ...values, dialCode: country.code });
        return issue ? { [issue.field]: issue.message } : {};
      },
      send: async (values) => {
        const result = await accountApi.saveProfile({
          name: values.name,
          phone: `${country.code}${phoneDigits(values.phone)}`,
        });
        saved.show(result.message);
        await refresh();
      },
      explain: (failure, onFields) =>
        onFields ? null : failureMessage(failure, 'Your profile could not be saved.'),
    })(event);
  };

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-md space-y-4">
      <TextField
        {...form.field('name')}
        label="Full Name"
        required
        autoComplete="name"
        maxLength={MAX_LENGTH.signupName}
      />
      <Field id={`${id}-phone`} label="Phone" error={phoneError}>
        <div className="relative flex">
          <CountryCodePicker value={country} onChange={setCountry} invalid={Boolean(phoneError)} />
          <input
            {...controlProps(`${id}-phone`, phoneError)}
            type="tel"
            required
            inputMode="numeric"
            autoComplete="tel-national"
            value={form.values.phone}
            onChange={(event) => form.set('phone', event.target.value)}
            maxLength={MAX_LENGTH.phoneNumber}
            className={`${inputClass(Boolean(phoneError))} min-w-0 rounded-l-none`}
          />
        </div>
      </Field>
      <SubmitRow form={form} busyLabel="Saving..." note={saved.note}>
        Save
      </SubmitRow>
    </form>
  );
}
