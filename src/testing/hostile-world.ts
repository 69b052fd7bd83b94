/**
 * A small world for hostile-input tests: one resource of every kind in the states worth attacking
 * (an unsigned customer and account, an issuing and an active card, a pending and a captured
 * authorisation, a transaction, a webhook, events), its ids by path parameter name, and the
 * fields a valid body needs from it (valid-bodies.ts). Not shipped.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { TestSandbox } from './harness.js';
import { newSigningKey } from './signer.js';
import { BILLING_ADDRESS, DEFAULT_CHAIN } from './world.js';

const randomAddress = () => `0x${randomBytes(20).toString('hex')}`;
/** Made once: generating a P-384 key pair per world would dominate the time a world takes. */
export const SPARE_SIGNING_KEY = newSigningKey();

/** Nothing listens on the discard port, so a delivery attempt fails at once without leaving the machine. */
export const DEAD_CALLBACK = 'http://127.0.0.1:9/hook';

export interface HostileWorld {
  /** Ids of existing resources by path parameter name (`customerId`, `cardId`, …). */
  ids: Record<string, string[]>;
  /** The unsigned customer's and account's current challenges and owner. */
  owner: { chainId: string; customerChallenge: string; accountChallenge: string };
  spareApiKey: string;
  spareSigningKeyId: string;
  /** The world as a snapshot file: what a restore of it takes (exported when first read: most tests never do). */
  readonly snapshotFile: string;
}

/**
 * Wipes what earlier attacks left (so that deliveries and rows do not pile up) and builds the world
 * afresh through the services; ownership is approved directly, as seeding does, since no test here
 * needs a wallet's signature to succeed.
 */
export async function buildWorld(sb: TestSandbox): Promise<HostileWorld> {
  const s = sb.deps.services;
  s.sandbox.reset();
  const newCustomer = () => s.customers.create({ chainId: `${DEFAULT_CHAIN}:${randomAddress()}`, externalId: `ext-${randomUUID()}` });
  const owner = s.customers.verify(newCustomer().id);
  const newAccount = (currencies = ['EUR']) => s.accounts.create(owner.id, { type: 'card_account', currencies });
  const activeAccount = () => {
    const { id } = newAccount();
    s.accounts.approve(id);
    return s.accounts.deploy(id);
  };
  const account = activeAccount();
  const card = s.cards.issue(s.cards.create(account.id, { type: 'virtual', billingAddress: { ...BILLING_ADDRESS } }).id);
  const pendingAuth = s.authorisations.authorise(card.id, { amount: '10', currency: 'EUR', capture: false });
  const capturedAuth = s.authorisations.authorise(card.id, { amount: '5.5', currency: 'GBP', capture: true });
  await s.scheduler.advance(sb.deps.clock.now() + 5_000);
  const other = activeAccount();
  const issuing = s.cards.create(other.id, { type: 'virtual', billingAddress: { ...BILLING_ADDRESS } });
  const unsigned = newCustomer();
  const initiating = newAccount(['EUR', 'USD']);
  const hook = s.webhooks.put({ callbackUrl: DEAD_CALLBACK, types: ['card.updated', 'customer.updated'] });
  const spareApiKey = randomUUID();
  s.auth.putCredentials(spareApiKey, 'spare-secret');
  const spareSigningKeyId = randomUUID();
  s.auth.putSigningKey(spareSigningKeyId, SPARE_SIGNING_KEY.signingKey);
  const [transaction] = s.transactions.forCard(card.id);
  const eventIds = (sb.deps.store.sqlite.prepare('SELECT id FROM events ORDER BY rowid DESC LIMIT 3').all() as { id: string }[]).map((r) => r.id);
  const deliveryIds = (sb.deps.store.sqlite.prepare('SELECT id FROM deliveries ORDER BY rowid DESC LIMIT 2').all() as { id: string }[]).map((r) => r.id);
  let snapshot: string | undefined;
  return {
    ids: {
      customerId: [owner.id, unsigned.id],
      accountId: [account.id, initiating.id, other.id],
      cardId: [card.id, issuing.id],
      authorisationId: [pendingAuth.id, capturedAuth.id],
      transactionId: transaction ? [transaction.id] : [],
      webhookId: [hook.id],
      eventId: eventIds,
      deliveryId: deliveryIds,
    },
    owner: { chainId: owner.chainId, customerChallenge: unsigned.challenge, accountChallenge: initiating.challenge },
    spareApiKey,
    spareSigningKeyId,
    get snapshotFile() {
      return (snapshot ??= sb.deps.snapshots.export(sb.deps.programmes.default()));
    },
  };
}

/** Whether the world is still there: a reset or a deletion may have taken it. */
export function worldStands(sb: TestSandbox, world: HostileWorld): boolean {
  const { sqlite } = sb.deps.store;
  let customer = customerOf.get(sqlite);
  if (!customer) customerOf.set(sqlite, (customer = sqlite.prepare('SELECT 1 FROM customers WHERE id = ?')));
  return customer.get(world.ids.customerId![0]) !== undefined;
}
/** Asked before every request: its statement is prepared once for each database. */
const customerOf = new WeakMap<Database.Database, Database.Statement>();

/** The dotted paths of every field of a body, nested ones included: the places a mutation may hit. */
export function fieldPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key];
    return [path, ...fieldPaths(child, path)];
  });
}

/** A copy of `body` with the field at `path` replaced (or removed, for `undefined`). */
export function withField(body: Record<string, unknown>, path: (string | number)[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}
