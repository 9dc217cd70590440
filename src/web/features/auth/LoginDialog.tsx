import { useEffect, useId, useState } from 'react';
import type { AuthUser } from '../../../shared/auth';
import { CloseButton } from '../../components/form';
import { Modal } from '../../components/Modal';
import { ForgotStep, LoginStep, ResetStep, VerifyStep } from './LoginSteps';
import { PasskeySignIn } from './PasskeySignIn';
import { type LoginView, useLoginFlow } from './useLoginFlow';

const TITLES: Record<LoginView, string> = {
  login: 'Welcome Back',
  forgot: 'Forgot Password',
  verify: 'Verify Code',
  reset: 'Reset Password',
};

/** Why the Login dialog is open, when what opened it gave no reason of its own. */
const DEFAULT_REASON = 'Sign in to buy tools and see the ones you own.';

/**
 * The Login dialog and its forgot-password flow (docs/product.md §2, §4, §8): Welcome Back → Forgot Password →
 * Verify Code → Reset Password, and back to login 3 s after a successful reset.
 */
export function LoginDialog({
  open,
  reason,
  onClose,
  onSignup,
  onLoggedIn,
  returnFocus,
}: {
  open: boolean;
  reason?: string;
  onClose: () => void;
  onSignup: () => void;
  onLoggedIn: (user: AuthUser) => void;
  returnFocus: () => HTMLElement | null;
}) {
  const [view, setView] = useState<LoginView>('login');
  // Every opening starts at the login step.
  useEffect(() => {
    if (!open) setView('login');
  }, [open]);
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={TITLES[view]}
      returnFocus={returnFocus}
      // Why the dialog is open is its description, read with its name (issue 63); the other steps say theirs.
      description={view === 'login' ? (reason ?? DEFAULT_REASON) : undefined}
    >
      <LoginFlow
        view={view}
        setView={setView}
        onClose={onClose}
        onSignup={onSignup}
        onLoggedIn={onLoggedIn}
      />
    </Modal>
  );
}

/** Mounted only while the dialog is open, so each opening starts with empty fields. */
function LoginFlow({
  view,
  setView,
  onClose,
  onSignup,
  onLoggedIn,
}: {
  view: LoginView;
  setView: (view: LoginView) => void;
  onClose: () => void;
  onSignup: () => void;
  onLoggedIn: (user: AuthUser) => void;
}) {
  const id = useId();
  const flow = useLoginFlow({ idPrefix: id, setView, onClose, onLoggedIn });
  return (
    <>
      {view === 'login' && (
        <>
          <LoginStep id={id} flow={flow} onSignup={onSignup} />
          <PasskeySignIn onLoggedIn={onLoggedIn} onClose={onClose} />
        </>
      )}
      {view === 'forgot' && <ForgotStep id={id} flow={flow} />}
      {view === 'verify' && <VerifyStep id={id} flow={flow} />}
      {view === 'reset' && <ResetStep id={id} flow={flow} />}
      <CloseButton onClose={onClose} />
    </>
  );
}
