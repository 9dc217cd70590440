import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useLocation } from 'wouter';
import type { AuthUser } from '../../shared/auth';
import { AUTH_POLL_INTERVAL_MS } from '../../shared/constants';
import { sessionApi } from './api';
import { signedInOnlyReason } from './signed-in-only';
import { goodbye, rememberSignIn, rememberSignOut, signedOut, welcomeBack } from './welcome-back';

export type { AuthUser } from '../../shared/auth';

import type { AuthDialogName } from './auth-dialog';

export type AuthState = {
  user: AuthUser | null;
  loggedIn: boolean;
  /** False until the first GET /api/auth/check/ has answered (and always during prerender). */
  checked: boolean;
  /** Whether the Login or Signup dialog is open. */
  signingIn: boolean;
  /** `reason`: the line under the dialog's title that says what signing in is for (the default says buying). */
  openLogin(reason?: string): void;
  openSignup(): void;
  /** Signed out on a page only a signed-in buyer sees (signedInOnlyReason): why it asks to sign in. */
  signInNeeded: string | null;
  logout(): Promise<void>;
  refresh(): Promise<void>;
  /** For the layout's AuthDialogsMount only: the sign-in dialogs' state. */
  dialogs: AuthDialogState;
};

/**
 * The sign-in dialogs' state, for the layout that draws them (layout/AuthDialogsMount): which one is open, the
 * login dialog's reason line, and what a dialog reports back. The context holds state only; features/auth draws.
 */
export type AuthDialogState = {
  /** False until a dialog was first asked for: the dialogs' code loads then and stays mounted. */
  wanted: boolean;
  open: AuthDialogName | null;
  reason: string | undefined;
  show(name: AuthDialogName): void;
  close(): void;
  onLoggedIn(user: AuthUser): void;
};

const AuthContext = createContext<AuthState | null>(null);

const TOOLS_PATH = '/utility-tools';

/**
 * Who is logged in, for the tools pages (docs/product.md §4, §6). Checks GET /api/auth/check/ once mounted
 * (the prerendered HTML is the "not checked yet" state), polls every 5 s when `poll`, and holds which of the Login
 * and Signup dialogs is open (the layout draws them: layout/AuthDialogsMount). On the buyer's own pages (signedInOnlyReason) a visitor who is not logged in gets the sign-in
 * dialog there; one whose check fails is sent to /utility-tools (docs/product.md §9).
 */
export function AuthProvider({ children, poll = false }: { children: ReactNode; poll?: boolean }) {
  const [user, setUser] = useState<AuthUser | null>(null);
  const [checked, setChecked] = useState(false);
  const [dialog, setDialog] = useState<AuthDialogName | null>(null);
  /** The dialogs stay mounted once loaded, so the native <dialog> can return focus when it closes. */
  const [dialogsWanted, setDialogsWanted] = useState(false);
  const [reason, setReason] = useState<string | undefined>();
  const [pathname, navigate] = useLocation();
  const signInReason = signedInOnlyReason(pathname);
  const signedInOnly = signInReason !== null;
  const signedInOnlyRef = useRef(signedInOnly);
  signedInOnlyRef.current = signedInOnly;

  /** Who the last check found signed in: a later check that finds no one says the session has ended. */
  const signedInAs = useRef<string | null>(null);
  const refresh = useCallback(async () => {
    try {
      const result = await sessionApi.check();
      if (signedInAs.current !== null && !result.loggedin) signedOut();
      signedInAs.current = result.loggedin ? (result.user?.email ?? null) : null;
      setUser(result.loggedin ? result.user : null);
      setChecked(true);
    } catch (error) {
      console.error('Auth check failed', error);
      if (signedInOnlyRef.current) navigate(TOOLS_PATH, { replace: true });
    }
  }, [navigate]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  // Until a check has answered, keep asking: a failed first check must not leave the page without a sign-in state
  // (on the pages that poll anyway, the poll is the retry).
  useEffect(() => {
    if (poll || checked) return;
    const timer = window.setInterval(() => void refresh(), AUTH_POLL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [poll, checked, refresh]);

  useEffect(() => {
    if (!poll) return;
    const timer = window.setInterval(() => {
      if (!document.hidden) void refresh();
    }, AUTH_POLL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [poll, refresh]);

  const open = useCallback((name: AuthDialogName, why?: string) => {
    setDialogsWanted(true);
    setReason(why);
    setDialog(name);
  }, []);

  // Signed out on the buyer's own page: the sign-in dialog, saying why, instead of sending the visitor away.
  const signInNeeded = checked && !user ? signInReason : null;
  useEffect(() => {
    if (signInNeeded) open('login', signInNeeded);
  }, [signInNeeded, open]);

  // The first answer of the check on this page load: a sign-in that reloaded it is said and focused once.
  const greeted = useRef(false);
  const userName = user?.name;
  useEffect(() => {
    if (!checked || greeted.current) return;
    greeted.current = true;
    if (userName) welcomeBack(userName);
    else goodbye();
  }, [checked, userName]);

  const logout = useCallback(async () => {
    try {
      await sessionApi.logout();
    } catch (error) {
      // The server may already have ended the session; reloading shows whatever state is true now.
      console.error('Logout failed', error);
    }
    rememberSignOut();
    if (signedInOnlyRef.current) window.location.assign(TOOLS_PATH);
    else window.location.reload();
  }, []);

  const onLoggedIn = useCallback((loggedInUser: AuthUser) => {
    rememberSignIn();
    setUser(loggedInUser);
    setChecked(true);
  }, []);
  const value = useMemo<AuthState>(
    () => ({
      user,
      loggedIn: user !== null,
      checked,
      signingIn: dialog !== null,
      openLogin: (why?: string) => open('login', why),
      openSignup: () => open('signup'),
      signInNeeded,
      logout,
      refresh,
      dialogs: {
        wanted: dialogsWanted,
        open: dialog,
        reason,
        show: setDialog,
        close: () => setDialog(null),
        onLoggedIn,
      },
    }),
    [user, checked, dialog, dialogsWanted, reason, open, onLoggedIn, logout, refresh, signInNeeded],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth must be used inside <AuthProvider>');
  return state;
}
