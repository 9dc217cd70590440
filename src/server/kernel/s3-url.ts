/** STORAGE_URL, kept apart from the S3 client so reading the configuration does not load the AWS SDK. */

/** Where the files live in a bucket: `s3://BUCKET[/PREFIX]?endpoint=…&region=…`. */
export type S3Location = {
  bucket: string;
  prefix: string;
  region: string;
  /** Any S3-compatible service (MinIO, R2, Spaces, B2…); unset means AWS itself. */
  endpoint: string | undefined;
  /** Bucket in the path instead of the host name: what most S3-compatible services need. */
  forcePathStyle: boolean;
};

/** Parses STORAGE_URL; throws with a readable reason (the config check lists it at boot). */
export function parseS3Url(value: string): S3Location {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('must be a URL like s3://bucket?endpoint=https://…&region=…');
  }
  if (url.protocol !== 's3:') throw new Error('only s3:// URLs are supported');
  if (!url.hostname) throw new Error('names no bucket (s3://BUCKET?…)');
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint && !/^https?:\/\//.test(endpoint)) throw new Error('endpoint must be an http(s) URL');
  const pathStyle = url.searchParams.get('forcePathStyle');
  return {
    bucket: url.hostname,
    prefix: url.pathname.replace(/^\/+|\/+$/g, ''),
    region: url.searchParams.get('region') ?? 'us-east-1',
    endpoint,
    forcePathStyle: pathStyle === null ? endpoint !== undefined : pathStyle === 'true',
  };
}
