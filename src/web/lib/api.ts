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

/**
 * A multipart upload that reports its progress (fetch cannot): the same credentials, CSRF header and ApiError as
 * `request`. `onProgress` gets the fraction sent, 0 to 1.
 */
export async function uploadWithProgress<T>(
  path: string,
  body: FormData,
  onProgress: (fraction: number) => void,
): Promise<T> {
  await ensureCsrfToken();
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = readCookie('csrftoken');
    if (token) xhr.setRequestHeader('X-CSRFToken', token);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let data: unknown = null;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        data = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(data as T);
      else reject(new ApiError(xhr.status, data as ApiErrorBody | null));
    };
    xhr.onerror = () => reject(new ApiError(0, { message: 'The upload was interrupted. Please try again.' }));
    xhr.send(body);
  });
}
