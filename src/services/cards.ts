/**
 * Cards (docs/api.md: Customers, accounts and cards): creation under an active account, issue/fail by the simulator, the
 * integrator's activate/deactivate/terminate, expiry, the issuer's block, suspend and reinstate
 * (docs/money-path.md: Cards the issuer stops), and the cascades driven by accounts and customers.
 * Every change writes one `card.updated` event in its transaction; a card that stops taking
 * payments (blocked, suspended, terminated) or takes them again tells the `onPayments` listeners
 * inside that transaction.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Core } from './core.js';
import { orderAddress } from '../domain/address.js';
import { CARD_MACHINE, cardTransition, paymentsChange, withinCardLimit } from '../domain/card.js';
import { arrival, inactiveParent, restoredWithParent, takenDownWithParent, type Parent } from '../domain/cascade.js';
import { fail } from '../domain/errors.js';
import { expirationDate, expiresAt, generatePan, maskPan } from '../domain/pan.js';
import { accounts, cards, customers } from '../store/schema.js';
import { untilChanged } from '../store/read-cache.js';
import { toCard, type Card, type NewCard } from '../wire/card.js';
import type { Events } from './outbox.js';
import type { Jobs } from './jobs.js';
import { lifecycle } from './lifecycle.js';

type CardRow = typeof cards.$inferSelect;

/** Told when a card stops taking payments, or takes them again. */
export type PaymentsListener = (change: 'stopped' | 'resumed', cardId: string, now: number) => void;

const EXPIRE_JOB = 'card.expire';

export function createCards(core: Core, { events, jobs }: { events: Events; jobs: Jobs }) {
  const { store, clock, ids, random, config, programme } = core;
  const { db } = store;
  const mine = eq(cards.programmeId, programme);
  const paymentsListeners = new Set<PaymentsListener>();
  const byCreation = [asc(cards.createdAt), asc(sql`rowid`)];
  // GET /v1/cards serialises every card each time: the list is prepared once and kept until the
  // database changes (store/read-cache.ts).
  const listQuery = db
    .select()
    .from(cards)
    .where(mine)
    .orderBy(...byCreation)
    .prepare();
  const listAll = untilChanged(store.sqlite, () => listQuery.all().map(toCard));

  const card = lifecycle(core, events, {
    table: cards,
    machine: CARD_MACHINE,
    event: 'card.updated',
    notFound: 'card_not_found',
    view: toCard,
    alsoWrite: (changes, now) => (changes.status === 'terminated' ? { terminatedAt: now } : {}),
    afterSave(next, now, previous) {
      if (next.status === 'terminated') jobs.cancel(EXPIRE_JOB, next.id);
      const change = paymentsChange(previous.status, next.status);
      if (change) for (const listener of paymentsListeners) listener(change, next.id, now);
    },
  });
  const { move } = card;

  /** The card's account and customer, which gate creation, activation and issue. */
  const parentsOf = (accountId: string): Parent[] => {
    const p =
      db
        .select({ account: accounts.status, customer: customers.status, customerId: customers.id })
        .from(accounts)
        .innerJoin(customers, and(eq(customers.programmeId, accounts.programmeId), eq(customers.id, accounts.customerId)))
        .where(and(eq(accounts.programmeId, programme), eq(accounts.id, accountId)))
        .get() ?? fail('account_not_found', `no account with id ${accountId}`);
    return [
      { kind: 'customer', id: p.customerId, status: p.customer },
      { kind: 'account', id: accountId, status: p.account },
    ];
  };

  /** Whether the card's account and customer are both active: a card arriving in `active` stays so only then. */
  const parentsActive = (accountId: string) => parentsOf(accountId).every((p) => p.status === 'active');

  const requireActiveParents = (accountId: string) => {
    const refusal = inactiveParent(parentsOf(accountId), (parent) => `cards need an active ${parent.kind}`);
    if (refusal) fail(refusal.code, refusal.detail);
  };

  const cardsOf = (accountId: string) =>
    db
      .select()
      .from(cards)
      .where(and(mine, eq(cards.accountId, accountId)))
      .orderBy(...byCreation)
      .all();

  jobs.define(EXPIRE_JOB, (id, now) => {
    const row = card.find(id);
    if (row && cardTransition(row.status, 'retire').ok) move(row, 'retire', now);
  });

  return {
    /**
     * Calls `listener` inside the transaction of every change that stops a card taking payments —
     * a block, a suspension, a termination (DELETE, account close, expiry) — or lets it take them again.
     */
    onPayments(listener: PaymentsListener): () => void {
      paymentsListeners.add(listener);
      return () => paymentsListeners.delete(listener);
    },

    create(accountId: string, input: NewCard): Card {
      return store.transaction(() => {
        requireActiveParents(accountId);
        if (input.type === 'physical') {
          if (!config.physicalCards) fail('physical_cards_unsupported', 'physical cards are not enabled; start the sandbox with --physical-cards');
          if (!input.shippingAddress)
            fail('invalid_request', 'physical cards need a shippingAddress', [{ path: 'shippingAddress', message: 'required for physical cards' }]);
        }
        if (!withinCardLimit(cardsOf(accountId), input.type)) {
          fail(
            'card_limit_reached',
            `account ${accountId} already has a ${input.type} card; terminate it first (one virtual and one physical card per account)`,
          );
        }
        const now = clock.now();
        const row: CardRow = {
          programmeId: programme,
          id: ids.uuid(),
          accountId,
          type: input.type,
          status: 'issuing',
          name: null,
          network: null,
          maskedPan: null,
          expirationDate: null,
          billingAddress: orderAddress(input.billingAddress),
          shippingAddress: input.shippingAddress ? orderAddress(input.shippingAddress) : null,
          cascadeDeactivated: false,
          terminatedAt: null,
          createdAt: now,
          updatedAt: now,
        };
        return card.create(row);
      });
    },

    get: (id: string): Card => toCard(card.load(id)),

    list: (): Card[] => listAll(),

    listForAccount(accountId: string): Card[] {
      parentsOf(accountId);
      return cardsOf(accountId).map(toCard);
    },

    deactivate: (id: string): Card => card.mutate(id, (row, now) => move(row, 'deactivate', now, { cascadeDeactivated: false })),

    activate: (id: string): Card =>
      card.mutate(id, (row, now) => {
        if (cardTransition(row.status, 'activate').ok) requireActiveParents(row.accountId);
        return move(row, 'activate', now, { cascadeDeactivated: false });
      }),

    terminate: (id: string): Card => card.mutate(id, (row, now) => move(row, 'terminate', now)),

    /**
     * Simulator: the card is issued with its name, network, masked PAN and expiry, and a job ends
     * it after its expiry month. Issued while its account or customer is inactive, it arrives
     * inactive (domain/cascade.ts).
     */
    issue: (id: string): Card =>
      card.mutate(id, (row, now) => {
        const outcome = cardTransition(row.status, 'issue');
        if (!outcome.ok) fail(outcome.code, outcome.detail);
        const expiration = expirationDate(now);
        jobs.schedule(EXPIRE_JOB, row.id, expiresAt(expiration));
        return card.save(
          row,
          {
            ...arrival(outcome.next, parentsActive(row.accountId)),
            name: config.cardholderName,
            network: config.network,
            maskedPan: maskPan(generatePan(config.network, (n) => random.bytes(n))),
            expirationDate: expiration,
          },
          now,
        );
      }),

    /** Simulator: issuance failed. */
    fail: (id: string): Card => card.mutate(id, (row, now) => move(row, 'fail', now)),

    /** The issuer stops the card for good: it takes no payment and cannot be activated (a suspended one may be blocked too). */
    block: (id: string): Card => card.mutate(id, (row, now) => move(row, 'block', now)),

    /** The issuer stops the card for a while. */
    suspend: (id: string): Card => card.mutate(id, (row, now) => move(row, 'suspend', now)),

    /**
     * The issuer lets a blocked or suspended card take payments again: active, or, while its
     * account or customer is inactive, inactive and brought back with them (domain/cascade.ts).
     */
    reinstate: (id: string): Card =>
      card.mutate(id, (row, now) => {
        const outcome = cardTransition(row.status, 'reinstate');
        if (!outcome.ok) fail(outcome.code, outcome.detail);
        return card.save(row, arrival(outcome.next, parentsActive(row.accountId)), now);
      }),

    /** Account cascade: its active cards become inactive, marked so that `restoreForAccount` brings back exactly these. */
    deactivateForAccount(accountId: string, now: number): void {
      for (const row of cardsOf(accountId).filter(takenDownWithParent)) move(row, 'deactivate', now, { cascadeDeactivated: true });
    },

    restoreForAccount(accountId: string, now: number): void {
      for (const row of cardsOf(accountId).filter(restoredWithParent)) move(row, 'activate', now, { cascadeDeactivated: false });
    },

    /** The account closed: every card still alive is terminated. */
    retireForAccount(accountId: string, now: number): void {
      const alive = Object.keys(CARD_MACHINE.actions.retire.from) as CardRow['status'][];
      const rows = db
        .select()
        .from(cards)
        .where(and(mine, eq(cards.accountId, accountId), inArray(cards.status, alive)))
        .orderBy(...byCreation)
        .all();
      for (const row of rows) move(row, 'retire', now);
    },
  };
}

export type Cards = ReturnType<typeof createCards>;
