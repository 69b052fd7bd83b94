/**
 * Cards (CONTRACT §7 Card): creation under an active account, issue/fail by the simulator, the
 * integrator's activate/deactivate/terminate, expiry, and the cascades driven by accounts and
 * customers. Every change writes one `card.updated` event in its transaction; every termination
 * tells the `onTerminate` listeners inside that transaction.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { iso } from '../clock.js';
import type { Core } from '../deps.js';
import { orderAddress, type Address } from '../domain/address.js';
import { CARD_MACHINE, cardTransition, withinCardLimit, type CardAction, type CardStatus, type CardType } from '../domain/card.js';
import { fail } from '../domain/errors.js';
import { expirationDate, expiresAt, generatePan, maskPan, type Network } from '../domain/pan.js';
import { accounts, cards, customers } from '../store/schema.js';
import { untilChanged } from '../store/read-cache.js';
import type { Events } from './events.js';
import type { Jobs } from './jobs.js';

type CardRow = typeof cards.$inferSelect;

export interface Card {
  id: string;
  accountId: string;
  type: CardType;
  name?: string;
  network?: Network;
  maskedPan?: string;
  expirationDate?: string;
  billingAddress: Address;
  status: CardStatus;
  createdAt: string;
  updatedAt: string;
}

export interface NewCard {
  type: CardType;
  billingAddress: Address;
  shippingAddress?: Address | undefined;
}

export type TerminateListener = (cardId: string, now: number) => void;

const EXPIRE_JOB = 'card.expire';

/** The card as GET returns it and as its events carry it: YAML field order, absent fields omitted. */
export function toCard(row: CardRow): Card {
  return {
    id: row.id,
    accountId: row.accountId,
    type: row.type as CardType,
    ...(row.name !== null && { name: row.name }),
    ...(row.network !== null && { network: row.network as Network }),
    ...(row.maskedPan !== null && { maskedPan: row.maskedPan }),
    ...(row.expirationDate !== null && { expirationDate: row.expirationDate }),
    billingAddress: orderAddress(row.billingAddress as unknown as Address),
    status: row.status as CardStatus,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function createCards(core: Core, { events, jobs }: { events: Events; jobs: Jobs }) {
  const { store, clock, ids, random, config } = core;
  const { db } = store;
  const terminateListeners = new Set<TerminateListener>();
  const byCreation = [asc(cards.createdAt), asc(sql`rowid`)];
  // GET /v1/cards serialises every card each time: the list is prepared once and kept until the
  // database changes (store/read-cache.ts).
  const listQuery = db.select().from(cards).orderBy(...byCreation).prepare();
  const listAll = untilChanged(store.sqlite, () => listQuery.all().map(toCard));

  const load = (id: string): CardRow => db.select().from(cards).where(eq(cards.id, id)).get() ?? fail('card_not_found', `no card with id ${id}`);

  /** Writes `changes`, emits the event, and returns the new row; call inside a transaction. */
  const save = (row: CardRow, changes: Partial<CardRow>, now: number): CardRow => {
    const write = { ...changes, ...(changes.status === 'terminated' && { terminatedAt: now }), updatedAt: now };
    const next = { ...row, ...write };
    db.update(cards).set(write).where(eq(cards.id, row.id)).run();
    events.emit('card.updated', row.id, toCard(next));
    if (next.status === 'terminated') {
      jobs.cancel(EXPIRE_JOB, row.id);
      for (const listener of terminateListeners) listener(row.id, now);
    }
    return next;
  };

  const move = (row: CardRow, action: CardAction, now: number, changes: Partial<CardRow> = {}): CardRow => {
    const outcome = cardTransition(row.status as CardStatus, action);
    if (!outcome.ok) fail(outcome.code, outcome.detail);
    return save(row, { status: outcome.next, ...changes }, now);
  };

  /** The statuses of the card's account and customer, which gate creation and activation. */
  const parents = (accountId: string) =>
    db
      .select({ account: accounts.status, customer: customers.status, customerId: customers.id })
      .from(accounts)
      .innerJoin(customers, eq(customers.id, accounts.customerId))
      .where(eq(accounts.id, accountId))
      .get();

  const requireActiveParents = (accountId: string) => {
    const p = parents(accountId) ?? fail('account_not_found', `no account with id ${accountId}`);
    if (p.customer !== 'active') fail('customer_not_active', `customer ${p.customerId} is ${p.customer}; cards need an active customer`);
    if (p.account !== 'active') fail('account_not_active', `account ${accountId} is ${p.account}; cards need an active account`);
  };

  const inStatus = (accountId: string, status: CardStatus) =>
    db.select().from(cards).where(and(eq(cards.accountId, accountId), eq(cards.status, status))).orderBy(...byCreation).all();

  const mutate = (id: string, fn: (row: CardRow, now: number) => CardRow): Card =>
    store.transaction(() => toCard(fn(load(id), clock.now())));

  jobs.define(EXPIRE_JOB, (id, now) => {
    const row = db.select().from(cards).where(eq(cards.id, id)).get();
    if (row && cardTransition(row.status as CardStatus, 'retire').ok) move(row, 'retire', now);
  });

  return {
    /** Calls `listener` inside the transaction of every termination: DELETE, account close, expiry. */
    onTerminate(listener: TerminateListener): () => void {
      terminateListeners.add(listener);
      return () => terminateListeners.delete(listener);
    },

    create(accountId: string, input: NewCard): Card {
      return store.transaction(() => {
        requireActiveParents(accountId);
        if (input.type === 'physical') {
          if (!config.physicalCards) fail('physical_cards_unsupported', 'physical cards are not enabled; start the sandbox with --physical-cards');
          if (!input.shippingAddress) fail('invalid_request', 'physical cards need a shippingAddress', [{ path: 'shippingAddress', message: 'required for physical cards' }]);
        }
        const existing = db.select({ type: cards.type, status: cards.status }).from(cards).where(eq(cards.accountId, accountId)).all();
        if (!withinCardLimit(existing, input.type)) {
          fail('card_limit_reached', `account ${accountId} already has a ${input.type} card; terminate it first (one virtual and one physical card per account)`);
        }
        const now = clock.now();
        const row: CardRow = {
          id: ids.uuid(),
          accountId,
          type: input.type,
          status: 'issuing',
          name: null,
          network: null,
          maskedPan: null,
          expirationDate: null,
          billingAddress: orderAddress(input.billingAddress) as unknown as Record<string, string>,
          shippingAddress: input.shippingAddress ? (orderAddress(input.shippingAddress) as unknown as Record<string, string>) : null,
          cascadeDeactivated: false,
          terminatedAt: null,
          createdAt: now,
          updatedAt: now,
        };
        db.insert(cards).values(row).run();
        const card = toCard(row);
        events.emit('card.updated', row.id, card);
        return card;
      });
    },

    get: (id: string): Card => toCard(load(id)),

    list: (): Card[] => listAll(),

    listForAccount(accountId: string): Card[] {
      if (!parents(accountId)) fail('account_not_found', `no account with id ${accountId}`);
      return db.select().from(cards).where(eq(cards.accountId, accountId)).orderBy(...byCreation).all().map(toCard);
    },

    deactivate: (id: string): Card => mutate(id, (row, now) => move(row, 'deactivate', now, { cascadeDeactivated: false })),

    activate: (id: string): Card =>
      mutate(id, (row, now) => {
        const outcome = cardTransition(row.status as CardStatus, 'activate');
        if (outcome.ok) requireActiveParents(row.accountId);
        return move(row, 'activate', now, { cascadeDeactivated: false });
      }),

    terminate: (id: string): Card => mutate(id, (row, now) => move(row, 'terminate', now)),

    /**
     * Simulator: the card is issued with its name, network, masked PAN and expiry, and a job ends
     * it after its expiry month. Issued while its account or customer is inactive, it starts
     * inactive and marked as cascade-deactivated, so their activation brings it to life.
     */
    issue: (id: string): Card =>
      mutate(id, (row, now) => {
        const outcome = cardTransition(row.status as CardStatus, 'issue');
        if (!outcome.ok) fail(outcome.code, outcome.detail);
        const p = parents(row.accountId)!;
        const dormant = p.account !== 'active' || p.customer !== 'active';
        const expiration = expirationDate(now);
        jobs.schedule(EXPIRE_JOB, row.id, expiresAt(expiration));
        return save(row, {
          status: dormant ? 'inactive' : outcome.next,
          cascadeDeactivated: dormant,
          name: config.cardholderName,
          network: config.network,
          maskedPan: maskPan(generatePan(config.network, (n) => random.bytes(n))),
          expirationDate: expiration,
        }, now);
      }),

    /** Simulator: issuance failed. */
    fail: (id: string): Card => mutate(id, (row, now) => move(row, 'fail', now)),

    /** Account cascade: its active cards become inactive, marked so that `restoreForAccount` brings back exactly these. */
    deactivateForAccount(accountId: string, now: number): void {
      for (const row of inStatus(accountId, 'active')) move(row, 'deactivate', now, { cascadeDeactivated: true });
    },

    restoreForAccount(accountId: string, now: number): void {
      for (const row of inStatus(accountId, 'inactive')) {
        if (row.cascadeDeactivated) move(row, 'activate', now, { cascadeDeactivated: false });
      }
    },

    /** The account closed: every card still alive is terminated. */
    retireForAccount(accountId: string, now: number): void {
      const alive = Object.keys(CARD_MACHINE.actions.retire.from);
      const rows = db.select().from(cards).where(and(eq(cards.accountId, accountId), inArray(cards.status, alive))).orderBy(...byCreation).all();
      for (const row of rows) move(row, 'retire', now);
    },
  };
}

export type Cards = ReturnType<typeof createCards>;
