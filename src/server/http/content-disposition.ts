/**
 * The `Content-Disposition` of a file the server hands out (RFC 6266): a plain ASCII fallback name for old
 * clients plus the exact UTF-8 name, `attachment` to save it or `inline` to show it (PDFs in the browser).
 */
export function contentDisposition(fileName: string, as: 'attachment' | 'inline' = 'attachment'): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${as}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
