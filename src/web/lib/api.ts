/**
 * The browser's one way to call the API: sends credentials, echoes the csrftoken cookie in X-CSRFToken on every
 * request (docs/product.md §7), and turns a non-2xx answer into an ApiError carrying the server's JSON body.
 */
export type ApiErrorBody = {
  code?: string;
  message?: string;
  error?: string;
  status?: string;
  fieldErrors?: Record<string, string>;
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
  ) {
    super(body?.message ?? body?.error ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
  }
  /** The server's own message, if it sent one: docs/product.md §8 shows it before any fallback text. */
  get serverMessage(): string | undefined {
    return this.body?.error ?? this.body?.message;
  }
}

export function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

let csrfReady: Promise<void> | undefined;

/** GET /api/csrf-token/ once per page load, so the cookie exists before the first unsafe request. */
export function ensureCsrfToken(): Promise<void> {
  csrfReady ??= fetch('/api/csrf-token/', { credentials: 'include' }).then(
    (response) => response.text().then(() => undefined),
    () => {
      csrfReady = undefined;
    },
  );
  return csrfReady;
}

type Body = Record<string, unknown> | URLSearchParams | FormData | undefined;

async function request<T>(method: string, path: string, body?: Body): Promise<T> {
  if (method !== 'GET') await ensureCsrfToken();
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = readCookie('csrftoken');
  if (token) headers['X-CSRFToken'] = token;
  let payload: BodyInit | undefined;
  if (body instanceof URLSearchParams || body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(path, { method, headers, body: payload, credentials: 'include' });
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data as ApiErrorBody | null);
  return data as T;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: Body) => request<T>('POST', path, body),
  patch: <T>(path: string, body?: Body) => request<T>('PATCH', path, body),
  delete: <T>(path: string) => request<T>('DELETE', path),
};
