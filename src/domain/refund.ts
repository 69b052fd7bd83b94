/**
 * Refunds (docs/money-path.md: Refunds): a merchant gives money back on a card, and the sandbox
 * records it as a new `credit` transaction. Here: which cards and accounts take one, and which debit
 * a refund may name and follow; how much of it may come back is refund-amount.ts's. The service's
 * document leaves all three open; these are the sandbox's decisions. It imports no library, so the
 * inspector bundles the lists for a few bytes.
 */
import type { AccountStatus } from './account.js';
import type { CardStatus } from './card.js';
import type { ErrorCode, FieldError } from './errors.js';
import type { TransactionStatus } from './transaction.js';
import { either } from './words.js';

/** A card that was issued takes a refund whatever became of it since: money comes back to a blocked or terminated card's account too. */
export const REFUNDABLE_CARDS: readonly CardStatus[] = ['active', 'inactive', 'blocked', 'suspended', 'terminated'];
/** The account the money goes to must still be open. */
export const REFUNDABLE_ACCOUNTS: readonly AccountStatus[] = ['active', 'inactive'];
/** A refund follows a settled debit; one still `processing` settles first, and a reversed one has nothing left to give back. */
export const REFUNDABLE_DEBITS: readonly TransactionStatus[] = ['processed'];

export type Refusal = { code: ErrorCode; detail: string; errors?: FieldError[] };

/** Why the card (or its account) takes no refund, or undefined when it does. */
export function refundTargetRefusal(card: { id: string; status: CardStatus }, account: { id: string; status: AccountStatus }): Refusal | undefined {
  if (!REFUNDABLE_CARDS.includes(card.status))
    return {
      code: 'invalid_state_transition',
      detail: `card ${card.id} is ${card.status}; a refund needs a card that was issued: ${either(REFUNDABLE_CARDS)}`,
    };
  if (!REFUNDABLE_ACCOUNTS.includes(account.status))
    return {
      code: 'invalid_state_transition',
      detail: `account ${account.id} is ${account.status}; a refund needs an account that is ${either(REFUNDABLE_ACCOUNTS)}`,
    };
  return undefined;
}

/** Why `original` cannot be the debit a refund on card `cardId` follows, or undefined when it can. */
export function refundOriginalRefusal(
  original: { id: string; cardId: string | null; direction: string; status: TransactionStatus },
  cardId: string,
): Refusal | undefined {
  const field = (message: string): Refusal => ({
    code: 'invalid_request',
    detail: `invalid body: transactionId: ${message}`,
    errors: [{ path: 'transactionId', message }],
  });
  if (original.cardId !== cardId) return field(`transaction ${original.id} is not a payment of card ${cardId}`);
  if (original.direction !== 'debit') return field(`transaction ${original.id} is a ${original.direction}; a refund follows a debit`);
  if (!REFUNDABLE_DEBITS.includes(original.status))
    return {
      code: 'invalid_state_transition',
      detail: `transaction ${original.id} is ${original.status}; a refund follows a debit that is ${either(REFUNDABLE_DEBITS)}${original.status === 'processing' ? ' (it settles 1 s after its capture)' : ''}`,
    };
  return undefined;
}
