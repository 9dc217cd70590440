/**
 * How long the shop keeps rows that nothing else empties: the one place these periods are named (the server's prune job
 * in server/retention.ts applies them; the README's "Data retention" and the Privacy Policy quote them). Tax documents, orders and the audit log are never pruned.
 */
export const RETENTION_DAYS = {
  /** Sign-in sessions, from the moment they expire (14 days after sign-in at the latest). */
  expiredSessions: 0,
  /** Emailed download links, from the moment they expire (3 hours after they were made). */
  expiredDownloadLinks: 0,
  /** Signup and reset codes, from the moment they expire (10 minutes after they were sent). */
  expiredVerificationCodes: 0,
  /** Sent email (its text, attachments and address), after it was sent; an order's history keeps a line for it. */
  sentMail: 90,
  /** Ids of Razorpay webhook events already handled, after they arrived (Razorpay retries for at most 24 hours). */
  webhookEvents: 30,
  /** Rate-limit counters, after their window started. */
  rateLimitCounters: 2,
  /** Outgoing webhook deliveries (payload and attempts) after they were queued, once delivered or given up. */
  webhookDeliveries: 30,
} as const;

export type RetentionRule = keyof typeof RETENTION_DAYS;
