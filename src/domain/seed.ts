/**
 * Seed worlds: the document `--seed`, `card-sandbox seed` and POST /_sandbox/seed load — webhooks,
 * then customers with their accounts and cards, each in a target state the sandbox can reach
 * without a wallet signature. Here: its shape, the states a seed may ask for, the rules that tie a
 * child to its parent's state, and how a failing place is named (`customers[0].accounts[1].currencies`).
 */
import type { Address } from './address.js';
import type { CardType } from './card.js';

/** Target states, each reached through the same transitions as the API and the simulator. */
export const SEED_CUSTOMER_STATUSES = ['initiating', 'active', 'rejected', 'inactive'] as const;
export const SEED_ACCOUNT_STATUSES = ['initiating', 'pending', 'active', 'inactive', 'closed'] as const;
export const SEED_CARD_STATUSES = ['issuing', 'active', 'inactive', 'issue_failed', 'terminated'] as const;

/** Accounts are opened for a verified customer; cards need a deployed account. */
const HOLDS_ACCOUNTS: readonly string[] = ['active', 'inactive'];
const HOLDS_CARDS: readonly string[] = ['active', 'inactive', 'closed'];

/** Used when a seeded card gives no billing address. */
export const DEFAULT_BILLING_ADDRESS: Address = { firstLine: '1 Sandbox Street', city: 'London', country: 'GB', postCode: 'EC1A 1BB' };

export interface SeedCard {
  type: CardType;
  status: (typeof SEED_CARD_STATUSES)[number];
  billingAddress?: Address | undefined;
  shippingAddress?: Address | undefined;
}

export interface SeedAccount {
  currencies: string[];
  status: (typeof SEED_ACCOUNT_STATUSES)[number];
  cards: SeedCard[];
}

export interface SeedCustomer {
  externalId: string;
  /** CAIP-10; a random address on the first supported chain when absent. */
  chainId?: string | undefined;
  status: (typeof SEED_CUSTOMER_STATUSES)[number];
  accounts: SeedAccount[];
}

export interface SeedWebhook {
  callbackUrl: string;
  types: string[];
}

export interface SeedDocument {
  webhooks: SeedWebhook[];
  customers: SeedCustomer[];
}

/** What was created, in document order, with the states things ended in. */
export interface SeedResult {
  webhooks: { id: string; callbackUrl: string }[];
  customers: { id: string; externalId: string; status: string; accounts: { id: string; status: string; cards: { id: string; status: string }[] }[] }[];
}

/** `['customers', 0, 'accounts', 1, 'currencies']` → `customers[0].accounts[1].currencies`. */
export function seedPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '');
}

const either = (words: readonly string[]) => `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;

export type SeedPath = (string | number)[];

/** Children whose parent's target state cannot hold them; each with its path. */
export function seedTreeErrors(document: SeedDocument): { path: SeedPath; message: string }[] {
  const errors: { path: SeedPath; message: string }[] = [];
  document.customers.forEach((customer, c) => {
    if (customer.accounts.length > 0 && !HOLDS_ACCOUNTS.includes(customer.status)) {
      errors.push({ path: ['customers', c, 'accounts'], message: `a customer seeded as ${customer.status} cannot have accounts; accounts need the customer ${either(HOLDS_ACCOUNTS)}` });
    }
    customer.accounts.forEach((account, a) => {
      if (account.cards.length > 0 && !HOLDS_CARDS.includes(account.status)) {
        errors.push({ path: ['customers', c, 'accounts', a, 'cards'], message: `an account seeded as ${account.status} cannot have cards; cards need the account ${either(HOLDS_CARDS)}` });
      }
    });
  });
  return errors;
}
