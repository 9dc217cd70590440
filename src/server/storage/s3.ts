import { pipeline, type Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Location } from '../kernel/s3-url';
import { assertValidKey, type ByteRange, type FileStorage, measuringStream, sha256Hex } from './file-storage';

const isMissing = (error: unknown) =>
  error instanceof NoSuchKey ||
  (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);

/**
 * Files in an S3-compatible bucket, so any number of app instances serve the same tool files. Credentials come
 * from the usual AWS sources (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, an instance role). Downloads
 * are streamed through the app, which keeps the download link the only credential a buyer ever holds.
 */
export function createS3Storage(location: S3Location, client?: S3Client): FileStorage {
  const s3 =
    client ??
    new S3Client({
      region: location.region,
      endpoint: location.endpoint,
      forcePathStyle: location.forcePathStyle,
    });
  const objectKey = (key: string) => {
    assertValidKey(key);
    return location.prefix ? `${location.prefix}/${key}` : key;
  };

  const get = async (key: string, range?: ByteRange) => {
    try {
      return await s3.send(
        new GetObjectCommand({
          Bucket: location.bucket,
          Key: objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };

  return {
    async put(key, data) {
      // One request: the object appears whole or not at all, like the local directory's rename.
      await s3.send(
        new PutObjectCommand({
          Bucket: location.bucket,
          Key: objectKey(key),
          Body: data,
          ContentLength: data.byteLength,
        }),
      );
      return { key, size: data.byteLength, sha256: sha256Hex(data) };
    },
    async putStream(key, data, maxBytes) {
      // A multipart upload of unknown length, part by part: S3 publishes the object only when it completes and
      // the upload is aborted (its parts deleted) when the stream fails or grows past the limit.
      const measure = measuringStream(maxBytes);
      const body = pipeline(data, measure.through, () => {});
      await new Upload({
        client: s3,
        params: { Bucket: location.bucket, Key: objectKey(key), Body: body },
      }).done();
      return { key, ...measure.result() };
    },
    async open(key, range) {
      const object = await get(key, range);
      if (!object?.Body) return null;
      // A ranged answer's Content-Length is the range's; the whole size is after the slash of Content-Range.
      const whole = range ? Number(object.ContentRange?.split('/')[1]) : Number(object.ContentLength ?? 0);
      return { size: whole, stream: object.Body as Readable };
    },
    async read(key) {
      const object = await get(key);
      if (!object?.Body) return null;
      return Buffer.from(await object.Body.transformToByteArray());
    },
    async remove(key) {
      await s3.send(new DeleteObjectCommand({ Bucket: location.bucket, Key: objectKey(key) }));
    },
  };
}
