/**
 * The collection's Journey folder (docs/postman.md: The journey): a story run top to bottom —
 * customer → account → card → authorise → capture → refund — each step an operation of the API or
 * of the control plane, named by its operationId so that its method, path and answer's shape come
 * from the documents the sandbox serves. Where the hosted service would wait for a wallet's
 * signature (the customer's and the account's challenges), the seed control makes a customer who
 * has signed and an account that is deployed; the clock control lets the payment settle.
 * `checks` are JavaScript expressions over `body`, the answer; `keep` sets collection variables
 * the later steps (and the reference folders) use. A variable a body names is set by an earlier
 * step, never by the request's own pre-request script: that runs after the collection's, which
 * digests and signs the body with its variables replaced.
 */

export interface JourneyStep {
  name: string;
  does: string;
  operation: string;
  plane?: 'control';
  /** Path parameter → the variable it is read from, when not the variable of its own name. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  checks?: [what: string, expression: string][];
  keep?: Record<string, string>;
}

const address = { firstLine: '1 Collection Row', city: 'London', country: 'GB', postCode: 'EC1A 1BB' };
const has = (list: string, id: string) => `${list}.some(function (x) { return x.id === pm.collectionVariables.get('${id}'); })`;

export const JOURNEY: readonly JourneyStep[] = [
  {
    name: 'Get a token',
    does: 'Exchange the API key and secret for a bearer token. The collection does this by itself before any request; here it is in plain sight.',
    operation: 'getToken',
    body: { apiKey: '{{apiKey}}', apiSecret: '{{apiSecret}}' },
    checks: [['a Bearer token', "body.tokenType === 'Bearer'"]],
    keep: { token: 'body.token', tokenExpiresAt: 'String(body.expiresAt)' },
  },
  {
    name: 'List the chains',
    does: 'The chains a wallet may be on; the journey takes the first EVM one, and makes up a wallet address on it.',
    operation: 'getChains',
    checks: [['at least one chain', 'body.length > 0']],
    keep: {
      chain: '(body.filter(function (c) { return /^eip155:/.test(c.id); })[0] || body[0]).id',
      // A new wallet address for the customer to create, so that the journey runs again and again.
      wallet: "'0x' + new Array(41).join('0').replace(/0/g, function () { return '0123456789abcdef'.charAt(Math.floor(Math.random() * 16)); })",
    },
  },
  {
    name: "List the chain's assets",
    does: 'The tokens an account on that chain holds.',
    operation: 'getAssets',
    query: { chain: '{{chain}}' },
  },
  {
    name: 'Create a customer',
    does: 'A customer for a new wallet. It waits for the wallet to sign its challenge, which takes a wallet: the journey goes on with a customer the seed control makes.',
    operation: 'createCustomer',
    body: { chainId: '{{chain}}:{{wallet}}', externalId: 'postman-{{wallet}}' },
    checks: [['initiating, with a challenge for the wallet', "body.status === 'initiating' && typeof body.challenge === 'string'"]],
    keep: { newCustomerId: 'body.id' },
  },
  {
    name: "Get the customer's challenge",
    does: 'The challenge its wallet would sign (POST /v1/customers/{customerId}/challenge/sign).',
    operation: 'getCustomerChallenge',
    params: { customerId: 'newCustomerId' },
    checks: [['a challenge', "typeof body.challenge === 'string' && body.challenge.length > 0"]],
  },
  {
    name: 'Seed a verified customer with a deployed account',
    does: "The sandbox's seed control: a customer whose wallet has signed and who passed KYC, with a EUR account deployed — what the wallet's signatures and the simulator's verify would give.",
    operation: 'seedWorld',
    plane: 'control',
    body: { description: 'card-sandbox postman journey', customers: [{ externalId: 'postman-{{$guid}}', accounts: [{ currencies: ['EUR'] }] }] },
    checks: [['one active customer with an active account', "body.customers[0].status === 'active' && body.customers[0].accounts[0].status === 'active'"]],
    keep: { customerId: 'body.customers[0].id', accountId: 'body.customers[0].accounts[0].id' },
  },
  {
    name: 'Get the customer',
    does: 'Active: it may hold accounts.',
    operation: 'getCustomer',
    checks: [['active', "body.status === 'active'"]],
  },
  {
    name: "List the customer's accounts",
    does: 'The seeded account among them.',
    operation: 'getCustomerAccounts',
    checks: [['holds the account', has('body', 'accountId')]],
  },
  {
    name: 'Get the account',
    does: 'A card account, active.',
    operation: 'getAccount',
    checks: [['active', "body.status === 'active'"]],
  },
  {
    name: 'Create a virtual card',
    does: 'Issuance starts; the simulator decides it.',
    operation: 'createAccountCard',
    body: { type: 'virtual', billingAddress: address },
    checks: [['issuing', "body.status === 'issuing'"]],
    keep: { cardId: 'body.id' },
  },
  {
    name: "Simulate the card's issuance",
    does: 'The simulator issues it.',
    operation: 'simulateIssueCard',
  },
  {
    name: 'Get the card',
    does: 'Active, with its masked number.',
    operation: 'getCard',
    checks: [['active', "body.status === 'active'"]],
  },
  {
    name: 'Authorise a payment',
    does: 'A merchant asks for 25 EUR, held until captured.',
    operation: 'simulateCardAuthorisation',
    body: { amount: '25', currency: 'EUR', capture: false },
    checks: [['pending', "body.status === 'pending'"]],
    keep: { authorisationId: 'body.id' },
  },
  {
    name: 'Get the authorisation',
    does: 'Still pending: the money is held.',
    operation: 'getAuthorisationDetails',
    checks: [['pending for 25 EUR', "body.status === 'pending' && body.amount === '25' && body.currency === 'EUR'"]],
  },
  {
    name: 'Capture it',
    does: 'The merchant takes the money; the capture completes a second later.',
    operation: 'simulateCardAuthorisationCapture',
  },
  {
    name: 'Advance the clock a minute',
    does: "The sandbox's clock control: the capture and the settlement that follows run now.",
    operation: 'advanceClock',
    plane: 'control',
    body: { by: '1m' },
  },
  {
    name: 'Get the captured authorisation',
    does: 'Captured.',
    operation: 'getAuthorisationDetails',
    checks: [['captured', "body.status === 'captured'"]],
  },
  {
    name: "List the card's transactions",
    does: 'The debit the capture made.',
    operation: 'getCardTransactions',
    checks: [['one debit', "body.length === 1 && body[0].direction === 'debit'"]],
    keep: { transactionId: 'body[0].id' },
  },
  {
    name: 'Get the transaction',
    does: 'Processed, with its fees and on-chain transactions.',
    operation: 'getTransactionDetails',
    checks: [
      [
        'a processed debit of 25 EUR',
        "body.status === 'processed' && body.amount === '25' && body.authorisationId === pm.collectionVariables.get('authorisationId')",
      ],
    ],
  },
  {
    name: 'Refund part of it',
    does: "The sandbox's refund control: the merchant gives 10 EUR back, a credit linked to the debit.",
    operation: 'refundCard',
    plane: 'control',
    body: { amount: '10', currency: 'EUR', transactionId: '{{transactionId}}' },
    keep: { refundId: 'body.id' },
  },
  {
    name: 'Advance the clock again',
    does: 'The refund settles.',
    operation: 'advanceClock',
    plane: 'control',
    body: { by: '1m' },
  },
  {
    name: "List the account's transactions",
    does: 'The debit and the refund.',
    operation: 'getAccountTransactions',
    checks: [['the debit and the credit', "body.length === 2 && body.some(function (t) { return t.direction === 'credit' && t.amount === '10'; })"]],
  },
  {
    name: 'Deactivate the card',
    does: 'The card stops taking payments.',
    operation: 'deactivateCard',
    checks: [['inactive', "body.status === 'inactive'"]],
  },
  {
    name: "List the card's events",
    does: "The control plane's event log: every change of the card, as its webhooks carry it.",
    operation: 'listEvents',
    plane: 'control',
    query: { entityId: '{{cardId}}' },
    checks: [['card.updated events', "body.length > 0 && body.every(function (e) { return e.type === 'card.updated'; })"]],
  },
];
