/**
 * Seed worlds (docs/control-plane.md: Seed worlds): webhooks, then customers with their accounts and cards, each
 * in a target state the sandbox can reach without a wallet signature. Here: the states a seed may
 * ask for, the rules that tie a child to its parent's state, and how a failing place is named
 * (`customers[0].accounts[1].currencies`). The document's format is wire/seed.ts.
 */
import type { Address } from './address.js';

/** Target states, each reached through the same transitions as the API and the simulator. */
export const SEED_CUSTOMER_STATUSES = ['initiating', 'active', 'rejected', 'inactive'] as const;
export const SEED_ACCOUNT_STATUSES = ['initiating', 'pending', 'active', 'inactive', 'closed'] as const;
export const SEED_CARD_STATUSES = ['issuing', 'active', 'inactive', 'issue_failed', 'terminated'] as const;

/** Accounts are opened for a verified customer; cards need a deployed account. */
const HOLDS_ACCOUNTS: readonly string[] = ['active', 'inactive'];
const HOLDS_CARDS: readonly string[] = ['active', 'inactive', 'closed'];

/** Used when a seeded card gives no billing address. */
export const DEFAULT_BILLING_ADDRESS: Address = { firstLine: '1 Sandbox Street', city: 'London', country: 'GB', postCode: 'EC1A 1BB' };

/** `['customers', 0, 'accounts', 1, 'currencies']` → `customers[0].accounts[1].currencies`. */
export function seedPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '');
}

const either = (words: readonly string[]) => `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;

export type SeedPath = (string | number)[];

/** The part of a seed document the tree rules read. */
interface SeedTree {
  customers: readonly { status: string; accounts: readonly { status: string; cards: readonly unknown[] }[] }[];
}

/** Children whose parent's target state cannot hold them; each with its path. */
export function seedTreeErrors(document: SeedTree): { path: SeedPath; message: string }[] {
  const errors: { path: SeedPath; message: string }[] = [];
  document.customers.forEach((customer, c) => {
    if (customer.accounts.length > 0 && !HOLDS_ACCOUNTS.includes(customer.status)) {
      errors.push({
        path: ['customers', c, 'accounts'],
        message: `a customer seeded as ${customer.status} cannot have accounts; accounts need the customer ${either(HOLDS_ACCOUNTS)}`,
      });
    }
    customer.accounts.forEach((account, a) => {
      if (account.cards.length > 0 && !HOLDS_CARDS.includes(account.status)) {
        errors.push({
          path: ['customers', c, 'accounts', a, 'cards'],
          message: `an account seeded as ${account.status} cannot have cards; cards need the account ${either(HOLDS_CARDS)}`,
        });
      }
    });
  });
  return errors;
}
