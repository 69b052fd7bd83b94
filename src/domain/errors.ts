/**
 * The closed list of error codes (docs/api.md: Errors). Services refuse by throwing `SandboxError`
 * with one; the one funnel in `http/errors.ts` gives each its HTTP status and title and turns it
 * into RFC 9457 problem+json. Adding a code means adding it here and a row there.
 */
export const ERROR_CODES = [
  'invalid_request',
  'invalid_signature',
  'invalid_content_digest',
  'missing_idempotency_key',
  'invalid_idempotency_key',
  'idempotency_key_reused',
  'invalid_signing_key',
  'last_credential',
  'unknown_credential',
  'unknown_signing_key',
  'unknown_webhook',
  'customer_not_active',
  'account_not_active',
  'card_not_active',
  'insufficient_funds',
  'card_limit_reached',
  'customer_not_pending',
  'card_not_issuing',
  'authorisation_not_pending',
  'physical_cards_unsupported',
  'invalid_challenge_signature',
  'challenge_expired',
  'invalid_snapshot',
  'invalid_credentials',
  'not_authorised',
  'customer_not_found',
  'account_not_found',
  'card_not_found',
  'authorisation_not_found',
  'transaction_not_found',
  'webhook_not_found',
  'event_not_found',
  'delivery_not_found',
  'programme_not_found',
  'snapshot_not_found',
  'route_not_found',
  'method_not_allowed',
  'host_not_allowed',
  'cross_site_request',
  'customer_already_exists',
  'invalid_state_transition',
  'challenge_already_signed',
  'idempotency_in_flight',
  'default_programme',
  'payload_too_large',
  'snapshot_version_unsupported',
  'programme_limit_reached',
  'snapshot_limit_reached',
  'snapshot_name_taken',
  'rate_limited',
  'internal_error',
  'bad_gateway',
  'service_unavailable',
  'gateway_timeout',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

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
}

/** Shorthand for the common refusal. */
export function fail(code: ErrorCode, detail: string, errors?: FieldError[]): never {
  throw new SandboxError(code, detail, errors);
}
