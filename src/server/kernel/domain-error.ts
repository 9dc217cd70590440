/**
 * Why a domain operation was not done. Services throw it with a message fit for the person who asked; each front
 * end maps the code: HTTP through its one error handler, the admin command line to its exit codes.
 */
export type DomainErrorCode =
  /** The thing asked about does not exist (or is not the caller's). */
  | 'not_found'
  /** What was given cannot be what is asked for (not an id, several matches); nothing was looked at further. */
  | 'invalid'
  /** The request is understood, but the current state does not allow it; nothing was changed. */
  | 'refused'
  /** The payment provider failed or refused; nothing was changed here. */
  | 'gateway_failed'
  /** The payment provider acted, but recording it here failed; repeating the request records it. */
  | 'not_recorded';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** The HTTP status each code answers with. */
export const DOMAIN_ERROR_STATUS: Record<DomainErrorCode, number> = {
  not_found: 404,
  invalid: 400,
  refused: 409,
  gateway_failed: 502,
  not_recorded: 500,
};
