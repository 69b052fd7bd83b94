/**
 * `card-sandbox/client`, the helpers shipped for integrators (docs/companion.md: The API client): a typed
 * client for every operation (`createClient`), and the two halves of the signature protocol for
 * code that sends its own requests (`signRequest`) or receives webhooks (`verifyWebhook`). None of
 * it is particular to the sandbox.
 */
export {
  ApiError,
  createClient,
  type ApiClient,
  type ArgsOf,
  type CallOptions,
  type ClientOptions,
  type OperationName,
  type ProblemCode,
  type ResultOf,
  type SigningKey,
} from './create-client.js';
export { signRequest, verifyWebhook, WebhookVerificationError, type SignedRequest, type SignRequestOptions, type VerifyWebhookOptions } from './sign.js';
export type * from './api.generated.js';
export type { WebhookBodies, WebhookEvent, WebhookEventType } from './webhook-event.js';
