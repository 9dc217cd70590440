/** The two sign-in dialogs the tools pages open (session/AuthContext holds which; layout/AuthDialogsMount draws them). */
export type AuthDialogName = 'login' | 'signup';
