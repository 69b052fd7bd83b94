/**
 * Authorisations, the simulator's card payments: create one on an active card (converted into
 * the account's first currency through the shipped rate table), capture or release it by hand or
 * automatically, and release the holds a terminated card leaves once its 30-day window closes.
 * Every change appends one `authorisation.updated` event in the same database transaction; a
 * capture also records the transaction.
 */
import { and, eq } from 'drizzle-orm';
import type { Core } from './core.js';
import {
  AUTHORISATION_MACHINE,
  AUTO_CAPTURE_DELAY_MS,
  manualRefusal,
  MANUAL_COMPLETION_DELAY_MS,
  merchantFrom,
  TERMINATED_HOLD_WINDOW_MS,
} from '../domain/authorisation.js';
import { fail } from '../domain/errors.js';
import { amountProblems, convert, normalise, type MoneyTables } from '../domain/money.js';
import { accounts, authorisations, cards } from '../store/schema.js';
import { toAuthorisation, type Authorisation, type AuthorisationRequest } from '../wire/payment.js';
import type { Events } from './outbox.js';
import type { Jobs } from './jobs.js';
import { lifecycle } from './lifecycle.js';
import type { Transactions } from './transactions.js';

type AuthorisationRow = typeof authorisations.$inferSelect;

const AUTO_CAPTURE = 'authorisation.auto-capture';
const COMPLETE = 'authorisation.complete';
const RELEASE_HOLD = 'authorisation.release-hold';

export function createAuthorisations(
  core: Core,
  { jobs, events, transactions, money }: { jobs: Jobs; events: Events; transactions: Transactions; money: MoneyTables },
) {
  const { store, clock, ids, programme } = core;
  const { db } = store;

  // A capture records the transaction in the same database transaction.
  const { create, find, load, move } = lifecycle(core, events, {
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

  const byHand = (id: string, action: 'capture' | 'release'): void =>
    store.transaction(() => {
      const row = load(id);
      const refusal = manualRefusal({ id, status: row.status, capture: row.capture }, action);
      if (refusal) fail('authorisation_not_pending', refusal);
      const now = clock.now();
      move(row, action, now);
      jobs.cancel(RELEASE_HOLD, id);
      jobs.schedule(COMPLETE, id, now + MANUAL_COMPLETION_DELAY_MS);
    });

  return {
    authorise(cardId: string, request: AuthorisationRequest): Authorisation {
      const problems = amountProblems(request.amount, request.currency, money.currencies);
      if (problems.length) fail('invalid_request', `invalid body: ${problems.map((p) => p.path).join(', ')}`, problems);
      return store.transaction(() => {
        const card =
          db
            .select()
            .from(cards)
            .where(and(eq(cards.programmeId, programme), eq(cards.id, cardId)))
            .get() ?? fail('card_not_found', `no card with id ${cardId}`);
        if (card.status !== 'active') fail('card_not_active', `card ${cardId} is ${card.status}; only an active card can be authorised`);
        const account = db
          .select()
          .from(accounts)
          .where(and(eq(accounts.programmeId, programme), eq(accounts.id, card.accountId)))
          .get();
        const currency = account?.currencies[0];
        if (!currency) throw new Error(`card ${cardId} has no account currency`);
        const conversion = convert(money, request.amount, request.currency, currency);
        if (!conversion) {
          const message = `the sandbox rate table has no rate from ${request.currency} to the account currency ${currency}; currencies with rates: ${Object.keys(money.rates.rates).join(', ')}`;
          fail('invalid_request', message, [{ path: 'currency', message }]);
        }
        if (conversion.amount === '0') {
          const message = `${normalise(request.amount)} ${request.currency} is less than the smallest unit of the account currency ${currency}`;
          fail('invalid_request', message, [{ path: 'amount', message }]);
        }
        const now = clock.now();
        const row: AuthorisationRow = {
          programmeId: programme,
          id: ids.uuid(),
          accountId: card.accountId,
          cardId,
          status: 'pending',
          amount: conversion.amount,
          currency,
          merchantAmount: normalise(request.amount),
          merchantCurrency: request.currency,
          exchangeRate: conversion.exchangeRate,
          merchant: merchantFrom(request.merchant),
          capture: request.capture,
          createdAt: now,
          updatedAt: now,
        };
        const created = create(row);
        if (row.capture) jobs.schedule(AUTO_CAPTURE, row.id, now + AUTO_CAPTURE_DELAY_MS);
        return created;
      });
    },

    capture: (id: string): void => byHand(id, 'capture'),
    release: (id: string): void => byHand(id, 'release'),

    get: (id: string): Authorisation => toAuthorisation(load(id)),

    /**
     * A card was terminated: its pending holds stay capturable for 30 days, then are released.
     * The cards service calls this inside the termination's transaction.
     */
    holdAfterTermination(cardId: string, now: number): void {
      const pending = db
        .select({ id: authorisations.id })
        .from(authorisations)
        .where(and(eq(authorisations.programmeId, programme), eq(authorisations.cardId, cardId), eq(authorisations.status, 'pending')))
        .all();
      for (const { id } of pending) jobs.schedule(RELEASE_HOLD, id, now + TERMINATED_HOLD_WINDOW_MS);
    },
  };
}

export type Authorisations = ReturnType<typeof createAuthorisations>;
