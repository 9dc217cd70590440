import type { AuthUser } from '../../../shared/auth';
import type { AuthDialogName } from '../../session/auth-dialog';
import { LoginDialog } from './LoginDialog';
import { SignupDialog } from './SignupDialog';

/** The Login and Signup dialogs, loaded on first use so the tools pages' first paint does not wait for them. */
export default function AuthDialogs({
  open,
  onOpen,
  onClose,
  onLoggedIn,
}: {
  open: AuthDialogName | null;
  onOpen: (name: AuthDialogName) => void;
  onClose: () => void;
  onLoggedIn: (user: AuthUser) => void;
}) {
  return (
    <>
      <LoginDialog
        open={open === 'login'}
        onClose={onClose}
        onSignup={() => onOpen('signup')}
        onLoggedIn={onLoggedIn}
      />
      <SignupDialog
        open={open === 'signup'}
        onClose={onClose}
        onLogin={() => onOpen('login')}
        onLoggedIn={onLoggedIn}
      />
    </>
  );
}
