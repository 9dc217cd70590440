import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import type { AccountPasskey, AccountSession, EmailPreferences } from '../../../shared/account';
import type { AuthUser } from '../../../shared/auth';
import { api } from '../../lib/api';

type Message = { message: string };

/** The account page's calls (src/server/account). */
export const accountApi = {
  saveProfile: (body: { name: string; phone: string }) =>
    api.patch<{ user: AuthUser } & Message>('/api/account/profile', body),
  changePassword: (body: { currentPassword: string; password: string; confirmPassword: string }) =>
    api.post<Message>('/api/account/password', body),
  requestEmailChange: (email: string) => api.post<Message>('/api/account/email', { email }),
  confirmEmailChange: (email: string, code: string) =>
    api.post<{ user: AuthUser } & Message>('/api/account/email/confirm', { email, code }),
  sessions: () => api.get<AccountSession[]>('/api/account/sessions'),
  endSession: (id: string) => api.delete<Message>(`/api/account/sessions/${encodeURIComponent(id)}`),
  endOtherSessions: () => api.post<{ ended: number } & Message>('/api/account/sessions/sign-out-others', {}),
  passkeys: () => api.get<AccountPasskey[]>('/api/account/passkeys'),
  passkeyOptions: () => api.post<PublicKeyCredentialCreationOptionsJSON>('/api/account/passkeys/options', {}),
  addPasskey: (name: string, credential: RegistrationResponseJSON) =>
    api.post<{ passkeys: AccountPasskey[] } & Message>('/api/account/passkeys', {
      name,
      credential: credential as unknown as Record<string, unknown>,
    }),
  renamePasskey: (id: string, name: string) =>
    api.patch<{ passkeys: AccountPasskey[] } & Message>(`/api/account/passkeys/${encodeURIComponent(id)}`, {
      name,
    }),
  removePasskey: (id: string) =>
    api.delete<{ passkeys: AccountPasskey[] } & Message>(`/api/account/passkeys/${encodeURIComponent(id)}`),
  /** The challenge for a passkey that confirms it's you: the sign-in ceremony's own. */
  reauthPasskeyOptions: () =>
    api.post<PublicKeyCredentialRequestOptionsJSON>('/api/auth/passkey/options', {}),
  /** Sudo mode: the password, or a passkey assertion for /api/auth/passkey/options' challenge. */
  reauth: (body: { password: string } | { credential: Record<string, unknown> }) =>
    api.post<Message>('/api/account/reauth', body),
  emailPreferences: () => api.get<EmailPreferences>('/api/account/email-preferences'),
  setEmailPreferences: (changes: Partial<EmailPreferences>) =>
    api.patch<EmailPreferences>('/api/account/email-preferences', changes),
};
