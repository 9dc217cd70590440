import type { AuthCheckResponse, LoginResponse, MessageResponse, SignupResponse } from '../../../shared/auth';
import { ApiError, api } from '../../lib/api';

/** The spec's "form data" (§7): sent urlencoded, which the server reads like multipart. */
const form = (fields: Record<string, string>) => new URLSearchParams(fields);

export const authApi = {
  check: () => api.get<AuthCheckResponse>('/api/auth/check/'),
  login: (email: string, password: string) =>
    api.post<LoginResponse>('/api/auth/login/', form({ email, password })),
  logout: () => api.post<MessageResponse>('/api/auth/logout/'),
  sendSignupCode: (name: string, email: string) =>
    api.post<MessageResponse>('/api/auth/send-otp/', form({ name, email })),
  completeSignup: (fields: { name: string; email: string; phone: string; password: string; otp: string }) =>
    api.post<SignupResponse>('/api/auth/initiate-signup/', form(fields)),
  forgotPassword: (email: string) => api.post<MessageResponse>('/api/auth/forgot-password/', { email }),
  verifyResetCode: (email: string, otp: string) =>
    api.post<MessageResponse>('/api/auth/verify-otp/', { email, otp }),
  resetPassword: (email: string, otp: string, password: string) =>
    api.post<MessageResponse>('/api/auth/reset-password/', { email, otp, password }),
};

/** Spec §8: the server's message when it sent one, else the step's own fallback text. */
export function errorText(error: unknown, fallback: string): string {
  return (error instanceof ApiError && error.serverMessage) || fallback;
}

/** The field a 400 names, for putting its message next to that field. */
export function errorField(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const fields = error.body?.fieldErrors;
  return fields ? Object.keys(fields)[0] : undefined;
}
