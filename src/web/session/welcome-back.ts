import { announce, focusLost } from '../lib/announce';

/** Set just before the reload that follows a sign-in, so the reloaded page can say so and place focus. */
const JUST_SIGNED_IN = 'just-signed-in';

/** Before the reload that follows a sign-in. */
export function rememberSignIn(): void {
  try {
    sessionStorage.setItem(JUST_SIGNED_IN, '1');
  } catch {
    // Storage refused: the reloaded page just does not say so.
  }
}

/** After a sign-in's reload: focus on the account menu (named with the buyer's name), and one announcement. */
export function welcomeBack(name: string) {
  let flagged = false;
  try {
    flagged = sessionStorage.getItem(JUST_SIGNED_IN) !== null;
    sessionStorage.removeItem(JUST_SIGNED_IN);
  } catch {
    // Storage refused (private mode): nothing to say.
  }
  if (!flagged) return;
  if (focusLost()) document.querySelector<HTMLElement>('[data-user-menu]')?.focus();
  announce(`Signed in as ${name}.`);
}
