/**
 * Authorisations, the simulator's card payments: create one on an active card of an active account
 * and customer (converted into the account's first currency through the shipped rate table),
 * capture it whole, in part or in several parts (docs/money-path.md: Several captures of one
 * hold) or release it, by hand or automatically; raise or lower a pending one (docs/money-path.md:
 * Amount updates); and release the holds left pending — after the programme's hold expiry on a
 * card that takes payments, 30 days after a card stopped taking them (docs/money-path.md: Holds
 * that expire). Every change appends one `authorisation.updated` event in the same database
 * transaction; a capture also records the transaction. A debit with no authorisation
 * (docs/money-path.md: Force posts) is paid by the same card checks.
 */
import { and, eq } from 'drizzle-orm';
import type { Core } from './core.js';
import {
  amountUpdateProblems,
  amountUpdateRefusal,
  AUTHORISATION_MACHINE,
  authorisationRefusal,
  AUTO_CAPTURE_DELAY_MS,
  captureProblems,
  holdExpiresAt,
  manualRefusal,
  MANUAL_COMPLETION_DELAY_MS,
  merchantFrom,
  TERMINATED_HOLD_WINDOW_MS,
  type Merchant,
} from '../domain/authorisation.js';
import { fail } from '../domain/errors.js';
import { holdExpiryFor } from '../domain/merchant-categories.js';
import { amountProblems, compare, convertPayment, minus, normalise, unconvert, type MoneyTables } from '../domain/money.js';
import { accounts, authorisations, cards, customers, programmes } from '../store/schema.js';
import type { ForcePostRequest } from '../wire/money-path.js';
import { toAuthorisation, type Authorisation, type AuthorisationRequest, type Transaction } from '../wire/payment.js';
import type { Events } from './outbox.js';
import type { Jobs } from './jobs.js';
import { lifecycle } from './lifecycle.js';
import type { Transactions } from './transactions.js';
import type { FundsService } from './funds.js';

type AuthorisationRow = typeof authorisations.$inferSelect;

const AUTO_CAPTURE = 'authorisation.auto-capture';
const COMPLETE = 'authorisation.complete';
const RELEASE_HOLD = 'authorisation.release-hold';

export function createAuthorisations(
  core: Core,
  { jobs, events, transactions, funds, money }: { jobs: Jobs; events: Events; transactions: Transactions; funds: FundsService; money: MoneyTables },
) {
  const { store, clock, ids, config, programme } = core;
  const { db } = store;
  // Set when the programme is made, so read once.
  const holdExpiryMs = db.select({ ms: programmes.holdExpiryMs }).from(programmes).where(eq(programmes.id, programme)).get()?.ms ?? config.holdExpiryMs;

  // A capture records the transaction in the same database transaction.
  const { create, find, load, move, save } = lifecycle(core, events, {
    table: authorisations,
    machine: AUTHORISATION_MACHINE,
    event: 'authorisation.updated',
    notFound: 'authorisation_not_found',
    view: toAuthorisation,
    afterSave(next, now) {
      if (next.status === 'captured') transactions.recordCapture(next, now);
    },
  });

  /** Automatic moves pass through the intermediate state and complete in the same instant. */
  const automatically = (action: 'capture' | 'release') => (id: string, now: number) => {
    const row = find(id);
    if (row?.status === 'pending') move(move(row, action, now), 'complete', now);
  };
  jobs.define(AUTO_CAPTURE, automatically('capture'));
  jobs.define(RELEASE_HOLD, automatically('release'));
  jobs.define(COMPLETE, (id, now) => {
    const row = find(id);
    if (row?.status === 'capturing' || row?.status === 'releasing') move(row, 'complete', now);
  });

  const byHand = (id: string, action: 'capture' | 'release', amount?: string, final = true): void =>
    store.transaction(() => {
      const row = load(id);
      const refusal = manualRefusal({ id, status: row.status, capture: row.capture }, action);
      if (refusal) fail('authorisation_not_pending', refusal);
      const now = clock.now();
      let changes: Partial<AuthorisationRow> = {};
      if (action === 'capture') {
        // Earlier captures of the hold each made their debit (docs/money-path.md: Several captures of one hold).
        const captured = funds.captured(row.accountId, id);
        const held = minus(row.amount, captured);
        // The amount as sent is checked before it is read as a number.
        if (amount !== undefined || !final) {
          const problems = captureProblems(amount ?? held, row, money.currencies, { captured, final });
          if (problems.length) fail('invalid_request', `invalid body: amount: ${problems[0]!.message}`, problems);
        }
        const part = amount === undefined ? held : normalise(amount);
        // A tip beyond the hold is taken from what is available (docs/money-path.md: Merchant categories).
        if (compare(part, held) > 0) funds.require(row.accountId, part, row.currency, row.id);
        if (!final) {
          transactions.recordCapture({ ...row, capturedAmount: part }, now);
          return;
        }
        if (amount !== undefined || compare(captured, '0') > 0) changes = { capturedAmount: part };
      }
      move(row, action, now, changes);
      jobs.cancel(RELEASE_HOLD, id);
      jobs.schedule(COMPLETE, id, now + MANUAL_COMPLETION_DELAY_MS);
    });

  const pendingOf = (cardId: string) =>
    db
      .select({ id: authorisations.id, createdAt: authorisations.createdAt, merchant: authorisations.merchant })
      .from(authorisations)
      .where(and(eq(authorisations.programmeId, programme), eq(authorisations.cardId, cardId), eq(authorisations.status, 'pending')))
      .all();

  /** The card, its account and its customer, or the card's 404. */
  const payer = (cardId: string) =>
    db
      .select({ card: cards, account: accounts, customer: { id: customers.id, status: customers.status } })
      .from(cards)
      .innerJoin(accounts, and(eq(accounts.programmeId, cards.programmeId), eq(accounts.id, cards.accountId)))
      .innerJoin(customers, and(eq(customers.programmeId, accounts.programmeId), eq(customers.id, accounts.customerId)))
      .where(and(eq(cards.programmeId, programme), eq(cards.id, cardId)))
      .get() ?? fail('card_not_found', `no card with id ${cardId}`);

  /** A payment on the card, in its account's currency; refused as a payment is (the customer, the account, then the card). */
  const payment = (cardId: string, request: { amount: string; currency: string; merchant?: Partial<Merchant> | undefined }) => {
    const { card, account, customer } = payer(cardId);
    const refusal = authorisationRefusal(card, [
      { kind: 'customer', id: customer.id, status: customer.status },
      { kind: 'account', id: account.id, status: account.status },
    ]);
    if (refusal) fail(refusal.code, refusal.detail);
    const currency = account.currencies[0];
    if (!currency) throw new Error(`card ${cardId} has no account currency`);
    const conversion = convertPayment(money, request.amount, request.currency, currency);
    if ('path' in conversion) fail('invalid_request', conversion.message, [conversion]);
    return {
      accountId: account.id,
      cardId,
      amount: conversion.amount,
      currency,
      merchantAmount: normalise(request.amount),
      merchantCurrency: request.currency,
      exchangeRate: conversion.exchangeRate,
      merchant: merchantFrom(request.merchant),
    };
  };

  return {
    /** How long a hold stays pending on a card that takes payments. */
    holdExpiryMs,

    authorise(cardId: string, request: AuthorisationRequest): Authorisation {
      const problems = amountProblems(request.amount, request.currency, money.currencies);
      if (problems.length) fail('invalid_request', `invalid body: ${problems.map((p) => p.path).join(', ')}`, problems);
      return store.transaction(() => {
        const paid = payment(cardId, request);
        funds.require(paid.accountId, paid.amount, paid.currency);
        const now = clock.now();
        const row: AuthorisationRow = {
          programmeId: programme,
          id: ids.uuid(),
          ...paid,
          status: 'pending',
          capture: request.capture,
          createdAt: now,
          updatedAt: now,
          capturedAmount: null,
        };
        const created = create(row);
        if (row.capture) jobs.schedule(AUTO_CAPTURE, row.id, now + AUTO_CAPTURE_DELAY_MS);
        else jobs.schedule(RELEASE_HOLD, row.id, holdExpiresAt(now, holdExpiryFor(row.merchant.mcc, holdExpiryMs), now));
        return created;
      });
    },

    /**
     * A seed world's hold captured (whole or `amount` of it) or released in one instant, as the
     * automatic moves are: no wallet, no waiting. Returns the authorisation as it ends.
     */
    settleAtOnce(id: string, action: 'capture' | 'release', amount?: string): Authorisation {
      byHand(id, action, amount);
      return store.transaction(() => {
        jobs.cancel(COMPLETE, id);
        return toAuthorisation(move(load(id), 'complete', clock.now()));
      });
    },

    /**
     * Captures a hold: what is left of it, or `amount` of its currency. A final capture (the
     * default) closes it, the rest released; one that is not leaves it pending with the rest held.
     */
    capture: (id: string, amount?: string, final?: boolean): void => byHand(id, 'capture', amount, final),
    release: (id: string): void => byHand(id, 'release'),

    /**
     * A pending authorisation's amount raised or lowered (docs/money-path.md: Amount updates): the
     * same status, the hold following it, the merchant's share at the authorisation's rate; a raise
     * beyond what is available is refused `insufficient_funds`.
     */
    updateAmount: (id: string, amount: string): Authorisation =>
      store.transaction(() => {
        const row = load(id);
        const refusal = amountUpdateRefusal(row);
        if (refusal) fail('invalid_state_transition', refusal);
        const captured = funds.captured(row.accountId, id);
        const problems = amountUpdateProblems(amount, row, money.currencies, captured);
        if (problems.length) fail('invalid_request', `invalid body: amount: ${problems[0]!.message}`, problems);
        const next = normalise(amount);
        if (compare(next, row.amount) > 0) funds.require(row.accountId, minus(next, captured), row.currency, row.id);
        const merchantAmount = unconvert(next, row.exchangeRate, money.currencies[row.merchantCurrency] ?? 2);
        return toAuthorisation(save(row, { amount: next, merchantAmount }, clock.now()));
      }),

    get: (id: string): Authorisation => toAuthorisation(load(id)),

    /**
     * A debit with no authorisation (docs/money-path.md: Force posts): on a card that could be
     * authorised, converted as a payment is, taken from the balance at once, fees included.
     */
    forcePost: (cardId: string, request: ForcePostRequest): Transaction =>
      store.transaction(() =>
        transactions.record({ ...payment(cardId, request), authorisationId: null, direction: 'debit' }, clock.now(), { requireFunds: true }),
      ),

    /**
     * A card stopped taking payments (blocked, suspended, terminated): its pending holds stay
     * capturable for 30 days, then are released. Took them again (reinstated): they expire as any
     * hold does, at once if that time has passed. The cards service calls this inside the change's
     * transaction.
     */
    paymentsChanged(change: 'stopped' | 'resumed', cardId: string, now: number): void {
      for (const hold of pendingOf(cardId)) {
        jobs.cancel(RELEASE_HOLD, hold.id);
        jobs.schedule(
          RELEASE_HOLD,
          hold.id,
          change === 'stopped' ? now + TERMINATED_HOLD_WINDOW_MS : holdExpiresAt(hold.createdAt, holdExpiryFor(hold.merchant.mcc, holdExpiryMs), now),
        );
      }
    },
  };
}

export type Authorisations = ReturnType<typeof createAuthorisations>;
