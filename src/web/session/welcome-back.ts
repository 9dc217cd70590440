import { toast } from '../components/ToastHost';
import { announce, focusLost } from '../lib/announce';

/** Set just before the reload that follows a sign-in, so the reloaded page can say so and place focus. */
const JUST_SIGNED_IN = 'just-signed-in';
/** Set just before the reload (or the move to the tools) that follows Sign Out. */
const JUST_SIGNED_OUT = 'just-signed-out';

export const SIGNED_OUT = 'You are signed out.';

function remember(key: string): void {
  try {
    sessionStorage.setItem(key, '1');
  } catch {
    // Storage refused: the reloaded page just does not say so.
  }
}

/** Whether `key` was set before this page load; it is said once. */
function remembered(key: string): boolean {
  try {
    const flagged = sessionStorage.getItem(key) !== null;
    sessionStorage.removeItem(key);
    return flagged;
  } catch {
    // Storage refused (private mode): nothing to say.
    return false;
  }
}

/** Before the reload that follows a sign-in. */
export const rememberSignIn = () => remember(JUST_SIGNED_IN);

/** Before the reload that follows Sign Out. */
export const rememberSignOut = () => remember(JUST_SIGNED_OUT);

/**
 * After Sign Out's reload, or when the session ended elsewhere while the page was open: a visible message, said
 * once (issue 63); without it the page only swapped the account menu for Login.
 */
export function signedOut(): void {
  toast.success(SIGNED_OUT);
}

/** After Sign Out's reload: the message, once. */
export function goodbye(): void {
  if (remembered(JUST_SIGNED_OUT)) signedOut();
}

/** After a sign-in's reload: focus on the account menu (named with the buyer's name), and one announcement. */
export function welcomeBack(name: string) {
  if (!remembered(JUST_SIGNED_IN)) return;
  if (focusLost()) document.querySelector<HTMLElement>('[data-user-menu]')?.focus();
  announce(`Signed in as ${name}.`);
}
