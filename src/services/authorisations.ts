/**
 * Authorisations, the simulator's card payments: create one on an active card (converted into
 * the account's first currency through the shipped rate table), capture or release it by hand or
 * automatically, and release the holds a terminated card leaves once its 30-day window closes.
 * Every change appends one `authorisation.updated` event in the same database transaction; a
 * capture also records the transaction.
 */
import { and, eq } from 'drizzle-orm';
import { iso } from '../clock.js';
import type { Core } from '../deps.js';
import {
  authorisationTransition,
  AUTO_CAPTURE_DELAY_MS,
  manualRefusal,
  MANUAL_COMPLETION_DELAY_MS,
  merchantFrom,
  TERMINATED_HOLD_WINDOW_MS,
  type AuthorisationAction,
  type AuthorisationStatus,
  type Merchant,
} from '../domain/authorisation.js';
import { fail, SandboxError } from '../domain/errors.js';
import { amountProblems, convert, normalise, type MoneyTables, type RateTable } from '../domain/money.js';
import { readFixture } from '../fixtures.js';
import { accounts, authorisations, cards } from '../store/schema.js';
import type { Events } from './events.js';
import type { Jobs } from './jobs.js';
import type { Transactions } from './transactions.js';

type AuthorisationRow = typeof authorisations.$inferSelect;

export interface AuthorisationRequest {
  amount: string;
  currency: string;
  capture: boolean;
  merchant?: Partial<Merchant>;
}

const AUTO_CAPTURE = 'authorisation.auto-capture';
const COMPLETE = 'authorisation.complete';
const RELEASE_HOLD = 'authorisation.release-hold';

/** The authorisation exactly as GET /authorisations/{id} returns it, fields in the reference's order. */
export function authorisationView(row: AuthorisationRow) {
  return {
    id: row.id,
    accountId: row.accountId,
    cardId: row.cardId,
    status: row.status as AuthorisationStatus,
    amount: row.amount,
    currency: row.currency,
    merchantAmount: row.merchantAmount,
    merchantCurrency: row.merchantCurrency,
    exchangeRate: row.exchangeRate,
    merchant: row.merchant as Merchant,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export type AuthorisationView = ReturnType<typeof authorisationView>;

/** The shipped ISO 4217 table and rate table. */
export function loadMoneyTables(): MoneyTables {
  return {
    currencies: readFixture<{ currencies: Record<string, number> }>('currencies.json').currencies,
    rates: readFixture<RateTable>('rates.json'),
  };
}

export function createAuthorisations(core: Core, { jobs, events, transactions }: { jobs: Jobs; events: Events; transactions: Transactions }) {
  const { store, clock, ids } = core;
  const { db } = store;
  const money = loadMoneyTables();

  const find = (id: string) => db.select().from(authorisations).where(eq(authorisations.id, id)).get();

  /** Applies one move of the state table, emits its event, and records the transaction of a capture. */
  const move = (row: AuthorisationRow, action: AuthorisationAction, now: number): AuthorisationRow => {
    const outcome = authorisationTransition(row.status as AuthorisationStatus, action);
    if (!outcome.ok) throw new SandboxError(outcome.code, outcome.detail);
    const next = { ...row, status: outcome.next, updatedAt: now };
    db.update(authorisations).set({ status: next.status, updatedAt: now }).where(eq(authorisations.id, row.id)).run();
    events.emit('authorisation.updated', row.id, authorisationView(next));
    if (next.status === 'captured') transactions.recordCapture(next, now);
    return next;
  };

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
      const row = find(id) ?? fail('authorisation_not_found', `no authorisation with id ${id}`);
      const refusal = manualRefusal({ id, status: row.status as AuthorisationStatus, capture: row.capture }, action);
      if (refusal) fail('authorisation_not_pending', refusal);
      const now = clock.now();
      move(row, action, now);
      jobs.cancel(RELEASE_HOLD, id);
      jobs.schedule(COMPLETE, id, now + MANUAL_COMPLETION_DELAY_MS);
    });

  return {
    /** The ISO 4217 table: request validation names unknown currencies and excess fraction digits with it. */
    currencies: money.currencies,

    authorise(cardId: string, request: AuthorisationRequest): AuthorisationView {
      const problems = amountProblems(request.amount, request.currency, money.currencies);
      if (problems.length) fail('invalid_request', `invalid body: ${problems.map((p) => p.path).join(', ')}`, problems);
      return store.transaction(() => {
        const card = db.select().from(cards).where(eq(cards.id, cardId)).get() ?? fail('card_not_found', `no card with id ${cardId}`);
        if (card.status !== 'active') fail('card_not_active', `card ${cardId} is ${card.status}; only an active card can be authorised`);
        const account = db.select().from(accounts).where(eq(accounts.id, card.accountId)).get();
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
        db.insert(authorisations).values(row).run();
        const view = authorisationView(row);
        events.emit('authorisation.updated', row.id, view);
        if (row.capture) jobs.schedule(AUTO_CAPTURE, row.id, now + AUTO_CAPTURE_DELAY_MS);
        return view;
      });
    },

    capture: (id: string): void => byHand(id, 'capture'),
    release: (id: string): void => byHand(id, 'release'),

    get(id: string): AuthorisationView {
      return authorisationView(find(id) ?? fail('authorisation_not_found', `no authorisation with id ${id}`));
    },

    /**
     * A card was terminated: its pending holds stay capturable for 30 days, then are released.
     * The cards service calls this inside the termination's transaction.
     */
    holdAfterTermination(cardId: string, now: number): void {
      const pending = db.select({ id: authorisations.id }).from(authorisations).where(and(eq(authorisations.cardId, cardId), eq(authorisations.status, 'pending'))).all();
      for (const { id } of pending) jobs.schedule(RELEASE_HOLD, id, now + TERMINATED_HOLD_WINDOW_MS);
    },
  };
}

export type Authorisations = ReturnType<typeof createAuthorisations>;
