import { lazy, Suspense } from 'react';
import { useAuth } from '../session/AuthContext';

const loadDialogs = () => import('../features/auth/AuthDialogs');
const AuthDialogs = lazy(loadDialogs);

/** Starts loading the dialogs' code before the first click needs it (on hover or focus of Login / Sign Up). */
export function preloadAuthDialogs(): void {
  void loadDialogs();
}

/**
 * The Login and Signup dialogs, drawn by the layout from the session's state (session/ holds which one is open and
 * why; features/auth draws them). Loaded on first use, then kept mounted so the native <dialog> returns focus.
 */
export function AuthDialogsMount() {
  const { dialogs } = useAuth();
  if (!dialogs.wanted) return null;
  return (
    <Suspense fallback={null}>
      <AuthDialogs
        open={dialogs.open}
        reason={dialogs.reason}
        onOpen={dialogs.show}
        onClose={dialogs.close}
        onLoggedIn={dialogs.onLoggedIn}
      />
    </Suspense>
  );
}
