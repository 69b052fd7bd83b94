/**
 * Customers (docs/api.md: Customers, accounts and cards): creation with an ownership challenge, the wallet's signature
 * (initiating → screening → verifying), the simulator's verdict, and deactivate/activate with the
 * cascade to accounts and cards. Every change writes one `customer.updated` event in its
 * transaction.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Core } from './core.js';
import { checkWallet, CUSTOMER_MACHINE, customerTransition } from '../domain/customer.js';
import { fail } from '../domain/errors.js';
import { equalsLiteral, names, once, selectList, sqlLiteral } from '../store/prepared.js';
import { customers } from '../store/schema.js';
import { untilChanged } from '../store/read-cache.js';
import type { OwnerSignature } from '../wire/challenge.js';
import { toCustomer, type Customer, type NewCustomer } from '../wire/customer.js';
import type { Accounts } from './accounts.js';
import { checkProof, isLive, issueChallenge } from './challenges.js';
import type { Engine } from './engine.js';
import type { Events } from './outbox.js';
import { lifecycle } from './lifecycle.js';

type CustomerRow = typeof customers.$inferSelect;

const STATEMENT = 'Prove that you own this wallet to become a card programme customer.';

export function createCustomers(core: Core, { events, engine, accounts }: { events: Events; engine: Engine; accounts: Accounts }) {
  const { store, clock, ids, random, programme } = core;
  const { db } = store;
  const mine = eq(customers.programmeId, programme);
  const byId = (id: string) => and(mine, eq(customers.id, id));

  const { create, load, move, mutate } = lifecycle(core, events, {
    table: customers,
    machine: CUSTOMER_MACHINE,
    event: 'customer.updated',
    notFound: 'customer_not_found',
    view: toCustomer,
  });
  // GET /v1/customers serialises every customer each time: the list is prepared once and kept until
  // the database changes (store/read-cache.ts), the programme written into it so that its ORDER BY is
  // not planned again on every run (store/prepared.ts: sqlLiteral).
  const listQuery = db
    .select()
    .from(customers)
    .where(equalsLiteral(customers.programmeId, programme))
    .orderBy(asc(customers.createdAt), asc(sql`rowid`))
    .prepare();
  const listAll = untilChanged(store.sqlite, () => listQuery.all().map(toCustomer));
  // A new customer's wallet or externalId already taken: SQLite's own statement, which reads the three
  // columns the refusal names rather than the whole row as drizzle's would.
  const c = names(customers);
  const clashQuery = once(() =>
    store.sqlite.prepare<[string, string], Pick<CustomerRow, 'id' | 'chainId' | 'chainIdKey'>>(
      `SELECT ${selectList(c, ['id', 'chainId', 'chainIdKey'])} FROM ${c.table}
       WHERE ${c.programmeId} = ${sqlLiteral(programme)} AND (${c.chainIdKey} = ? OR ${c.externalId} = ?)`,
    ),
  );

  const challengeFor = (chainId: string, now: number) => issueChallenge(random, now, { wallet: chainId, statement: STATEMENT });

  return {
    create(input: NewCustomer): Customer & { challenge: string } {
      const wallet = checkWallet(input.chainId, engine.isSupportedChain);
      if (!wallet.ok) fail('invalid_request', `chainId ${input.chainId}: ${wallet.message}`, [{ path: 'chainId', message: wallet.message }]);
      return store.transaction(() => {
        const chainIdKey = input.chainId.toLowerCase();
        const clash = clashQuery().get(chainIdKey, input.externalId);
        if (clash) {
          const what = clash.chainIdKey === chainIdKey ? `chainId ${clash.chainId}` : `externalId ${input.externalId}`;
          fail('customer_already_exists', `customer ${clash.id} already has ${what}`);
        }
        const now = clock.now();
        const row: CustomerRow = {
          programmeId: programme,
          id: ids.uuid(),
          externalId: input.externalId,
          chainId: input.chainId,
          chainIdKey,
          status: 'initiating',
          challengeSigned: false,
          createdAt: now,
          updatedAt: now,
          ...challengeFor(input.chainId, now),
        };
        return { ...create(row), challenge: row.challenge! };
      });
    },

    get: (id: string): Customer => toCustomer(load(id)),

    list: (): Customer[] => listAll(),

    /** The current challenge, or a fresh one once it has expired (the challenge is not part of the Customer, so no event). */
    challenge(id: string): { challenge: string } {
      return store.transaction(() => {
        const row = load(id);
        const now = clock.now();
        if (isLive(row, now)) return { challenge: row.challenge! };
        const fresh = challengeFor(row.chainId, now);
        db.update(customers).set(fresh).where(byId(id)).run();
        return { challenge: fresh.challenge };
      });
    },

    /** The wallet signed the challenge: screening, then verifying at once. A wrong signer gets a new challenge and a refusal. */
    signChallenge(id: string, proof: OwnerSignature): void {
      const refusal = store.transaction(() => {
        const row = load(id);
        if (row.challengeSigned) fail('challenge_already_signed', `the challenge of customer ${id} was already signed; the customer is ${row.status}`);
        const check = customerTransition(row.status, 'sign');
        if (!check.ok) fail(check.code, check.detail);
        const now = clock.now();
        const outcome = checkProof(row, proof, row.chainId, now, `/v1/customers/${id}/challenge`);
        if (!outcome.ok) {
          db.update(customers).set(challengeFor(row.chainId, now)).where(byId(id)).run();
          return outcome.detail;
        }
        move(move(row, 'sign', now, { challengeSigned: true }), 'screen', now);
        return undefined;
      });
      if (refusal) fail('invalid_challenge_signature', `${refusal}; a new challenge has been issued: GET /v1/customers/${id}/challenge`);
    },

    /** Simulator: KYC passed. */
    verify: (id: string): Customer => mutate(id, (row, now) => move(row, 'verify', now)),

    /** Simulator: KYC failed. */
    reject: (id: string): Customer => mutate(id, (row, now) => move(row, 'reject', now)),

    deactivate: (id: string): Customer =>
      mutate(id, (row, now) => {
        const next = move(row, 'deactivate', now);
        accounts.deactivateForCustomer(id, now);
        return next;
      }),

    activate: (id: string): Customer =>
      mutate(id, (row, now) => {
        const next = move(row, 'activate', now);
        accounts.restoreForCustomer(id, now);
        return next;
      }),
  };
}

export type Customers = ReturnType<typeof createCustomers>;
