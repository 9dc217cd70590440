import { ApiError, type ApiErrorBody, ensureCsrfToken, readCookie } from './api';

/**
 * A multipart upload that reports its progress (fetch cannot), with the same credentials, CSRF header and ApiError
 * as `api`. `onProgress` gets the fraction sent, 0 to 1. Only the dashboard uploads: kept out of lib/api.ts, which
 * every page's entry carries (the home page's JavaScript is held to 80 KB gzip).
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
