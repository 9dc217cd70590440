import type { LoginResponse } from '../../../shared/auth';
import type { CouponDetail, CouponSummary, NewCouponInput } from '../../../shared/coupons';
import type {
  ActivityEntry,
  ActivityQuery,
  AdminOrderDetail,
  AdminTool,
  AdminToolTrials,
  CursorPage,
  CustomerDetail,
  CustomerRow,
  CustomersQuery,
  DashboardStatus,
  EnrolmentDone,
  EnrolmentStart,
  InvoicePeriod,
  InvoiceReport,
  MailStatus,
  MessageRow,
  MessagesQuery,
  OrderRow,
  OrdersQuery,
  OverviewResponse,
  Page,
  RecordTransferRequest,
  RefundRequest,
  ReturnPaymentRequest,
  SuspendLicenseRequest,
  ToolInput,
  ToolsQuery,
} from '../../../shared/dashboard';
import type {
  AdminEdition,
  DashboardEditionChanges,
  DashboardNewEdition,
} from '../../../shared/edition-schemas';
import type { RefundRequestListRow } from '../../../shared/refund-requests';
import type {
  CreateReleaseInput,
  EditReleaseInput,
  PublishReleaseInput,
  RolloutChangeInput,
} from '../../../shared/release-schemas';
import type { AdminRelease, ToolAdoption } from '../../../shared/releases';
import type { TdsReport } from '../../../shared/tds-report';
import type {
  NewWebhookEndpoint,
  WebhookDeliverySummary,
  WebhookEndpointSummary,
} from '../../../shared/webhooks';
import { ApiError, api } from '../../lib/api';
import { uploadWithProgress } from '../../lib/upload';

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

export const dashboardApi = {
  status: () => api.get<DashboardStatus>('/api/admin/auth/status'),
  login: (email: string, password: string) =>
    api.post<LoginResponse>('/api/auth/login/', new URLSearchParams({ email, password })),
  logout: () => api.post<{ message: string }>('/api/auth/logout/'),
  startEnrolment: () => api.post<EnrolmentStart>('/api/admin/auth/enrol', {}),
  confirmEnrolment: (code: string) => api.post<EnrolmentDone>('/api/admin/auth/enrol/confirm', { code }),
  verify: (code: string) => api.post<DashboardStatus>('/api/admin/auth/verify', { code }),
  signOut: () => api.post<{ message: string }>('/api/admin/auth/sign-out', {}),
  overview: () => api.get<OverviewResponse>('/api/admin/overview'),
  tools: (query: ToolsQuery) => api.get<Page<AdminTool>>(`/api/admin/tools${queryString(query)}`),
  tool: (id: string) => api.get<AdminTool>(`/api/admin/tools/${encodeURIComponent(id)}`),
  createTool: (input: ToolInput) => api.post<AdminTool>('/api/admin/tools', input),
  editions: (toolId: string) =>
    api.get<AdminEdition[]>(`/api/admin/tools/${encodeURIComponent(toolId)}/editions`),
  addEdition: (toolId: string, input: DashboardNewEdition) =>
    api.post<AdminEdition[]>(`/api/admin/tools/${encodeURIComponent(toolId)}/editions`, input),
  editEdition: (toolId: string, editionId: string, changes: DashboardEditionChanges) =>
    api.post<AdminEdition[]>(
      `/api/admin/tools/${encodeURIComponent(toolId)}/editions/${encodeURIComponent(editionId)}`,
      changes,
    ),
  toolTrials: (id: string) => api.get<AdminToolTrials>(`/api/admin/tools/${encodeURIComponent(id)}/trials`),
  extendTrial: (id: string, days: number) =>
    api.post<{ id: string; expiresAt: string }>(`/api/admin/trials/${encodeURIComponent(id)}/extend`, {
      days,
    }),
  endTrial: (id: string) =>
    api.post<{ id: string; expiresAt: string }>(`/api/admin/trials/${encodeURIComponent(id)}/end`, {}),
  updateTool: (id: string, input: ToolInput) =>
    api.post<AdminTool>(`/api/admin/tools/${encodeURIComponent(id)}`, input),
  uploadToolFile: (id: string, file: File, code: string) => {
    const body = new FormData();
    body.set('code', code);
    body.set('file', file);
    return api.post<AdminTool>(`/api/admin/tools/${encodeURIComponent(id)}/file`, body);
  },
  orders: (query: OrdersQuery) => api.get<CursorPage<OrderRow>>(`/api/admin/orders${queryString(query)}`),
  order: (id: string) => api.get<AdminOrderDetail>(`/api/admin/orders/${encodeURIComponent(id)}`),
  resend: (id: string) =>
    api.post<{ message: string }>(`/api/admin/orders/${encodeURIComponent(id)}/resend`, {}),
  refund: (id: string, body: RefundRequest) =>
    api.post<{ message: string }>(`/api/admin/orders/${encodeURIComponent(id)}/refund`, body),
  recordTransfer: (id: string, body: RecordTransferRequest) =>
    api.post<{ message: string }>(`/api/admin/orders/${encodeURIComponent(id)}/transfers`, body),
  settleLatePayment: (id: string) =>
    api.post<{ message: string }>(`/api/admin/orders/${encodeURIComponent(id)}/late-payment/settle`, {}),
  returnLatePayment: (id: string, body: ReturnPaymentRequest) =>
    api.post<{ message: string }>(`/api/admin/orders/${encodeURIComponent(id)}/late-payment/return`, body),
  tdsCertificateChecked: (id: string) =>
    api.post<{ message: string }>(`/api/admin/orders/${encodeURIComponent(id)}/tds-certificate/checked`, {}),
  tdsReport: (quarter: string) => api.get<TdsReport>(`/api/admin/tds${queryString({ quarter })}`),
  customers: (query: CustomersQuery) =>
    api.get<CursorPage<CustomerRow>>(`/api/admin/customers${queryString(query)}`),
  customer: (id: string) => api.get<CustomerDetail>(`/api/admin/customers/${encodeURIComponent(id)}`),
  messages: (query: MessagesQuery) => api.get<Page<MessageRow>>(`/api/admin/messages${queryString(query)}`),
  markHandled: (id: string) =>
    api.post<{ message: string }>(`/api/admin/messages/${encodeURIComponent(id)}/handled`, {}),
  mail: () => api.get<MailStatus>('/api/admin/mail'),
  retryMail: (id: number) => api.post<{ message: string }>(`/api/admin/mail/${id}/retry`, {}),
  deactivateDevice: (licenseId: string, deviceId: string) =>
    api.post<{ message: string }>(
      `/api/admin/licenses/${encodeURIComponent(licenseId)}/devices/${encodeURIComponent(deviceId)}/deactivate`,
      {},
    ),
  resetDeactivations: (licenseId: string) =>
    api.post<{ message: string }>(
      `/api/admin/licenses/${encodeURIComponent(licenseId)}/reset-deactivations`,
      {},
    ),
  suspendLicense: (licenseId: string, input: SuspendLicenseRequest) =>
    api.post<{ message: string }>(`/api/admin/licenses/${encodeURIComponent(licenseId)}/suspend`, input),
  reinstateLicense: (licenseId: string) =>
    api.post<{ message: string }>(`/api/admin/licenses/${encodeURIComponent(licenseId)}/reinstate`, {}),
  invoices: (period: InvoicePeriod) => api.get<InvoiceReport>(`/api/admin/invoices${queryString(period)}`),
  coupons: () => api.get<CouponSummary[]>('/api/admin/coupons'),
  coupon: (code: string) => api.get<CouponDetail>(`/api/admin/coupons/${encodeURIComponent(code)}`),
  createCoupon: (input: NewCouponInput) => api.post<CouponSummary>('/api/admin/coupons', input),
  disableCoupon: (code: string) =>
    api.post<CouponSummary>(`/api/admin/coupons/${encodeURIComponent(code)}/disable`, {}),
  webhooks: () => api.get<WebhookEndpointSummary[]>('/api/admin/webhooks'),
  webhook: (id: string) =>
    api.get<{ endpoint: WebhookEndpointSummary; deliveries: WebhookDeliverySummary[] }>(
      `/api/admin/webhooks/${encodeURIComponent(id)}`,
    ),
  addWebhook: (input: NewWebhookEndpoint & { code: string }) =>
    api.post<WebhookEndpointSummary & { secret: string }>('/api/admin/webhooks', input),
  disableWebhook: (id: string) =>
    api.post<WebhookEndpointSummary>(`/api/admin/webhooks/${encodeURIComponent(id)}/disable`, {}),
  enableWebhook: (id: string) =>
    api.post<WebhookEndpointSummary>(`/api/admin/webhooks/${encodeURIComponent(id)}/enable`, {}),
  rotateWebhookSecret: (id: string) =>
    api.post<WebhookEndpointSummary & { secret: string }>(
      `/api/admin/webhooks/${encodeURIComponent(id)}/rotate-secret`,
      {},
    ),
  redeliverWebhook: (deliveryId: number) =>
    api.post<{ id: number }>(`/api/admin/webhook-deliveries/${deliveryId}/redeliver`, {}),
  refundRequests: () => api.get<RefundRequestListRow[]>('/api/admin/refund-requests'),
  approveRefundRequest: (id: string, code: string) =>
    api.post<{ message: string }>(`/api/admin/refund-requests/${encodeURIComponent(id)}/approve`, { code }),
  declineRefundRequest: (id: string, reason: string) =>
    api.post<{ message: string }>(`/api/admin/refund-requests/${encodeURIComponent(id)}/decline`, { reason }),
  activity: (query: ActivityQuery) =>
    api.get<CursorPage<ActivityEntry>>(`/api/admin/activity${queryString(query)}`),
  releases: (toolId: string) =>
    api.get<AdminRelease[]>(`/api/admin/tools/${encodeURIComponent(toolId)}/releases`),
  createRelease: (toolId: string, input: CreateReleaseInput) =>
    api.post<AdminRelease>(`/api/admin/tools/${encodeURIComponent(toolId)}/releases`, input),
  editRelease: (id: string, input: EditReleaseInput) =>
    api.patch<AdminRelease>(`/api/admin/releases/${encodeURIComponent(id)}`, input),
  uploadArtifact: (
    id: string,
    fields: { platform: string; arch: string; kind: string; installerArguments?: string },
    file: File,
    onProgress: (fraction: number) => void,
  ) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    body.set('file', file);
    return uploadWithProgress<AdminRelease>(
      `/api/admin/releases/${encodeURIComponent(id)}/artifacts`,
      body,
      onProgress,
    );
  },
  removeArtifact: (id: string, artifactId: string) =>
    api.delete<AdminRelease>(
      `/api/admin/releases/${encodeURIComponent(id)}/artifacts/${encodeURIComponent(artifactId)}`,
    ),
  yankRelease: (id: string, code: string) =>
    api.post<AdminRelease>(`/api/admin/releases/${encodeURIComponent(id)}/yank`, { code }),
  publishRelease: (id: string, input: PublishReleaseInput) =>
    api.post<AdminRelease>(`/api/admin/releases/${encodeURIComponent(id)}/publish`, input),
  changeRollout: (id: string, code: string, change: RolloutChangeInput) =>
    api.post<AdminRelease>(`/api/admin/releases/${encodeURIComponent(id)}/rollout`, { code, change }),
  adoption: (toolId: string) =>
    api.get<ToolAdoption>(`/api/admin/tools/${encodeURIComponent(toolId)}/adoption`),
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
