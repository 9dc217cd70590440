import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type {
  ForgotPasswordRequest,
  InitiateSignupRequest,
  LoginRequest,
  LoginResponse,
  MessageResponse,
  ResetPasswordRequest,
  SendOtpRequest,
  SignupResponse,
  VerifyOtpRequest,
} from '../../../shared/auth';
import { ApiError, api } from '../../lib/api';

/** The "form data" calls of docs/product.md §7: sent urlencoded, which the server reads like multipart. */
const form = (fields: Record<string, string>) => new URLSearchParams(fields);

/** The account calls behind the Login and Signup dialogs, typed by the shared request and response schemas. */
export const authApi = {
  login: (body: LoginRequest) => api.post<LoginResponse>('/api/auth/login/', form(body)),
  sendSignupCode: (body: SendOtpRequest) => api.post<MessageResponse>('/api/auth/send-otp/', form(body)),
  completeSignup: (body: Omit<InitiateSignupRequest, 'sentOtp'>) =>
    api.post<SignupResponse>('/api/auth/initiate-signup/', form(body)),
  forgotPassword: (body: ForgotPasswordRequest) =>
    api.post<MessageResponse>('/api/auth/forgot-password/', body),
  verifyResetCode: (body: VerifyOtpRequest) => api.post<MessageResponse>('/api/auth/verify-otp/', body),
  resetPassword: (body: ResetPasswordRequest) => api.post<MessageResponse>('/api/auth/reset-password/', body),
  passkeyOptions: () => api.post<PublicKeyCredentialRequestOptionsJSON>('/api/auth/passkey/options', {}),
  passkeyLogin: (credential: AuthenticationResponseJSON) =>
    api.post<LoginResponse>('/api/auth/passkey/login', {
      credential: credential as unknown as Record<string, unknown>,
    }),
};

/** docs/product.md §8: the server's message when it sent one, else the step's own fallback text. */
export function errorText(error: unknown, fallback: string): string {
  return (error instanceof ApiError && error.serverMessage) || fallback;
}
