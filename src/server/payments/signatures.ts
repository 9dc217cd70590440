import { createHmac, timingSafeEqual } from 'node:crypto';

export const hmacSha256Hex = (secret: string, message: string | Buffer) =>
  createHmac('sha256', secret).update(message).digest('hex');

/** Constant-time comparison of a received hex signature with the expected one. */
export function signatureMatches(expectedHex: string, receivedHex: unknown): boolean {
  if (typeof receivedHex !== 'string' || !/^[0-9a-f]+$/i.test(receivedHex)) return false;
  const expected = Buffer.from(expectedHex, 'hex');
  const received = Buffer.from(receivedHex, 'hex');
  return expected.length === received.length && timingSafeEqual(expected, received);
}

/** What Razorpay Checkout hands the browser: HMAC-SHA256(order id + "|" + payment id) with the key secret. */
export const checkoutSignature = (keySecret: string, orderId: string, paymentId: string) =>
  hmacSha256Hex(keySecret, `${orderId}|${paymentId}`);

export function verifyCheckoutSignature(
  keySecret: string,
  input: { orderId: string; paymentId: string; signature: unknown },
): boolean {
  return signatureMatches(checkoutSignature(keySecret, input.orderId, input.paymentId), input.signature);
}

/** Razorpay webhooks: HMAC-SHA256 over the exact raw body with the webhook secret. */
export const webhookSignature = (webhookSecret: string, rawBody: string | Buffer) =>
  hmacSha256Hex(webhookSecret, rawBody);

export function verifyWebhookSignature(webhookSecret: string, rawBody: string, signature: unknown): boolean {
  return signatureMatches(webhookSignature(webhookSecret, rawBody), signature);
}
