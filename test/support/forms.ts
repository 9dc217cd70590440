/** A multipart/form-data body as a browser's FormData sends it. */
export function multipartBody(fields: Record<string, string>): { body: Buffer; contentType: string } {
  const boundary = '----hostile-input-boundary';
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`, 'utf8'),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
