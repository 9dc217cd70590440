import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
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

export type { AuthUser } from '../../shared/auth';

import type { AuthDialogName } from './auth-dialog';

export type AuthState = {
  user: AuthUser | null;
  loggedIn: boolean;
  /** False until the first GET /api/auth/check/ has answered (and always during prerender). */
  checked: boolean;
  /** Whether the Login or Signup dialog is open. */
  signingIn: boolean;
  openLogin(): void;
  openSignup(): void;
  logout(): Promise<void>;
  refresh(): Promise<void>;
};

const AuthContext = createContext<AuthState | null>(null);

const loadDialogs = () => import('../features/auth/AuthDialogs');
const AuthDialogs = lazy(loadDialogs);

/** Starts loading the dialogs' code before the first click needs it (on hover or focus of Login / Sign Up). */
export function preloadAuthDialogs(): void {
  void loadDialogs();
}

/** The pages only a signed-in buyer sees: anyone else is sent to the tools page. */
const SIGNED_IN_PATHS = new Set(['/my-tools', '/account']);
const TOOLS_PATH = '/utility-tools';

/**
 * Who is logged in, for the tools pages (docs/product.md §4, §6). Checks GET /api/auth/check/ once mounted
 * (the prerendered HTML is the "not checked yet" state), polls every 5 s when `poll`, and renders the Login
 * and Signup dialogs. On /my-tools and /account a visitor who is not logged in, or whose check fails, is sent to
 * /utility-tools.
 */
export function AuthProvider({ children, poll = false }: { children: ReactNode; poll?: boolean }) {
  const [user, setUser] = useState<AuthUser | null>(null);
  const [checked, setChecked] = useState(false);
  const [dialog, setDialog] = useState<AuthDialogName | null>(null);
  /** The dialogs stay mounted once loaded, so the native <dialog> can return focus when it closes. */
  const [dialogsWanted, setDialogsWanted] = useState(false);
  const [pathname, navigate] = useLocation();
  const signedInOnly = SIGNED_IN_PATHS.has(pathname.replace(/\/+$/, ''));
  const signedInOnlyRef = useRef(signedInOnly);
  signedInOnlyRef.current = signedInOnly;

  const refresh = useCallback(async () => {
    try {
      const result = await sessionApi.check();
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

  useEffect(() => {
    if (checked && !user && signedInOnly) navigate(TOOLS_PATH, { replace: true });
  }, [checked, user, signedInOnly, navigate]);

  const open = useCallback((name: AuthDialogName) => {
    setDialogsWanted(true);
    setDialog(name);
  }, []);

  const logout = useCallback(async () => {
    try {
      await sessionApi.logout();
    } catch (error) {
      // The server may already have ended the session; reloading shows whatever state is true now.
      console.error('Logout failed', error);
    }
    if (signedInOnlyRef.current) window.location.assign(TOOLS_PATH);
    else window.location.reload();
  }, []);

  const value = useMemo<AuthState>(
    () => ({
      user,
      loggedIn: user !== null,
      checked,
      signingIn: dialog !== null,
      openLogin: () => open('login'),
      openSignup: () => open('signup'),
      logout,
      refresh,
    }),
    [user, checked, dialog, open, logout, refresh],
  );

  return (
    <AuthContext.Provider value={value}>
      {children}
      {dialogsWanted && (
        <Suspense fallback={null}>
          <AuthDialogs
            open={dialog}
            onOpen={setDialog}
            onClose={() => setDialog(null)}
            onLoggedIn={(loggedInUser) => {
              setUser(loggedInUser);
              setChecked(true);
            }}
          />
        </Suspense>
      )}
    </AuthContext.Provider>
  );
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth must be used inside <AuthProvider>');
  return state;
}
