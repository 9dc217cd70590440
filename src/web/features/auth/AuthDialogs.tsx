import type { AuthUser } from '../../../shared/auth';
import type { AuthDialogName } from '../../session/auth-dialog';
import { LoginDialog } from './LoginDialog';
import { SignupDialog } from './SignupDialog';

/**
 * Where focus goes when a dialog closes and what opened it is gone or was the page itself (a deep link opens the
 * login dialog on load): the page's own "Sign in" button when the page asks for one, else the navbar's Login.
 */
const returnFocus = () =>
  document.querySelector<HTMLElement>('[data-sign-in-gate] button') ??
  document.querySelector<HTMLElement>('[data-login-button]');

/** The Login and Signup dialogs, loaded on first use so the tools pages' first paint does not wait for them. */
export default function AuthDialogs({
  open,
  reason,
  onOpen,
  onClose,
  onLoggedIn,
}: {
  open: AuthDialogName | null;
  /** The login dialog's line on what signing in is for; the default is about buying. */
  reason?: string;
  onOpen: (name: AuthDialogName) => void;
  onClose: () => void;
  onLoggedIn: (user: AuthUser) => void;
}) {
  return (
    <>
      <LoginDialog
        open={open === 'login'}
        reason={reason}
        onClose={onClose}
        onSignup={() => onOpen('signup')}
        onLoggedIn={onLoggedIn}
        returnFocus={returnFocus}
      />
      <SignupDialog
        open={open === 'signup'}
        onClose={onClose}
        onLogin={() => onOpen('login')}
        onLoggedIn={onLoggedIn}
        returnFocus={returnFocus}
      />
    </>
  );
}
