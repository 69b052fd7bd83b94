/**
 * Refunds (docs/money-path.md: Refunds): a merchant gives money back on a card. The sandbox makes a
 * new `credit` transaction on the card's account — its amounts converted as a payment's are, the
 * programme's fees on it, `processing` then `processed` — linked to the authorisation of the debit
 * it names, whose merchant it takes unless told otherwise. Which cards, accounts and debits take
 * one, and how much may come back, are domain/refund.ts's rules.
 */
import { and, eq } from 'drizzle-orm';
import type { Core } from './core.js';
import { merchantFrom } from '../domain/authorisation.js';
import { fail } from '../domain/errors.js';
import { convertPayment, normalise, type MoneyTables } from '../domain/money.js';
import { refundExcess } from '../domain/refund-amount.js';
import { refundOriginalRefusal, refundTargetRefusal } from '../domain/refund.js';
import { accounts, cards } from '../store/schema.js';
import type { RefundRequest } from '../wire/money-path.js';
import type { Transaction } from '../wire/payment.js';
import type { Transactions } from './transactions.js';

export function createRefunds(core: Core, { transactions, money }: { transactions: Transactions; money: MoneyTables }) {
  const { store, clock, programme } = core;
  const { db } = store;

  return {
    refund(cardId: string, request: RefundRequest): Transaction {
      return store.transaction(() => {
        const found =
          db
            .select({ card: cards, account: accounts })
            .from(cards)
            .innerJoin(accounts, and(eq(accounts.programmeId, cards.programmeId), eq(accounts.id, cards.accountId)))
            .where(and(eq(cards.programmeId, programme), eq(cards.id, cardId)))
            .get() ?? fail('card_not_found', `no card with id ${cardId}`);
        const { card, account } = found;
        const target = refundTargetRefusal(card, account);
        if (target) fail(target.code, target.detail);
        const currency = account.currencies[0]!;
        const conversion = convertPayment(money, request.amount, request.currency, currency);
        if ('path' in conversion) fail('invalid_request', conversion.message, [conversion]);
        let authorisationId: string | null = null;
        let merchant = merchantFrom(request.merchant);
        if (request.transactionId !== undefined) {
          const original = transactions.find(request.transactionId) ?? fail('transaction_not_found', `no transaction with id ${request.transactionId}`);
          const refusal = refundOriginalRefusal(original, cardId);
          if (refusal) fail(refusal.code, refusal.detail, refusal.errors);
          const excess = refundExcess(original, transactions.refundedOf(original.authorisationId), conversion.amount, transactions.debitsOf(original));
          if (excess) fail('invalid_request', `invalid body: amount: ${excess.message}`, [excess]);
          authorisationId = original.authorisationId;
          merchant = merchantFrom(request.merchant, original.merchant);
        }
        return transactions.record(
          {
            accountId: account.id,
            cardId,
            authorisationId,
            direction: 'credit',
            amount: conversion.amount,
            currency,
            merchantAmount: normalise(request.amount),
            merchantCurrency: request.currency,
            exchangeRate: conversion.exchangeRate,
            merchant,
          },
          clock.now(),
        );
      });
    },
  };
}

export type Refunds = ReturnType<typeof createRefunds>;
