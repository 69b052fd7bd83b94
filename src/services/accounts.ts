/**
 * Accounts (CONTRACT §7 Account): creation for an active customer with a challenge, the
 * customer's signature approving deployment, the deployment job that gives the account its
 * smart-account address 2 s later, activate/deactivate (cascading to cards), close, and the
 * customer cascade. Every change writes one `account.updated` event in its transaction.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { iso } from '../clock.js';
import type { Core } from '../deps.js';
import { accountTransition, DEPLOYMENT_MS, smartAccountAddress, type AccountAction, type AccountStatus, type AccountType } from '../domain/account.js';
import { parseAccountId } from '../domain/caip.js';
import { fail, type FieldError } from '../domain/errors.js';
import { accounts, customers } from '../store/schema.js';
import type { Engine } from './engine.js';
import type { Events } from './events.js';
import type { Jobs } from './jobs.js';
import type { Cards } from './cards.js';
import { checkProof, issueChallenge, type Proof } from './challenges.js';

type AccountRow = typeof accounts.$inferSelect;
type CustomerRow = typeof customers.$inferSelect;

export interface Account {
  id: string;
  customerId: string;
  chainId?: string;
  status: AccountStatus;
  type: AccountType;
  currencies: string[];
  createdAt: string;
  updatedAt: string;
}

export interface NewAccount {
  type: AccountType;
  currencies: string[];
}

const DEPLOY_JOB = 'account.deploy';

/** The account as GET returns it and as its events carry it: YAML field order, absent fields omitted. */
export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    customerId: row.customerId,
    ...(row.chainId !== null && { chainId: row.chainId }),
    status: row.status as AccountStatus,
    type: row.type as AccountType,
    currencies: row.currencies,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function createAccounts(core: Core, { events, jobs, engine, cards }: { events: Events; jobs: Jobs; engine: Engine; cards: Cards }) {
  const { store, clock, ids, random } = core;
  const { db } = store;
  const byCreation = [asc(accounts.createdAt), asc(sql`rowid`)];

  const load = (id: string): AccountRow => db.select().from(accounts).where(eq(accounts.id, id)).get() ?? fail('account_not_found', `no account with id ${id}`);
  const customerOf = (row: AccountRow): CustomerRow => db.select().from(customers).where(eq(customers.id, row.customerId)).get()!;

  const save = (row: AccountRow, changes: Partial<AccountRow>, now: number): AccountRow => {
    const next = { ...row, ...changes, updatedAt: now };
    db.update(accounts).set({ ...changes, updatedAt: now }).where(eq(accounts.id, row.id)).run();
    events.emit('account.updated', row.id, toAccount(next));
    return next;
  };

  const move = (row: AccountRow, action: AccountAction, now: number, changes: Partial<AccountRow> = {}): AccountRow => {
    const outcome = accountTransition(row.status as AccountStatus, action);
    if (!outcome.ok) fail(outcome.code, outcome.detail);
    return save(row, { status: outcome.next, ...changes }, now);
  };

  const challengeFor = (id: string, wallet: string, now: number) =>
    issueChallenge(random, now, { wallet, statement: `Approve the deployment of card account ${id}.`, requestId: id });

  /** Currencies must each have an asset on the customer's chain; names every one that does not. */
  const checkCurrencies = (currencies: string[], chain: string): void => {
    const errors: FieldError[] = [];
    currencies.forEach((currency, i) => {
      if (currencies.indexOf(currency) !== i) errors.push({ path: `currencies.${i}`, message: `${currency} is listed twice` });
      else if (!engine.tokenFor(chain, currency)) errors.push({ path: `currencies.${i}`, message: `${currency} has no asset on ${chain}; GET /v1/assets?chain=${chain} lists them` });
    });
    if (errors.length) fail('invalid_request', `unsupported currencies: ${errors.map((e) => e.path).join(', ')}`, errors);
  };

  /** Pending → active at its deployment time; a customer deactivated meanwhile gets it inactive, restored with them. */
  const deploy = (row: AccountRow, now: number): AccountRow => {
    const outcome = accountTransition(row.status as AccountStatus, 'deploy');
    if (!outcome.ok) fail(outcome.code, outcome.detail);
    const customer = customerOf(row);
    const { chain, address } = parseAccountId(customer.chainId)!;
    const dormant = customer.status !== 'active';
    jobs.cancel(DEPLOY_JOB, row.id);
    return save(row, {
      status: dormant ? 'inactive' : outcome.next,
      cascadeDeactivated: dormant,
      chainId: `${chain}:${smartAccountAddress(address, row.id)}`,
    }, now);
  };

  const mutate = (id: string, fn: (row: AccountRow, now: number) => AccountRow): Account =>
    store.transaction(() => toAccount(fn(load(id), clock.now())));

  jobs.define(DEPLOY_JOB, (id, now) => {
    const row = db.select().from(accounts).where(eq(accounts.id, id)).get();
    if (row?.status === 'pending') deploy(row, now);
  });

  const service = {
    create(customerId: string, input: NewAccount): Account & { challenge: string } {
      return store.transaction(() => {
        const customer = db.select().from(customers).where(eq(customers.id, customerId)).get() ?? fail('customer_not_found', `no customer with id ${customerId}`);
        if (customer.status !== 'active') fail('customer_not_active', `customer ${customerId} is ${customer.status}; accounts need an active customer`);
        checkCurrencies(input.currencies, parseAccountId(customer.chainId)!.chain);
        const now = clock.now();
        const id = ids.uuid();
        const row: AccountRow = {
          id, customerId, type: input.type, currencies: input.currencies, status: 'initiating', chainId: null, cascadeDeactivated: false, createdAt: now, updatedAt: now,
          ...challengeFor(id, customer.chainId, now),
        };
        db.insert(accounts).values(row).run();
        const account = toAccount(row);
        events.emit('account.updated', id, account);
        return { ...account, challenge: row.challenge! };
      });
    },

    get: (id: string): Account => toAccount(load(id)),

    list: (): Account[] => db.select().from(accounts).orderBy(...byCreation).all().map(toAccount),

    listForCustomer(customerId: string): Account[] {
      if (!db.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId)).get()) fail('customer_not_found', `no customer with id ${customerId}`);
      return db.select().from(accounts).where(eq(accounts.customerId, customerId)).orderBy(...byCreation).all().map(toAccount);
    },

    /** A new challenge, replacing any earlier one (the challenge is not part of the Account, so no event). */
    challenge(id: string): { challenge: string } {
      return store.transaction(() => {
        const row = load(id);
        const fresh = challengeFor(id, customerOf(row).chainId, clock.now());
        db.update(accounts).set(fresh).where(eq(accounts.id, id)).run();
        return { challenge: fresh.challenge };
      });
    },

    /** The customer's wallet signed the challenge: deployment starts. A wrong signer gets a new challenge and a refusal. */
    signChallenge(id: string, proof: Proof): void {
      const refusal = store.transaction(() => {
        const row = load(id);
        const check = accountTransition(row.status as AccountStatus, 'sign');
        if (!check.ok) fail(check.code, `the challenge of account ${id} was already signed; the account is ${row.status}`);
        const now = clock.now();
        const wallet = customerOf(row).chainId;
        const outcome = checkProof(row, proof, wallet, now, `/v1/accounts/${id}/challenge`);
        if (!outcome.ok) {
          db.update(accounts).set(challengeFor(id, wallet, now)).where(eq(accounts.id, id)).run();
          return outcome.detail;
        }
        service.approve(id);
        return undefined;
      });
      if (refusal) fail('invalid_challenge_signature', `${refusal}; a new challenge has been issued: GET /v1/accounts/${id}/challenge`);
    },

    /**
     * Ownership proven: initiating → pending, and deployment is scheduled 2 s of sandbox time
     * later. Seeding calls this (and `deploy`) directly, having no wallet to sign with.
     */
    approve: (id: string): Account =>
      mutate(id, (row, now) => {
        jobs.schedule(DEPLOY_JOB, id, now + DEPLOYMENT_MS);
        return move(row, 'sign', now);
      }),

    /** Finishes a pending deployment now instead of waiting for its job. */
    deploy: (id: string): Account => mutate(id, deploy),

    deactivate: (id: string): Account =>
      mutate(id, (row, now) => {
        const next = move(row, 'deactivate', now, { cascadeDeactivated: false });
        cards.deactivateForAccount(id, now);
        return next;
      }),

    activate: (id: string): Account =>
      mutate(id, (row, now) => {
        if (accountTransition(row.status as AccountStatus, 'activate').ok) {
          const customer = customerOf(row);
          if (customer.status !== 'active') fail('customer_not_active', `customer ${customer.id} is ${customer.status}; activate the customer first`);
        }
        const next = move(row, 'activate', now, { cascadeDeactivated: false });
        cards.restoreForAccount(id, now);
        return next;
      }),

    close: (id: string): Account =>
      mutate(id, (row, now) => {
        const next = move(row, 'close', now, { cascadeDeactivated: false });
        cards.retireForAccount(id, now);
        return next;
      }),

    /** Customer cascade: its active accounts (and their active cards) become inactive, marked for restoring. */
    deactivateForCustomer(customerId: string, now: number): void {
      const rows = db.select().from(accounts).where(and(eq(accounts.customerId, customerId), eq(accounts.status, 'active'))).orderBy(...byCreation).all();
      for (const row of rows) {
        move(row, 'deactivate', now, { cascadeDeactivated: true });
        cards.deactivateForAccount(row.id, now);
      }
    },

    /** Brings back exactly the accounts (and their cards) the customer cascade deactivated. */
    restoreForCustomer(customerId: string, now: number): void {
      const rows = db.select().from(accounts).where(and(eq(accounts.customerId, customerId), eq(accounts.status, 'inactive'), eq(accounts.cascadeDeactivated, true))).orderBy(...byCreation).all();
      for (const row of rows) {
        move(row, 'activate', now, { cascadeDeactivated: false });
        cards.restoreForAccount(row.id, now);
      }
    },
  };
  return service;
}

export type Accounts = ReturnType<typeof createAccounts>;
