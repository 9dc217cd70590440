import { createHmac, randomBytes, randomUUID } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): a secret is `whsec_` and base64 of random
 * bytes; each request carries `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the secret's decoded bytes>`.
 */
const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** A `webhook-id`: unique per message, the same on every attempt and redelivery of it. */
export function newMessageId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

export function signatureHeaders(
  secret: string,
  message: { id: string; timestamp: Date; body: string },
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const seconds = Math.floor(message.timestamp.getTime() / 1000).toString();
  const signature = createHmac('sha256', key)
    .update(`${message.id}.${seconds}.${message.body}`)
    .digest('base64');
  return { 'webhook-id': message.id, 'webhook-timestamp': seconds, 'webhook-signature': `v1,${signature}` };
}
