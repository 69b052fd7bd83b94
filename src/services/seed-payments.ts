/**
 * A seed world's payments (docs/money-path.md: Seed worlds with payments): each card's
 * authorisations — held, captured whole or in part, or released — with the debit a capture leaves
 * (processing, processed or reversed) and the refunds that follow it, then the card's own refunds.
 * Everything goes through the services the API and the controls use, so every change writes its
 * event; what the controls would leave for a job to finish happens in the same instant.
 */
import { SandboxError } from '../domain/errors.js';
import type { SeedPath as Path } from '../domain/seed.js';
import type { SeedCard, SeedRefund } from '../wire/seed.js';
import type { Authorisations } from './authorisations.js';
import type { Refunds } from './refunds.js';
import type { Transactions } from './transactions.js';

/** Runs `fn`, a refusal re-addressed to `path` in the document (services/sandbox.ts). */
export type At = <T>(path: Path, fn: () => T) => T;

export interface SeedPaymentServices {
  authorisations: Authorisations;
  transactions: Transactions;
  refunds: Refunds;
}

type Created = { id: string; status: string };

/** Runs `fn`; a refusal naming the service's `amount` names the seed's `field` instead. */
function named<T>(field: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (!(error instanceof SandboxError) || !error.errors) throw error;
    throw new SandboxError(
      error.code,
      error.detail.replace('amount:', `${field}:`),
      error.errors.map((e) => (e.path === 'amount' ? { ...e, path: field } : e)),
    );
  }
}

export function seedPayments({ authorisations, transactions, refunds }: SeedPaymentServices, at: At) {
  const refund = (cardId: string, seeded: SeedRefund, path: Path, transactionId?: string): Created => {
    const { id } = at(path, () =>
      refunds.refund(cardId, {
        amount: seeded.amount,
        currency: seeded.currency,
        ...(seeded.merchant && { merchant: seeded.merchant }),
        ...(transactionId !== undefined && { transactionId }),
      }),
    );
    const { status } = seeded.status === 'processed' ? transactions.settleAtOnce(id) : transactions.get(id);
    return { id, status };
  };

  /** The card's payments, made while it is active; what became of each, or undefined when it has none. */
  return (cardId: string, card: SeedCard, path: Path) => {
    if (card.authorisations.length + card.refunds.length === 0) return undefined;
    const made = card.authorisations.map((seeded, i) => {
      const where: Path = [...path, 'authorisations', i];
      const { id } = at(where, () =>
        authorisations.authorise(cardId, {
          amount: seeded.amount,
          currency: seeded.currency,
          capture: false,
          ...(seeded.merchant && { merchant: seeded.merchant }),
        }),
      );
      if (seeded.status === 'pending') return { id, status: 'pending' };
      if (seeded.status === 'released') return { id, status: authorisations.settleAtOnce(id, 'release').status };
      const { status } = at(where, () => named('capturedAmount', () => authorisations.settleAtOnce(id, 'capture', seeded.capturedAmount)));
      const debit = transactions.debitOf(id);
      const target = seeded.transaction ?? 'processed';
      const ended = target === 'processed' ? transactions.settleAtOnce(debit.id) : target === 'reversed' ? transactions.reverseAtOnce(debit.id) : debit;
      const followed = seeded.refunds.map((r, k) => refund(cardId, r, [...where, 'refunds', k], debit.id));
      return { id, status, transaction: { id: debit.id, status: ended.status }, ...(followed.length && { refunds: followed }) };
    });
    const own = card.refunds.map((r, k) => refund(cardId, r, [...path, 'refunds', k]));
    return { ...(made.length && { authorisations: made }), ...(own.length && { refunds: own }) };
  };
}
