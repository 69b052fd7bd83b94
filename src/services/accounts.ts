/**
 * Accounts (docs/api.md: Customers, accounts and cards): creation for an active customer with a challenge, the customer's
 * signature approving deployment, the deployment job that gives the account its smart-account
 * address 2 s later (or the sandbox's control that fails it), activate/deactivate (cascading to
 * cards), close, and the customer cascade.
 * Every change writes one `account.updated` event in its transaction.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Core } from './core.js';
import { ACCOUNT_MACHINE, accountTransition, DEPLOYMENT_MS } from '../domain/account.js';
import { smartAccountAddress } from '../domain/smart-account.js';
import { parseAccountId } from '../domain/caip.js';
import { arrival, inactiveParent, restoredWithParent, takenDownWithParent } from '../domain/cascade.js';
import { fail, type FieldError } from '../domain/errors.js';
import { accounts, customers, programmes } from '../store/schema.js';
import { toAccount, type Account, type NewAccount } from '../wire/account.js';
import type { OwnerSignature } from '../wire/challenge.js';
import type { Cards } from './cards.js';
import { checkProof, issueChallenge } from './challenges.js';
import type { Engine } from './engine.js';
import type { Events } from './outbox.js';
import type { Jobs } from './jobs.js';
import { lifecycle } from './lifecycle.js';

type AccountRow = typeof accounts.$inferSelect;
type CustomerRow = typeof customers.$inferSelect;

const DEPLOY_JOB = 'account.deploy';

export function createAccounts(core: Core, { events, jobs, engine, cards }: { events: Events; jobs: Jobs; engine: Engine; cards: Cards }) {
  const { store, clock, ids, random, programme } = core;
  const { db } = store;
  const mine = eq(accounts.programmeId, programme);
  const byId = (id: string) => and(mine, eq(accounts.id, id));
  const byCreation = [asc(accounts.createdAt), asc(sql`rowid`)];
  const account = lifecycle(core, events, {
    table: accounts,
    machine: ACCOUNT_MACHINE,
    event: 'account.updated',
    notFound: 'account_not_found',
    view: toAccount,
  });
  const { move } = account;

  const findCustomer = (id: string): CustomerRow | undefined =>
    db
      .select()
      .from(customers)
      .where(and(eq(customers.programmeId, programme), eq(customers.id, id)))
      .get();
  const customerOf = (row: AccountRow): CustomerRow => findCustomer(row.customerId)!;
  const accountsOf = (customerId: string) =>
    db
      .select()
      .from(accounts)
      .where(and(mine, eq(accounts.customerId, customerId)))
      .orderBy(...byCreation)
      .all();

  /** Accounts are opened and activated only under an active customer. */
  const requireActiveCustomer = (customer: CustomerRow, why: string) => {
    const refusal = inactiveParent([{ kind: 'customer', id: customer.id, status: customer.status }], () => why);
    if (refusal) fail(refusal.code, refusal.detail);
  };

  const challengeFor = (id: string, wallet: string, now: number) =>
    issueChallenge(random, now, { wallet, statement: `Approve the deployment of card account ${id}.`, requestId: id });

  /** Currencies must each have an asset on the customer's chain; names every one that does not. */
  const checkCurrencies = (currencies: string[], chain: string): void => {
    const errors: FieldError[] = [];
    currencies.forEach((currency, i) => {
      if (currencies.indexOf(currency) !== i) errors.push({ path: `currencies.${i}`, message: `${currency} is listed twice` });
      else if (!engine.tokenFor(chain, currency))
        errors.push({ path: `currencies.${i}`, message: `${currency} has no asset on ${chain}; GET /v1/assets?chain=${chain} lists them` });
    });
    if (errors.length) fail('invalid_request', `unsupported currencies: ${errors.map((e) => e.path).join(', ')}`, errors);
  };

  /** Pending → active at its deployment time; under an inactive customer it arrives inactive (domain/cascade.ts). */
  const deploy = (row: AccountRow, now: number): AccountRow => {
    const outcome = accountTransition(row.status, 'deploy');
    if (!outcome.ok) fail(outcome.code, outcome.detail);
    const customer = customerOf(row);
    const { chain, address } = parseAccountId(customer.chainId)!;
    jobs.cancel(DEPLOY_JOB, row.id);
    return account.save(row, { ...arrival(outcome.next, customer.status === 'active'), chainId: `${chain}:${smartAccountAddress(address, row.id)}` }, now);
  };

  jobs.define(DEPLOY_JOB, (id, now) => {
    const row = account.find(id);
    if (row?.status === 'pending') deploy(row, now);
  });

  // Set when the programme is made, so read once (docs/money-path.md: Funds).
  const startingBalance =
    db.select({ balance: programmes.startingBalance }).from(programmes).where(eq(programmes.id, programme)).get()?.balance ?? core.config.startingBalance;

  const service = {
    /** `currencies` may come unchecked (a seed world's): they are checked here against the customer's chain. */
    create(customerId: string, input: Omit<NewAccount, 'currencies'> & { currencies: string[] }): Account & { challenge: string } {
      return store.transaction(() => {
        const customer = findCustomer(customerId) ?? fail('customer_not_found', `no customer with id ${customerId}`);
        requireActiveCustomer(customer, 'accounts need an active customer');
        checkCurrencies(input.currencies, parseAccountId(customer.chainId)!.chain);
        const now = clock.now();
        const id = ids.uuid();
        const row: AccountRow = {
          programmeId: programme,
          id,
          customerId,
          type: input.type,
          currencies: input.currencies,
          status: 'initiating',
          chainId: null,
          cascadeDeactivated: false,
          balance: startingBalance,
          createdAt: now,
          updatedAt: now,
          ...challengeFor(id, customer.chainId, now),
        };
        return { ...account.create(row), challenge: row.challenge! };
      });
    },

    get: (id: string): Account => toAccount(account.load(id)),

    list: (): Account[] =>
      db
        .select()
        .from(accounts)
        .where(mine)
        .orderBy(...byCreation)
        .all()
        .map(toAccount),

    listForCustomer(customerId: string): Account[] {
      if (!findCustomer(customerId)) fail('customer_not_found', `no customer with id ${customerId}`);
      return accountsOf(customerId).map(toAccount);
    },

    /** A new challenge, replacing any earlier one (the challenge is not part of the Account, so no event). */
    challenge(id: string): { challenge: string } {
      return store.transaction(() => {
        const row = account.load(id);
        const fresh = challengeFor(id, customerOf(row).chainId, clock.now());
        db.update(accounts).set(fresh).where(byId(id)).run();
        return { challenge: fresh.challenge };
      });
    },

    /** The customer's wallet signed the challenge: deployment starts. A wrong signer gets a new challenge and a refusal. */
    signChallenge(id: string, proof: OwnerSignature): void {
      const refusal = store.transaction(() => {
        const row = account.load(id);
        const check = accountTransition(row.status, 'sign');
        if (row.status === 'failed') fail('invalid_state_transition', `account ${id} is failed; its deployment will never be approved`);
        if (!check.ok) fail(check.code, `the challenge of account ${id} was already signed; the account is ${row.status}`);
        const now = clock.now();
        const wallet = customerOf(row).chainId;
        const outcome = checkProof(row, proof, wallet, now, `/v1/accounts/${id}/challenge`);
        if (!outcome.ok) {
          db.update(accounts)
            .set(challengeFor(id, wallet, now))
            .where(byId(id))
            .run();
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
      account.mutate(id, (row, now) => {
        jobs.schedule(DEPLOY_JOB, id, now + DEPLOYMENT_MS);
        return move(row, 'sign', now);
      }),

    /** Finishes a pending deployment now instead of waiting for its job. */
    deploy: (id: string): Account => account.mutate(id, deploy),

    /**
     * The sandbox fails an account whose deployment never finished (docs/money-path.md: Accounts
     * that fail): `failed`, for good. Such an account never had cards; were there any, they would
     * end as a closed account's do.
     */
    fail: (id: string): Account =>
      account.mutate(id, (row, now) => {
        const next = move(row, 'fail', now);
        jobs.cancel(DEPLOY_JOB, id);
        cards.retireForAccount(id, now);
        return next;
      }),

    deactivate: (id: string): Account =>
      account.mutate(id, (row, now) => {
        const next = move(row, 'deactivate', now, { cascadeDeactivated: false });
        cards.deactivateForAccount(id, now);
        return next;
      }),

    activate: (id: string): Account =>
      account.mutate(id, (row, now) => {
        if (accountTransition(row.status, 'activate').ok) requireActiveCustomer(customerOf(row), 'activate the customer first');
        const next = move(row, 'activate', now, { cascadeDeactivated: false });
        cards.restoreForAccount(id, now);
        return next;
      }),

    close: (id: string): Account =>
      account.mutate(id, (row, now) => {
        const next = move(row, 'close', now, { cascadeDeactivated: false });
        cards.retireForAccount(id, now);
        return next;
      }),

    /** Customer cascade: its active accounts (and their active cards) become inactive, marked for restoring. */
    deactivateForCustomer(customerId: string, now: number): void {
      for (const row of accountsOf(customerId).filter(takenDownWithParent)) {
        move(row, 'deactivate', now, { cascadeDeactivated: true });
        cards.deactivateForAccount(row.id, now);
      }
    },

    /** Brings back exactly the accounts (and their cards) the customer cascade deactivated. */
    restoreForCustomer(customerId: string, now: number): void {
      for (const row of accountsOf(customerId).filter(restoredWithParent)) {
        move(row, 'activate', now, { cascadeDeactivated: false });
        cards.restoreForAccount(row.id, now);
      }
    },
  };
  return service;
}

export type Accounts = ReturnType<typeof createAccounts>;
