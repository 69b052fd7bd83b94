/**
 * The parity journey (docs/parity.md: The journey): every operation a sandbox account may call, in
 * an order that takes each resource through its states — two customers through their wallet's
 * challenge (one verified, one rejected), an account through its challenge, three cards (failed;
 * issued, deactivated, activated and deleted; issued and paid with), three authorisations (captured
 * at once, held then captured, held then released), their transactions, two webhook subscriptions
 * whose callback receives nothing, chains, assets and a token — and the refusals. It ends by ending
 * what it made: the card deleted, the account closed, the customer deactivated, the webhooks deleted.
 * Credentials and signing keys are never changed: those four operations are not in it.
 */
import { byId, type Step, type Track } from './step.js';

const address = { firstLine: '1 Parity Street', city: 'London', country: 'GB', postCode: 'N1 1AA' };
const callback = (run: string, n: number) => `https://parity-${run}.invalid/webhooks/${n}`;

/** The chain the customers' wallets are on: Ethereum Sepolia when listed, else the first EVM chain, else the first. */
export function chainOf(chains: unknown): string | undefined {
  if (!Array.isArray(chains)) return undefined;
  const ids = chains.map((c) => (c as { id?: unknown }).id).filter((id): id is string => typeof id === 'string');
  return ids.find((id) => id === 'eip155:11155111') ?? ids.find((id) => id.startsWith('eip155:')) ?? ids[0];
}

const customerPending = ['verifying', 'active', 'rejected'];
const customerDecided = ['active', 'rejected'];
const cardDecided = ['active', 'issue_failed', 'inactive'];
const authorisationDone = ['captured', 'released'];
const transactionDone = ['processed', 'failed'];

/** The authorisation `label`, and the transaction it makes once captured, found among the card's. */
const payment = (label: string): Track[] => [
  byId(label, 'getAuthorisationDetails', 'authorisationId', authorisationDone),
  {
    label: `transaction-of-${label}`,
    read: 'getCardTransactions',
    params: { cardId: 'card-3' },
    match: { field: 'authorisationId', label },
    settled: transactionDone,
  },
];

const newCustomer = (n: number): Step => ({
  id: n === 1 ? 'create-customer' : `create-customer-${n}`,
  operationId: 'createCustomer',
  does: `create a customer with wallet ${n}`,
  body: (ctx) => ({ chainId: ctx.wallet(n).chainId, externalId: `parity-${ctx.run}-${n}` }),
  keep: { [`customer${n === 1 ? '' : `-${n}`}`]: 'id', [`customer${n === 1 ? '' : `-${n}`}.challenge`]: 'challenge' },
  creates: { label: n === 1 ? 'customer' : `customer-${n}`, kind: 'customer' },
});

const newCard = (n: number): Step => ({
  id: `create-card-${n}`,
  operationId: 'createAccountCard',
  does: `create virtual card ${n}`,
  params: { accountId: 'account' },
  body: () => ({ type: 'virtual', billingAddress: address }),
  keep: { [`card-${n}`]: 'id' },
  creates: { label: `card-${n}`, kind: 'card' },
});

const card = (id: string, operationId: Step['operationId'], label: string, does: string, poll?: readonly string[]): Step => ({
  id,
  operationId,
  does,
  params: { cardId: label },
  ...(poll && { poll: [byId(label, 'getCard', 'cardId', poll)] }),
});

export const JOURNEY: readonly Step[] = [
  { id: 'token', operationId: 'getToken', does: 'get a token for the API key and secret', body: (ctx) => ctx.credentials },
  { id: 'chains', operationId: 'getChains', does: 'list the chains', keep: { chain: chainOf } },
  { id: 'assets', operationId: 'getAssets', does: "list the wallets' chain's assets", query: (ctx) => ({ chain: ctx.value('chain') }) },
  newCustomer(1),
  {
    id: 'customer-challenge',
    operationId: 'getCustomerChallenge',
    does: "get the customer's challenge",
    params: { customerId: 'customer' },
    keep: { 'customer.challenge': 'challenge' },
  },
  {
    id: 'sign-customer-challenge',
    operationId: 'signCustomerChallenge',
    does: 'sign it with wallet 1, then poll the customer',
    params: { customerId: 'customer' },
    body: (ctx) => ctx.wallet(1).signChallenge(ctx.value('customer.challenge')),
    poll: [byId('customer', 'getCustomer', 'customerId', customerPending)],
  },
  {
    id: 'verify-customer',
    operationId: 'simulateVerifyCustomer',
    does: 'simulate KYC success, then poll the customer',
    params: { customerId: 'customer' },
    poll: [byId('customer', 'getCustomer', 'customerId', customerDecided)],
  },
  { id: 'get-customer', operationId: 'getCustomer', does: 'get the customer', params: { customerId: 'customer' } },
  newCustomer(2),
  {
    id: 'sign-customer-2-challenge',
    operationId: 'signCustomerChallenge',
    does: "sign customer 2's challenge with wallet 2, then poll it",
    params: { customerId: 'customer-2' },
    body: (ctx) => ctx.wallet(2).signChallenge(ctx.value('customer-2.challenge')),
    poll: [byId('customer-2', 'getCustomer', 'customerId', customerPending)],
  },
  {
    id: 'reject-customer',
    operationId: 'simulateRejectCustomer',
    does: 'simulate KYC rejection of customer 2, then poll it',
    params: { customerId: 'customer-2' },
    poll: [byId('customer-2', 'getCustomer', 'customerId', customerDecided)],
  },
  { id: 'list-customers', operationId: 'getCustomers', does: 'list the customers (those this run made)' },
  { id: 'refuse-unknown-id', operationId: 'getCustomer', does: 'get a customer that does not exist: refused', params: { customerId: 'unknown' } },
  {
    id: 'refuse-bad-body',
    operationId: 'createCustomer',
    does: 'create a customer from a body of the wrong types: refused',
    body: () => ({ chainId: 42, externalId: ['not', 'text'] }),
  },
  {
    ...newCustomer(3),
    id: 'refuse-reused-idempotency-key',
    does: "create customer 3 with create-customer's Idempotency-Key: refused",
    idempotencyKeyOf: 'create-customer',
  },
  { id: 'refuse-missing-token', operationId: 'getCustomers', does: 'list the customers without a token: refused', anonymous: true },
  {
    id: 'create-account',
    operationId: 'createCustomerAccount',
    does: 'create a EUR card account for the customer',
    params: { customerId: 'customer' },
    body: () => ({ type: 'card_account', currencies: ['EUR'] }),
    keep: { account: 'id' },
    creates: { label: 'account', kind: 'account' },
  },
  {
    id: 'account-challenge',
    operationId: 'getAccountChallenge',
    does: 'get a new challenge for the account',
    params: { accountId: 'account' },
    keep: { 'account.challenge': 'challenge' },
  },
  {
    id: 'sign-account-challenge',
    operationId: 'signAccountChallenge',
    does: 'sign it with wallet 1, then poll the account until deployed',
    params: { accountId: 'account' },
    body: (ctx) => ctx.wallet(1).signChallenge(ctx.value('account.challenge')),
    poll: [byId('account', 'getAccount', 'accountId', ['active', 'failed', 'inactive'])],
  },
  { id: 'get-account', operationId: 'getAccount', does: 'get the account', params: { accountId: 'account' } },
  { id: 'list-customer-accounts', operationId: 'getCustomerAccounts', does: "list the customer's accounts", params: { customerId: 'customer' } },
  { id: 'list-accounts', operationId: 'getAccounts', does: 'list the accounts (those this run made)' },
  newCard(1),
  card('fail-card', 'simulateCardFail', 'card-1', 'simulate failed issuance of card 1, then poll it', cardDecided),
  newCard(2),
  card('issue-card-2', 'simulateIssueCard', 'card-2', 'simulate issuance of card 2, then poll it', cardDecided),
  card('deactivate-card', 'deactivateCard', 'card-2', 'deactivate card 2'),
  card('activate-card', 'activateCard', 'card-2', 'activate card 2'),
  card('delete-card', 'deleteCard', 'card-2', 'delete card 2'),
  card('get-deleted-card', 'getCard', 'card-2', 'get card 2'),
  card('refuse-invalid-transition', 'activateCard', 'card-2', 'activate the deleted card 2: refused'),
  newCard(3),
  card('issue-card-3', 'simulateIssueCard', 'card-3', 'simulate issuance of card 3, then poll it', cardDecided),
  card('get-card', 'getCard', 'card-3', 'get card 3'),
  { id: 'list-account-cards', operationId: 'getAccountCards', does: "list the account's cards", params: { accountId: 'account' } },
  { id: 'list-cards', operationId: 'getCards', does: 'list the cards (those this run made)' },
  {
    id: 'authorise',
    operationId: 'simulateCardAuthorisation',
    does: 'authorise 12.50 EUR on card 3, captured at once; poll it and its transaction',
    params: { cardId: 'card-3' },
    body: () => ({ amount: '12.50', currency: 'EUR' }),
    keep: { authorisation: 'id' },
    poll: payment('authorisation'),
  },
  {
    id: 'authorise-hold',
    operationId: 'simulateCardAuthorisation',
    does: 'authorise 40 USD on card 3 without capture',
    params: { cardId: 'card-3' },
    body: () => ({ amount: '40', currency: 'USD', capture: false }),
    keep: { 'authorisation-2': 'id' },
  },
  {
    id: 'capture-hold',
    operationId: 'simulateCardAuthorisationCapture',
    does: 'capture it; poll it and its transaction',
    params: { authorisationId: 'authorisation-2' },
    poll: payment('authorisation-2'),
  },
  {
    id: 'authorise-hold-2',
    operationId: 'simulateCardAuthorisation',
    does: 'authorise 5 GBP on card 3 without capture',
    params: { cardId: 'card-3' },
    body: () => ({ amount: '5', currency: 'GBP', capture: false }),
    keep: { 'authorisation-3': 'id' },
  },
  {
    id: 'release-hold',
    operationId: 'simulateCardAuthorisationRelease',
    does: 'release it, then poll it',
    params: { authorisationId: 'authorisation-3' },
    poll: [byId('authorisation-3', 'getAuthorisationDetails', 'authorisationId', authorisationDone)],
  },
  {
    id: 'refuse-capture-released',
    operationId: 'simulateCardAuthorisationCapture',
    does: 'capture the released authorisation: refused',
    params: { authorisationId: 'authorisation-3' },
  },
  { id: 'get-authorisation', operationId: 'getAuthorisationDetails', does: 'get the first authorisation', params: { authorisationId: 'authorisation' } },
  { id: 'list-card-transactions', operationId: 'getCardTransactions', does: "list card 3's transactions", params: { cardId: 'card-3' } },
  { id: 'list-account-transactions', operationId: 'getAccountTransactions', does: "list the account's transactions", params: { accountId: 'account' } },
  {
    id: 'get-transaction',
    operationId: 'getTransactionDetails',
    does: "get the first authorisation's transaction",
    params: { transactionId: 'transaction-of-authorisation' },
  },
  {
    id: 'create-webhook',
    operationId: 'saveWebhook',
    does: 'subscribe a callback that receives nothing to customer and card events',
    body: (ctx) => ({ callbackUrl: callback(ctx.run, 1), types: ['customer.updated', 'card.updated'] }),
    keep: { webhook: 'id' },
    creates: { label: 'webhook', kind: 'webhook' },
  },
  {
    id: 'create-webhook-2',
    operationId: 'saveWebhook',
    does: 'subscribe another to transaction events',
    body: (ctx) => ({ callbackUrl: callback(ctx.run, 2), types: ['transaction.updated'] }),
    keep: { 'webhook-2': 'id' },
    creates: { label: 'webhook-2', kind: 'webhook' },
  },
  {
    id: 'update-webhook',
    operationId: 'saveWebhook',
    does: 'change the first to card events only',
    body: (ctx) => ({ id: ctx.value('webhook'), callbackUrl: callback(ctx.run, 1), types: ['card.updated'] }),
  },
  { id: 'get-webhook', operationId: 'getWebhook', does: 'get the first webhook', params: { webhookId: 'webhook' } },
  { id: 'list-webhooks', operationId: 'getWebhooks', does: 'list the webhooks (those this run made)' },
  { id: 'webhook-verification-key', operationId: 'getWebhookVerificationKey', does: "get the webhooks' verification key" },
  { id: 'delete-webhook', operationId: 'deleteWebhook', does: 'delete the first webhook', params: { webhookId: 'webhook' } },
  { id: 'delete-webhook-2', operationId: 'deleteWebhook', does: 'delete the second', params: { webhookId: 'webhook-2' } },
  { id: 'refuse-deleted-webhook', operationId: 'getWebhook', does: 'get the deleted webhook: refused', params: { webhookId: 'webhook' } },
  { id: 'deactivate-account', operationId: 'deactivateAccount', does: 'deactivate the account (card 3 with it)', params: { accountId: 'account' } },
  card('get-cascaded-card', 'getCard', 'card-3', 'get card 3'),
  { id: 'activate-account', operationId: 'activateAccount', does: 'activate the account (card 3 with it)', params: { accountId: 'account' } },
  {
    id: 'deactivate-customer',
    operationId: 'deactivateCustomer',
    does: 'deactivate the customer (its account and card with it)',
    params: { customerId: 'customer' },
  },
  { id: 'activate-customer', operationId: 'activateCustomer', does: 'activate the customer', params: { customerId: 'customer' } },
  card('delete-card-3', 'deleteCard', 'card-3', 'delete card 3'),
  { id: 'close-account', operationId: 'closeAccount', does: 'close the account', params: { accountId: 'account' } },
  { id: 'get-closed-account', operationId: 'getAccount', does: 'get the closed account', params: { accountId: 'account' } },
  { id: 'end-customer', operationId: 'deactivateCustomer', does: 'deactivate the customer, to leave it so', params: { customerId: 'customer' } },
];
