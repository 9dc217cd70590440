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

/** A multipart/form-data body with one file part, as a browser's FormData with a chosen file sends it. */
export function multipartFile(
  field: string,
  fileName: string,
  bytes: Buffer,
  type = 'application/pdf',
): { body: Buffer; contentType: string } {
  const boundary = '----file-upload-boundary';
  return {
    body: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
