/** The two sign-in dialogs the tools pages open (AuthContext opens them, features/auth draws them). */
export type AuthDialogName = 'login' | 'signup';
