import { TriangleAlert } from 'lucide';
import { useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { normaliseEmail } from '../../../shared/auth';
import {
  DATA_RIGHTS_MESSAGES,
  TAX_RECORD_RETENTION_MONTHS,
  validateDeleteAccount,
} from '../../../shared/privacy';
import { Button, FormError, PasswordField, SecondaryButton, TextField, useForm } from '../../components/form';
import { Icon } from '../../components/Icon';
import { toast } from '../../components/ToastHost';
import { ApiError, api } from '../../lib/api';
import type { AuthUser } from '../../session/AuthContext';
import { AccountSection } from './AccountSection';
import { useReauth } from './ReauthPrompt';

const FIELDS = ['password', 'email'] as const;
const idOf = (field: (typeof FIELDS)[number]) => `delete-account-${field}`;

const explain = (failure: unknown, onFields: boolean) =>
  onFields
    ? null
    : failure instanceof ApiError
      ? failure.message
      : 'The account could not be deleted. Please try again.';

/** What deleting does, said before anything is asked. */
function Consequences() {
  return (
    <ul className="list-disc space-y-1.5 pl-5 text-sm leading-relaxed text-slate-700">
      <li>You are signed out in every browser.</li>
      <li>Your licenses are revoked, free trials included, so the tools stop working on every device.</li>
      <li>Your name, email address, phone number, password, passkeys, devices and messages are erased.</li>
      <li>
        The tax invoices and credit notes issued to you are kept for {TAX_RECORD_RETENTION_MONTHS} months, as
        the GST law requires (CGST Act section 36), with the name and address they were issued to.
      </li>
    </ul>
  );
}

function DeleteAccountForm({ user }: { user: AuthUser }) {
  const form = useForm({ initial: { password: '', email: '' }, fields: FIELDS, idOf });
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLDivElement>(null);
  const [, navigate] = useLocation();
  const reauth = useReauth();

  // The typed address is checked here, before "cannot be undone" is asked, not only by the server afterwards.
  const askToConfirm = form.submit({
    validate: (values) => {
      const errors = validateDeleteAccount(values);
      if (!errors.email && normaliseEmail(values.email) !== normaliseEmail(user.email))
        errors.email = DATA_RIGHTS_MESSAGES.wrongEmail;
      return errors;
    },
    send: async () => {
      setConfirming(true);
      window.setTimeout(() => confirmRef.current?.focus(), 0);
    },
  });

  const erase = () =>
    form.run({
      send: async (values) => {
        try {
          await reauth.guard(() => api.post('/api/account/delete', values));
        } catch (failure) {
          setConfirming(false);
          throw failure;
        }
        // The toast outlasts the move to the home page; the live region says it, then the home page's title.
        toast.success(DATA_RIGHTS_MESSAGES.erased, { beforeNextPage: true });
        // The home page starts without a session of its own; asking this page's provider again first would send
        // the visitor to /utility-tools, as any signed-in-only page does once the session is gone.
        navigate('/', { replace: true });
      },
      explain,
    });

  return (
    <>
      <form noValidate onSubmit={askToConfirm} className="max-w-xl space-y-5">
        <Consequences />
        <PasswordField
          {...form.field('password')}
          label="Password"
          autoComplete="current-password"
          required
        />
        <TextField
          {...form.field('email')}
          label="Your email address, typed again"
          hint={`To confirm, type ${user.email}`}
          type="email"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          required
        />
        <FormError message={form.formError} />
        {confirming ? (
          <div
            ref={confirmRef}
            tabIndex={-1}
            role="alertdialog"
            aria-labelledby="delete-account-confirm"
            className="space-y-4 rounded-lg border border-red-200 bg-red-50 p-4"
          >
            <p
              id="delete-account-confirm"
              className="flex items-start gap-2 text-sm font-semibold text-red-900"
            >
              <Icon node={TriangleAlert} className="mt-0.5 size-4 shrink-0" />
              This cannot be undone. Delete your account now?
            </p>
            <div className="flex flex-wrap gap-3">
              <Button
                variant="danger"
                busy={form.busy === 'submit'}
                onClick={() => void erase()}
                className="min-h-11"
              >
                Yes, delete my account
              </Button>
              <SecondaryButton cancel onClick={() => setConfirming(false)}>
                Cancel
              </SecondaryButton>
            </div>
          </div>
        ) : (
          <button
            type="submit"
            className="inline-flex min-h-11 items-center justify-center rounded-lg bg-red-700 px-5 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-red-800"
          >
            Delete my account
          </button>
        )}
      </form>
      {reauth.prompt}
    </>
  );
}

/** "Delete account" (DPDP Act s. 12): what happens first, then the password and the email typed again. */
export function DeleteAccountSection() {
  return (
    <AccountSection
      id="delete-account"
      title="Delete account"
      description="Close your account and erase your personal data."
    >
      {(user) => <DeleteAccountForm user={user} />}
    </AccountSection>
  );
}
