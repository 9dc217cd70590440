/**
 * Why a signed-out visitor on this address is asked to sign in, or null when anyone may see it. Every address under
 * /my-tools (an order's page too) and /account is the buyer's own: opened signed out (a bookmark, an email's link),
 * it shows the sign-in dialog with this line, and signing in reloads the same address (docs/decisions/045).
 */
export function signedInOnlyReason(pathname: string): string | null {
  const path = pathname.replace(/\/+$/, '');
  if (path === '/account' || path.startsWith('/account/'))
    return 'Sign in to open your account settings. You will come back to this page.';
  if (path.startsWith('/my-tools/team-invitations/'))
    return 'Sign in, or create an account, to accept your seat. You will come back to this page.';
  if (path.startsWith('/my-tools/')) return 'Sign in to see this page of My Tools. You will come back to it.';
  if (path === '/my-tools')
    return 'Sign in to see your tools, trials and orders. You will come back to this page.';
  return null;
}
