/**
 * Seed worlds (docs/control-plane.md: Seed worlds): webhooks, then customers with their accounts and cards, each
 * in a target state the sandbox can reach without a wallet signature, and cards with their
 * payments. Here: the states a seed may ask for, the rules that tie a child to its parent's state,
 * and how a failing place is named (`customers[0].accounts[1].currencies`). The document's format
 * is wire/seed.ts.
 */
import type { Address } from './address.js';
import { either } from './words.js';

/** Target states, each reached through the same transitions as the API, the simulator and the money path's controls. */
export const SEED_CUSTOMER_STATUSES = ['initiating', 'active', 'rejected', 'inactive'] as const;
export const SEED_ACCOUNT_STATUSES = ['initiating', 'pending', 'active', 'inactive', 'closed', 'failed'] as const;
export const SEED_CARD_STATUSES = ['issuing', 'active', 'inactive', 'issue_failed', 'terminated', 'blocked', 'suspended'] as const;
/** A payment's authorisation: held, captured (whole or in part) or released (docs/money-path.md: Seed worlds with payments). */
export const SEED_AUTHORISATION_STATUSES = ['pending', 'captured', 'released'] as const;
/** The debit a captured authorisation leaves. */
export const SEED_DEBIT_STATUSES = ['processing', 'processed', 'reversed'] as const;
/** A refund's credit. */
export const SEED_REFUND_STATUSES = ['processing', 'processed'] as const;

/** Accounts are opened for a verified customer; cards need a deployed account; payments an issued card. */
const HOLDS_ACCOUNTS: readonly string[] = ['active', 'inactive'];
const HOLDS_CARDS: readonly string[] = ['active', 'inactive', 'closed'];
const HOLDS_PAYMENTS: readonly string[] = ['active', 'inactive', 'terminated', 'blocked', 'suspended'];

/** Used when a seeded card gives no billing address. */
export const DEFAULT_BILLING_ADDRESS: Address = { firstLine: '1 Sandbox Street', city: 'London', country: 'GB', postCode: 'EC1A 1BB' };

/** `['customers', 0, 'accounts', 1, 'currencies']` → `customers[0].accounts[1].currencies`. */
export function seedPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '');
}

export type SeedPath = (string | number)[];

/** The part of a seed document the tree rules read. */
interface SeedTree {
  customers: readonly {
    status: string;
    accounts: readonly {
      status: string;
      cards: readonly {
        status: string;
        authorisations: readonly { status: string; capturedAmount?: string | undefined; transaction?: string | undefined; refunds: readonly unknown[] }[];
        refunds: readonly unknown[];
      }[];
    }[];
  }[];
}

/** What is wrong with a card's payments, each with its path below the card. */
function paymentErrors(card: SeedTree['customers'][number]['accounts'][number]['cards'][number]): { path: SeedPath; message: string }[] {
  if (card.authorisations.length + card.refunds.length > 0 && !HOLDS_PAYMENTS.includes(card.status)) {
    const field = card.authorisations.length > 0 ? 'authorisations' : 'refunds';
    return [
      { path: [field], message: `a card seeded as ${card.status} cannot have payments; payments need a card that was issued: ${either(HOLDS_PAYMENTS)}` },
    ];
  }
  const errors: { path: SeedPath; message: string }[] = [];
  card.authorisations.forEach((auth, i) => {
    const captured = auth.status === 'captured';
    if (!captured && auth.capturedAmount !== undefined)
      errors.push({ path: ['authorisations', i, 'capturedAmount'], message: `an authorisation seeded as ${auth.status} captures nothing` });
    if (!captured && auth.transaction !== undefined)
      errors.push({
        path: ['authorisations', i, 'transaction'],
        message: `an authorisation seeded as ${auth.status} leaves no transaction; only a captured one does`,
      });
    if (auth.refunds.length > 0 && (!captured || (auth.transaction ?? 'processed') !== 'processed'))
      errors.push({
        path: ['authorisations', i, 'refunds'],
        message: 'a refund follows a debit that is processed: the authorisation captured, its transaction processed',
      });
  });
  return errors;
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
      account.cards.forEach((card, k) => {
        for (const error of paymentErrors(card)) errors.push({ path: ['customers', c, 'accounts', a, 'cards', k, ...error.path], message: error.message });
      });
    });
  });
  return errors;
}
