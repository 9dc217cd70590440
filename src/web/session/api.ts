import type { AuthCheckResponse, MessageResponse } from '../../shared/auth';
import { api } from '../lib/api';

/** Who is signed in, and signing out: the two account calls every tools page makes. */
export const sessionApi = {
  check: () => api.get<AuthCheckResponse>('/api/auth/check/'),
  logout: () => api.post<MessageResponse>('/api/auth/logout/'),
};
