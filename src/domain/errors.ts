/**
 * The closed list of error codes, each with its HTTP status and title (CONTRACT §3). Services
 * refuse by throwing `SandboxError`; the one funnel in `http/errors.ts` turns it into RFC 9457
 * problem+json. Adding a code means adding a row here.
 */
export const ERRORS = {
  invalid_request: { status: 400, title: 'Invalid request' },
  invalid_signature: { status: 400, title: 'Invalid request' },
  invalid_content_digest: { status: 400, title: 'Invalid request' },
  missing_idempotency_key: { status: 400, title: 'Invalid request' },
  invalid_idempotency_key: { status: 400, title: 'Invalid request' },
  invalid_signing_key: { status: 400, title: 'Invalid request' },
  last_credential: { status: 400, title: 'Invalid request' },
  customer_not_active: { status: 400, title: 'Invalid request' },
  account_not_active: { status: 400, title: 'Invalid request' },
  card_not_active: { status: 400, title: 'Invalid request' },
  card_limit_reached: { status: 400, title: 'Invalid request' },
  customer_not_pending: { status: 400, title: 'Invalid request' },
  card_not_issuing: { status: 400, title: 'Invalid request' },
  authorisation_not_pending: { status: 400, title: 'Invalid request' },
  physical_cards_unsupported: { status: 400, title: 'Invalid request' },
  invalid_challenge_signature: { status: 400, title: 'Invalid request' },
  challenge_expired: { status: 400, title: 'Invalid request' },
  invalid_credentials: { status: 401, title: 'Invalid credentials' },
  not_authorised: { status: 401, title: 'Not authorised' },
  customer_not_found: { status: 404, title: 'Customer not found' },
  account_not_found: { status: 404, title: 'Account not found' },
  card_not_found: { status: 404, title: 'Card not found' },
  authorisation_not_found: { status: 404, title: 'Authorisation not found' },
  transaction_not_found: { status: 404, title: 'Transaction not found' },
  webhook_not_found: { status: 404, title: 'Webhook not found' },
  signing_key_not_found: { status: 404, title: 'Signing key not found' },
  credential_not_found: { status: 404, title: 'Credential not found' },
  event_not_found: { status: 404, title: 'Event not found' },
  route_not_found: { status: 404, title: 'Not found' },
  customer_already_exists: { status: 409, title: 'Customer already exists' },
  invalid_state_transition: { status: 409, title: 'Invalid state transition' },
  challenge_already_signed: { status: 409, title: 'Challenge already signed' },
  idempotency_in_flight: { status: 409, title: 'Idempotency conflict' },
  payload_too_large: { status: 413, title: 'Invalid request' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused' },
  internal_error: { status: 500, title: 'Internal error' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERRORS;

export interface FieldError {
  path: string;
  message: string;
}

export class SandboxError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
  ) {
    super(detail);
    this.name = 'SandboxError';
  }

  get status(): number {
    return ERRORS[this.code].status;
  }
}

/** Shorthand for the common refusal. */
export function fail(code: ErrorCode, detail: string, errors?: FieldError[]): never {
  throw new SandboxError(code, detail, errors);
}
