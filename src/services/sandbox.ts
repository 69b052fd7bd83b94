/**
 * The emulator's own use cases behind /_sandbox, for one programme: time travel (advance the clock,
 * running what falls due, and keep it so a restart with a file database resumes at the same time),
 * reset (wipe the world, keep credentials and keys) and seed (load a world document).
 */
import { eq } from 'drizzle-orm';
import type { Clock } from '../kernel/clock.js';
import type { Core } from './core.js';
import { SandboxError } from '../domain/errors.js';
import { DEFAULT_BILLING_ADDRESS, seedPath, type SeedPath as Path } from '../domain/seed.js';
import { advanceTarget, type AdvanceRequest } from '../domain/time-travel.js';
import { WORLD_TABLES, type WorldTable, type WorldTableName } from '../store/world.js';
import type { SeedAccount, SeedCard, SeedCustomer, SeedDocument, SeedResult } from '../wire/seed.js';
import type { Accounts } from './accounts.js';
import type { Authorisations } from './authorisations.js';
import type { Cards } from './cards.js';
import type { Refunds } from './refunds.js';
import { seedPayments } from './seed-payments.js';
import type { Transactions } from './transactions.js';
import type { Customers } from './customers.js';
import type { DeliveryLab } from './delivery-lab.js';
import type { Engine } from './engine.js';
import type { FundsService } from './funds.js';
import type { Scheduler } from '../kernel/scheduler.js';
import type { Webhooks } from './webhooks.js';

export type ResetCounts = Record<WorldTableName, number>;

/** Keeps a programme's clock where it is, so that a restart with a file database resumes there. */
export type ClockKeeper = (clock: Clock) => void;

export interface SandboxServices {
  keepClock: ClockKeeper;
  scheduler: Scheduler;
  engine: Engine;
  webhooks: Webhooks;
  lab: DeliveryLab;
  customers: Customers;
  accounts: Accounts;
  cards: Cards;
  authorisations: Authorisations;
  funds: FundsService;
  transactions: Transactions;
  refunds: Refunds;
}

/** A refusal while loading, re-addressed to the place in the document that caused it. */
function located(error: unknown, path: Path): unknown {
  if (!(error instanceof SandboxError) || error.code === 'internal_error') return error;
  const place = seedPath(path);
  // Services name fields relative to their own input (`currencies.0`); prefix them with the item.
  const errors = error.errors?.length
    ? error.errors.map((e) => ({ path: seedPath([...path, ...e.path.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k))]), message: e.message }))
    : [{ path: place, message: `${error.code}: ${error.detail}` }];
  return new SandboxError('invalid_request', `the seed document was refused at ${place} (nothing was loaded): ${error.detail}`, errors);
}

function at<T>(path: Path, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw located(error, path);
  }
}

export function createSandboxControl(core: Core, services: SandboxServices) {
  const { store, clock, random, programme } = core;
  const { scheduler, engine, webhooks, lab, customers, accounts, cards, keepClock } = services;
  const payments = seedPayments(services, at);

  /** Issued, a card makes its payments while active, then goes where the document says. */
  const seedCard = (accountId: string, card: SeedCard, path: Path) => {
    const { id } = at(path, () =>
      cards.create(accountId, { type: card.type, billingAddress: card.billingAddress ?? DEFAULT_BILLING_ADDRESS, shippingAddress: card.shippingAddress }),
    );
    at(path, () => {
      if (card.status === 'issue_failed') cards.fail(id);
      else if (card.status !== 'issuing') cards.issue(id);
    });
    const paid = payments(id, card, path);
    at(path, () => {
      if (card.status === 'inactive') cards.deactivate(id);
      if (card.status === 'terminated') cards.terminate(id);
      if (card.status === 'blocked') cards.block(id);
      if (card.status === 'suspended') cards.suspend(id);
    });
    return { id, paid };
  };

  const seedAccount = (customerId: string, account: SeedAccount, path: Path) => {
    const { id } = at(path, () => accounts.create(customerId, { type: 'card_account', currencies: account.currencies }));
    // Its own balance before its payments, which then move it as they would (docs/money-path.md: Seed worlds with payments).
    if (account.balance !== undefined) services.funds.set(id, account.balance);
    // Seeding has no wallet to sign the deployment challenge: approve and deploy directly.
    at(path, () => {
      if (account.status !== 'initiating' && account.status !== 'failed') accounts.approve(id);
      if (account.status !== 'initiating' && account.status !== 'pending' && account.status !== 'failed') accounts.deploy(id);
      if (account.status === 'failed') accounts.fail(id);
    });
    const seededCards = account.cards.map((card, i) => seedCard(id, card, [...path, 'cards', i]));
    at(path, () => {
      if (account.status === 'inactive') accounts.deactivate(id);
      if (account.status === 'closed') accounts.close(id);
    });
    return { id, seededCards };
  };

  const seedCustomer = (customer: SeedCustomer, path: Path) => {
    const chainId = customer.chainId ?? `${engine.chains()[0]!.id}:0x${random.bytes(20).toString('hex')}`;
    const { id } = at(path, () => customers.create({ externalId: customer.externalId, chainId }));
    at(path, () => {
      if (customer.status === 'rejected') customers.reject(id);
      else if (customer.status !== 'initiating') customers.verify(id);
    });
    const children = customer.accounts.map((account, i) => seedAccount(id, account, [...path, 'accounts', i]));
    if (customer.status === 'inactive') at(path, () => customers.deactivate(id));
    return { id, children };
  };

  return {
    /** Moves the clock forward, running every job and delivery attempt that falls due on the way. */
    async advance(request: AdvanceRequest): Promise<{ now: number; ran: number }> {
      const result = await scheduler.advance(advanceTarget(request, clock.now()));
      keepClock(clock);
      return result;
    },

    /**
     * Loads a seed world through the services (so every change emits its event) in ONE
     * transaction: the first refusal undoes everything and names the place in the document.
     */
    seed(document: SeedDocument): SeedResult {
      return store.transaction(() => {
        const hooks = document.webhooks.map((hook, i) => at(['webhooks', i], () => webhooks.put({ callbackUrl: hook.callbackUrl, types: hook.types })));
        const seeded = document.customers.map((customer, i) => seedCustomer(customer, ['customers', i]));
        // Read back at the end: a parent's deactivation or closure cascades onto its children.
        return {
          webhooks: hooks.map(({ id, callbackUrl }) => ({ id, callbackUrl })),
          customers: seeded.map(({ id, children }) => {
            const { externalId, status } = customers.get(id);
            return {
              id,
              externalId,
              status,
              accounts: children.map((account) => ({
                id: account.id,
                status: accounts.get(account.id).status,
                cards: account.seededCards.map(({ id: cardId, paid }) => ({ id: cardId, status: cards.get(cardId).status, ...paid })),
              })),
            };
          }),
        };
      });
    },

    /** Whether the world is empty: no customers and no webhooks. */
    isEmpty(): boolean {
      return customers.list().length === 0 && webhooks.list().length === 0;
    },

    /**
     * Wipes every resource, event, delivery, job and idempotency key of the programme in one
     * transaction. The programme's own delivery-lab settings stay (docs/webhooks.md: Webhooks → The delivery lab).
     */
    reset(): ResetCounts {
      const wiped = store.transaction(() => {
        const counts = {} as ResetCounts;
        for (const [name, table] of Object.entries(WORLD_TABLES) as [WorldTableName, WorldTable][]) {
          counts[name] = store.db.delete(table).where(eq(table.programmeId, programme)).run().changes;
        }
        return counts;
      });
      // The subscriptions' own faults and pauses went with them.
      lab.reload();
      return wiped;
    },
  };
}

export type SandboxControl = ReturnType<typeof createSandboxControl>;
