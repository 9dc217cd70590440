import { PASSWORD_RULE } from '../../../shared/auth';
import { SIGNUP_CODE_LENGTH } from '../../../shared/constants';
import { MAX_LENGTH } from '../../../shared/limits';
import {
  CloseButton,
  controlProps,
  Field,
  inputClass,
  linkButtonClass,
  Notice,
  PasswordField,
  PrimaryButton,
  TextField,
} from '../../components/form';
import { CountryCodePicker } from '../../components/form/CountryCodePicker';
import type { SignupFlow } from './useSignupFlow';

/** Step 1, 'Create an Account': the details, checked in the order of docs/product.md §5. */
export function SignupDetailsStep({
  flow,
  fieldId,
  onLogin,
  onClose,
}: {
  flow: SignupFlow;
  fieldId: (field: string) => string;
  onLogin: () => void;
  onClose: () => void;
}) {
  /** A detail's id, value, change and error, as the form kit's fields take them. */
  const field = (name: keyof SignupFlow['details']) => ({
    id: fieldId(name),
    value: flow.details[name],
    onValueChange: flow.set(name),
    error: flow.errorFor(name),
  });
  const phoneError = flow.errorFor('phone');
  const phoneId = fieldId('phone');
  return (
    <form onSubmit={flow.onDetails} noValidate className="space-y-4">
      <p className="-mt-2 text-sm text-slate-600">
        Register to buy utility tools. We'll email you a {SIGNUP_CODE_LENGTH}-digit code to confirm your
        address.
      </p>
      <TextField
        {...field('name')}
        label="Full Name"
        required
        autoComplete="name"
        maxLength={MAX_LENGTH.signupName}
      />
      <TextField
        {...field('email')}
        label="Email"
        required
        type="email"
        autoComplete="email"
        maxLength={MAX_LENGTH.email}
      />
      <Field id={phoneId} label="Phone" error={phoneError}>
        <div className="relative flex">
          <CountryCodePicker
            value={flow.country}
            onChange={flow.chooseCountry}
            invalid={Boolean(phoneError)}
          />
          <input
            {...controlProps(phoneId, phoneError)}
            type="tel"
            required
            inputMode="numeric"
            autoComplete="tel-national"
            value={flow.details.phone}
            onChange={(event) => flow.set('phone')(event.target.value)}
            maxLength={MAX_LENGTH.phoneNumber}
            className={`${inputClass(Boolean(phoneError))} min-w-0 rounded-l-none`}
          />
        </div>
      </Field>
      <PasswordField
        {...field('password')}
        label="Password"
        hint={PASSWORD_RULE}
        required
        autoComplete="new-password"
      />
      <PasswordField
        {...field('confirmPassword')}
        label="Confirm Password"
        required
        autoComplete="new-password"
      />
      {flow.formError && <Notice tone="error">{flow.formError}</Notice>}
      <PrimaryButton busy={flow.busy === 'send'} busyLabel="Sending code...">
        Verify Email
      </PrimaryButton>
      <p className="text-center text-sm text-slate-600">
        Already have an account?{' '}
        <button type="button" className={linkButtonClass} onClick={onLogin}>
          Log in
        </button>
      </p>
      <CloseButton onClose={onClose} />
    </form>
  );
}
