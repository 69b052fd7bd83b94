/**
 * The named values of the API that are not resources — ids, states and kinds, chain, account, asset
 * and transaction ids, decimals, instants, URLs — each defined once, with the component name the
 * service's document gives it, so that a client generated from `/openapi.json` names its types as
 * one generated from the service's document does (docs/api.md: Where the sandbox differs from the
 * service's document). The resources in wire/ are built from them.
 */
import { z } from 'zod';
import { ACCOUNT_STATUSES, ACCOUNT_TYPES } from '../domain/account.js';
import { AUTHORISATION_STATUSES } from '../domain/authorisation.js';
import { ACCOUNT_ID_PATTERN, ASSET_ID_PATTERN, CHAIN_ID_PATTERN, TRANSACTION_ID_PATTERN } from '../domain/caip.js';
import { CARD_STATUSES, CARD_TYPES } from '../domain/card.js';
import { CUSTOMER_STATUSES } from '../domain/customer.js';
import { WEBHOOK_TYPES } from '../domain/outbox.js';
import { DateTime as Instant, Decimal as DecimalText, UUID_PATTERN } from '../domain/formats.js';
import { NETWORKS } from '../domain/pan.js';
import { FEE_TYPES, TRANSACTION_DIRECTIONS, TRANSACTION_STATUSES } from '../domain/transaction.js';

const uuid = new RegExp(`^${UUID_PATTERN}$`);
/** A UUID under a component name of its own. */
const id = (name: string, description: string) =>
  z.string().regex(uuid, 'must be a UUID').meta({ id: name, format: 'uuid', pattern: uuid.source, description });

export const UUID = id('UUID', 'A UUID');
export const CustomerId = id('CustomerId', 'Unique customer ID');
export const AccountId = id('AccountId', 'Unique account ID');
export const CardId = id('CardId', 'Unique card ID');
export const AuthorisationId = id('AuthorisationId', 'Unique authorisation ID');
export const TransactionId = id('TransactionId', 'Unique transaction ID');
export const WebhookId = id('WebhookId', 'Unique webhook ID');

export const CustomerStatus = z.enum(CUSTOMER_STATUSES).meta({ id: 'CustomerStatus' });
export const AccountStatus = z.enum(ACCOUNT_STATUSES).meta({ id: 'AccountStatus' });
export const AccountType = z.enum(ACCOUNT_TYPES).meta({ id: 'AccountType' });
export const CardStatus = z.enum(CARD_STATUSES).meta({ id: 'CardStatus' });
export const CardType = z.enum(CARD_TYPES).meta({ id: 'CardType' });
export const CardNetwork = z.enum(NETWORKS).meta({ id: 'CardNetwork' });
export const AuthorisationStatus = z.enum(AUTHORISATION_STATUSES).meta({ id: 'AuthorisationStatus' });
export const TransactionStatus = z.enum(TRANSACTION_STATUSES).meta({ id: 'TransactionStatus' });
export const TransactionDirection = z.enum(TRANSACTION_DIRECTIONS).meta({ id: 'TransactionDirection' });
export const FeeType = z.enum(FEE_TYPES).meta({ id: 'FeeType' });
export const WebhookType = z.enum(WEBHOOK_TYPES).meta({ id: 'WebhookType' });

const caip = (name: string, pattern: string, what: string, example: string) =>
  z
    .string({ error: `must be ${what}` })
    .regex(new RegExp(pattern), `must be ${what} such as ${example}`)
    .meta({ id: name, pattern, description: what, example });

export const BlockchainId = caip('BlockchainId', CHAIN_ID_PATTERN, 'a CAIP-2 chain id', 'eip155:11155111');
export const BlockchainAccountId = caip(
  'BlockchainAccountId',
  ACCOUNT_ID_PATTERN,
  'a CAIP-10 account id',
  'eip155:11155111:0xAb16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb',
);
export const BlockchainAssetId = caip(
  'BlockchainAssetId',
  ASSET_ID_PATTERN,
  'a CAIP-19 asset id',
  'eip155:11155111/erc20:0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238',
);
export const BlockchainTransactionId = caip(
  'BlockchainTransactionId',
  TRANSACTION_ID_PATTERN,
  'an on-chain transaction id, its CAIP-2 chain then its hash',
  'eip155:11155111:0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
);

/** What the document says a decimal is: plain notation, no sign; trailing zeros allowed, as the service writes ("10.0"). */
export const DECIMAL_PATTERN = '^[0-9]+(\\.[0-9]+)?$';
/** What the sandbox itself writes, and every answer its tests read is checked against: no trailing zeros either. */
const CANONICAL_DECIMAL = /^[0-9]+(\.[0-9]*[1-9])?$/;
export const Decimal = DecimalText.regex(CANONICAL_DECIMAL).meta({
  id: 'Decimal',
  format: 'decimal',
  pattern: DECIMAL_PATTERN,
  description: 'A decimal number as a string, in plain notation (the sandbox writes it without trailing zeros)',
});
export const DateTime = Instant.meta({ id: 'DateTime', description: 'An RFC 3339 instant in UTC, with milliseconds' });
export const URL = z.url().meta({ id: 'URL', format: 'uri' });

/** ISO 4217: three capitals. Which codes a request may name is the operation's own rule. */
export const CURRENCY_PATTERN = '^[A-Z]{3}$';
/** An amount a request sends, before its value is checked: a decimal string. */
export const AmountInput = z.string({ error: 'must be a decimal string such as "12.50"' });
/** A currency a request names, before its value is checked: an ISO 4217 code. */
export const CurrencyInput = z.string({ error: 'must be an ISO 4217 currency code such as "EUR"' });

export const Currency = z.string().regex(new RegExp(CURRENCY_PATTERN)).meta({ pattern: CURRENCY_PATTERN, description: 'ISO 4217 currency code' });

/** A pattern that takes exactly these values, for a field whose type stays a string in generated clients. */
export const oneOfPattern = (values: readonly string[]): string => `^(?:${values.join('|')})$`;
