/**
 * Why a domain operation was not done. Services throw it (and nothing that speaks HTTP) with a message fit for the
 * person who asked; each front end maps the code: HTTP in its one mapper (`http/errors.ts`, code → status and the
 * code the answer carries), the admin command line to its exit codes (`cli/command-line.ts`).
 */
export type DomainErrorCode =
  /** The thing asked about does not exist (or is not the caller's). */
  | 'not_found'
  /** What was given cannot be what is asked for (not an id, several matches); nothing was looked at further. */
  | 'invalid'
  /** Input a form sent is wrong; `fieldErrors` names the fields. */
  | 'validation_error'
  /** The request is understood, but the current state does not allow it; nothing was changed. */
  | 'refused'
  /** What is asked for is already so, or clashes with what is (already owned, already enrolled). */
  | 'conflict'
  /** The payment provider failed or refused; nothing was changed here. */
  | 'gateway_failed'
  /** The payment provider could not start a payment; the buyer is told so and may try again. */
  | 'payment_gateway_error'
  /** The payment provider acted, but recording it here failed; repeating the request records it. */
  | 'not_recorded'
  /** Nobody is signed in. */
  | 'unauthorized'
  /** The caller asked too often; `retryAfterSeconds` says when to ask again. */
  | 'rate_limited'
  /** Too much work is waiting; `retryAfterSeconds` says when to ask again. */
  | 'busy'
  /** A one-time code (email, password reset) is wrong or spent. */
  | 'invalid_code'
  /** The current password given is wrong. */
  | 'wrong_password'
  /** A sensitive change needs the password or a passkey again first. */
  | 'reauth_required'
  /** A passkey's answer was refused. */
  | 'passkey_refused'
  /** A coupon cannot be used for this purchase. */
  | 'coupon_refused'
  /** A payment's or webhook's signature does not verify. */
  | 'invalid_signature'
  /** The order was paid twice. */
  | 'duplicate_payment'
  /** The payment has not settled yet. */
  | 'payment_not_settled'
  /** Payment webhooks have no secret configured. */
  | 'webhook_not_configured'
  /** A webhook's body is not an event of the provider's. */
  | 'invalid_event'
  /** The signed-in account is not an operator. */
  | 'not_operator'
  /** The operator has not passed the second factor in this session. */
  | 'second_factor_required'
  /** The second factor's code is wrong. */
  | 'wrong_code'
  /** The second factor is not set up (asked to verify or switch it off). */
  | 'not_enrolled'
  /** The second factor's enrolment was not started (asked to confirm it). */
  | 'enrolment_not_started';

/** Field name → first message for that field, as the browser's forms show it. */
export type FieldErrors = Record<string, string>;

export type DomainErrorDetails = {
  fieldErrors?: FieldErrors;
  retryAfterSeconds?: number;
  /**
   * A finer code for the caller than the domain code's own, carried by the answer in its place: the license API's
   * code of a refused offline activation (TRIAL_USED, LIMIT_REACHED), which a program acts on.
   */
  answerCode?: string;
};

export class DomainError extends Error {
  readonly fieldErrors?: FieldErrors;
  readonly retryAfterSeconds?: number;
  readonly answerCode?: string;
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    details: DomainErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
    if (details.fieldErrors) this.fieldErrors = details.fieldErrors;
    if (details.retryAfterSeconds !== undefined) this.retryAfterSeconds = details.retryAfterSeconds;
    if (details.answerCode) this.answerCode = details.answerCode;
  }
}
