import type { LoginResponse } from '../../../shared/auth';
import type {
  ActivityEntry,
  ActivityQuery,
  DashboardStatus,
  EnrolmentDone,
  EnrolmentStart,
  OverviewResponse,
  Page,
} from '../../../shared/dashboard';
import { ApiError, api } from '../../lib/api';

/** Query string of a table request, leaving out empty values. */
export function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if ((typeof value === 'string' && value !== '') || typeof value === 'number')
      params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const adminApi = {
  status: () => api.get<DashboardStatus>('/api/admin/auth/status'),
  login: (email: string, password: string) =>
    api.post<LoginResponse>('/api/auth/login/', new URLSearchParams({ email, password })),
  logout: () => api.post<{ message: string }>('/api/auth/logout/'),
  startEnrolment: () => api.post<EnrolmentStart>('/api/admin/auth/enrol', {}),
  confirmEnrolment: (code: string) => api.post<EnrolmentDone>('/api/admin/auth/enrol/confirm', { code }),
  verify: (code: string) => api.post<DashboardStatus>('/api/admin/auth/verify', { code }),
  signOut: () => api.post<{ message: string }>('/api/admin/auth/sign-out', {}),
  overview: () => api.get<OverviewResponse>('/api/admin/overview'),
  activity: (query: ActivityQuery) =>
    api.get<Page<ActivityEntry>>(`/api/admin/activity${queryString(query)}`),
};

/** The server's message for a failed call, else the fallback. */
export function problem(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  return (error instanceof ApiError && error.serverMessage) || fallback;
}

/** The dashboard session ran out (idle or 12 hours) or the site session ended: back to the sign-in steps. */
export function lostSession(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.status === 401 || (error.status === 403 && error.body?.code === 'second_factor_required'))
  );
}
