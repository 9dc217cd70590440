/** The navbar's buttons: Login, Sign Up and the account menu share one size. */
export const navButtonClass =
  'inline-flex h-10 items-center justify-center gap-2 rounded-lg px-3.5 text-sm font-semibold transition-colors sm:px-4';
