/**
 * Every status each resource of outbox.ts's RESOURCES can be in, and how each is reached
 * (docs/money-path.md: The money path): the request, control or wait that makes a resource go
 * there — the go-live report's coverage lists the statuses an integration never saw, with this
 * hint for each. A resource or a status without its line here does not compile.
 */
import { ACCOUNT_STATUSES } from './account.js';
import { AUTHORISATION_STATUSES } from './authorisation.js';
import { CARD_STATUSES } from './card.js';
import { CUSTOMER_STATUSES } from './customer.js';
import type { ResourceType } from './outbox.js';
import { TRANSACTION_STATUSES } from './transaction.js';

export const STATUSES = {
  customer: CUSTOMER_STATUSES,
  account: ACCOUNT_STATUSES,
  card: CARD_STATUSES,
  authorisation: AUTHORISATION_STATUSES,
  transaction: TRANSACTION_STATUSES,
} as const satisfies Record<ResourceType, readonly string[]>;

export const REACHED_BY: { readonly [R in ResourceType]: Readonly<Record<(typeof STATUSES)[R][number], string>> } = {
  customer: {
    initiating: 'POST /v1/customers',
    screening: "POST /v1/customers/{id}/challenge/sign with the wallet's signature (screening, then verifying at once)",
    verifying: "POST /v1/customers/{id}/challenge/sign with the wallet's signature",
    rejected: 'PATCH /v1/simulator/customers/{id}/reject (card-sandbox reject <customerId>)',
    active: 'PATCH /v1/simulator/customers/{id}/verify (card-sandbox verify <customerId>)',
    inactive: 'PATCH /v1/customers/{id}/deactivate',
  },
  account: {
    initiating: 'POST /v1/customers/{id}/accounts',
    pending: "POST /v1/accounts/{id}/challenge/sign with the customer's signature",
    active: 'deployment, 2 s of sandbox time after pending (POST /_sandbox/clock/advance {"by":"2s"})',
    inactive: 'PATCH /v1/accounts/{id}/deactivate',
    closed: 'DELETE /v1/accounts/{id}',
    failed: 'PATCH /_sandbox/simulator/accounts/{id}/fail on an initiating or pending account (card-sandbox fail-account <accountId>)',
  },
  card: {
    issuing: 'POST /v1/accounts/{id}/cards',
    issue_failed: 'PATCH /v1/simulator/cards/{id}/fail (card-sandbox fail <cardId>)',
    active: 'PATCH /v1/simulator/cards/{id}/issue (card-sandbox issue <cardId>)',
    inactive: 'PATCH /v1/cards/{id}/deactivate',
    blocked: 'PATCH /_sandbox/simulator/cards/{id}/block (card-sandbox block <cardId>)',
    suspended: 'PATCH /_sandbox/simulator/cards/{id}/suspend (card-sandbox suspend <cardId>)',
    terminated: 'DELETE /v1/cards/{id}',
  },
  authorisation: {
    pending: 'POST /v1/simulator/cards/{id}/authorisation (card-sandbox authorise <cardId>)',
    capturing:
      'PATCH /v1/simulator/authorisations/{id}/capture on one made with capture: false; a partial amount through /_sandbox (card-sandbox capture <authorisationId> --amount <d>)',
    captured: '1 s after capturing; one made with capture: true is captured 1 s after it is made',
    releasing:
      'PATCH /v1/simulator/authorisations/{id}/release (card-sandbox release <authorisationId>), or a hold left pending for the hold expiry (7 days: POST /_sandbox/clock/advance {"by":"7d"})',
    released: '1 s after releasing',
  },
  transaction: {
    processing: 'a captured authorisation, or POST /_sandbox/simulator/cards/{id}/refund for a credit (card-sandbox refund <cardId>)',
    processed: '1 s after processing',
    reversing: 'POST /_sandbox/simulator/transactions/{id}/reverse on a processed debit (card-sandbox reverse <transactionId>)',
    reversed: '1 s after reversing',
  },
};
