/**
 * `customers list`, `accounts list`, `cards list`, `authorisations list`, `transactions list`: the
 * programme's world as tables, so that every id the simulator commands take (`reverse`, `refund
 * --transaction`…) can be found without curl (docs/cli.md: CLI). They read GET /_sandbox/world;
 * `--json` prints each resource as GET /v1 returns it.
 */
import { ACCOUNT_STATUSES } from '../../domain/account.js';
import { AUTHORISATION_STATUSES } from '../../domain/authorisation.js';
import { CARD_STATUSES } from '../../domain/card.js';
import { CUSTOMER_STATUSES } from '../../domain/customer.js';
import { TRANSACTION_STATUSES } from '../../domain/transaction.js';
import type { Account, Authorisation, Card, Customer, Transaction, World } from '../../client/control.generated.js';
import { z } from 'zod';
import { ClientUsageError, type Client } from '../client.js';
import { command, group, printed, tool } from '../command.js';

interface Listing<T extends { id: string; status: string; cardId?: string | undefined }> {
  of(world: World): T[];
  /** Whether `--card` narrows it: the resources that name a card. */
  byCard?: true;
  statuses: readonly string[];
  columns: string[];
  row(item: T): string[];
}

const customers: Listing<Customer> = {
  of: (world) => world.customers.map(({ accounts: _, ...customer }) => customer),
  statuses: CUSTOMER_STATUSES,
  columns: ['ID', 'EXTERNAL ID', 'STATUS', 'CREATED'],
  row: (c) => [c.id, c.externalId, c.status, c.createdAt],
};
const accounts: Listing<Account> = {
  of: (world) => world.customers.flatMap((c) => c.accounts.map(({ cards: _, transactions: __, ...account }) => account)),
  statuses: ACCOUNT_STATUSES,
  columns: ['ID', 'CUSTOMER', 'STATUS', 'CURRENCIES', 'CREATED'],
  row: (a) => [a.id, a.customerId, a.status, (a.currencies ?? []).join(','), a.createdAt],
};
const cards: Listing<Card> = {
  of: (world) => world.customers.flatMap((c) => c.accounts.flatMap((a) => a.cards.map(({ authorisations: _, transactions: __, ...card }) => card))),
  statuses: CARD_STATUSES,
  columns: ['ID', 'ACCOUNT', 'STATUS', 'TYPE', 'PAN', 'CREATED'],
  row: (c) => [c.id, c.accountId, c.status, c.type, c.maskedPan ?? '', c.createdAt],
};
const authorisations: Listing<Authorisation> = {
  of: (world) => world.customers.flatMap((c) => c.accounts.flatMap((a) => a.cards.flatMap((card) => card.authorisations))),
  byCard: true,
  statuses: AUTHORISATION_STATUSES,
  columns: ['ID', 'CARD', 'STATUS', 'AMOUNT', 'CREATED'],
  row: (a) => [a.id, a.cardId ?? '', a.status, `${a.merchantAmount} ${a.merchantCurrency}`, a.createdAt],
};
const transactions: Listing<Transaction> = {
  // Each account's, those of its cards and those that name none, oldest first.
  of: (world) =>
    world.customers.flatMap((c) =>
      c.accounts.flatMap((a) =>
        [...(a.transactions ?? []), ...a.cards.flatMap((card) => card.transactions)].sort((x, y) => x.createdAt.localeCompare(y.createdAt)),
      ),
    ),
  byCard: true,
  statuses: TRANSACTION_STATUSES,
  columns: ['ID', 'CARD', 'STATUS', 'DIRECTION', 'AMOUNT', 'AUTHORISATION', 'CREATED'],
  row: (t) => [t.id, t.cardId ?? '', t.status, t.direction, `${t.amount} ${t.currency}`, t.authorisationId ?? '', t.createdAt],
};

export const LISTINGS = { customers, accounts, cards, authorisations, transactions } as const;
export type ListingName = keyof typeof LISTINGS;

export const listResources = printed(
  async (client: Client, name: ListingName, status?: string, card?: string) => {
    const listing = LISTINGS[name] as Listing<{ id: string; status: string; cardId?: string }>;
    if (status !== undefined && !listing.statuses.includes(status))
      throw new ClientUsageError(`--status must be one of ${listing.statuses.join(', ')} for ${name}, got "${status}"`);
    const world = await client.getWorld();
    return listing.of(world).filter((item) => (status === undefined || item.status === status) && (card === undefined || item.cardId === card));
  },
  ({ io }, items, name, status, card) => {
    const listing = LISTINGS[name] as Listing<{ id: string; status: string }>;
    if (items.length === 0)
      return io.out(io.color.dim(`no ${name}${status === undefined ? '' : ` with status ${status}`}${card === undefined ? '' : ` of card ${card}`}`));
    io.table(
      listing.columns,
      items.map((item) => listing.row(item).map((cell, i) => (listing.columns[i] === 'STATUS' ? io.status(cell) : cell))),
    );
  },
);

const byCard = (name: ListingName) => (LISTINGS[name] as Listing<{ id: string; status: string }>).byCard === true;

// The world, for the ids the simulator commands take (docs/cli.md: CLI).
export const listCommands = (Object.keys(LISTINGS) as ListingName[]).flatMap((name) => [
  group(name, `The programme's ${name}`),
  command<{ status?: string; card?: string }>({
    name: `${name} list`,
    description: `List the ${name}, oldest first, with their ids and statuses`,
    examples: [`${name} list`, `${name} list --status ${LISTINGS[name].statuses[0]} --json`, ...(byCard(name) ? [`${name} list --card <cardId>`] : [])],
    isDefault: true,
    options: [
      { flags: '--status <status>', description: `only those in this status (${LISTINGS[name].statuses.join(', ')})` },
      ...(byCard(name) ? [{ flags: '--card <cardId>', description: 'only those of this card' }] : []),
    ],
    run: (flags) => (ctx) => listResources(ctx, name, flags.status, flags.card),
    tool: tool({
      description: `The programme's ${name}, oldest first, with their ids and statuses (as GET /v1 returns each).`,
      input: {
        status: z
          .enum(LISTINGS[name].statuses as unknown as [string, ...string[]])
          .optional()
          .describe('only those in this status'),
        ...(byCard(name) && { card: z.string().optional().describe('only those of this card (its id)') }),
      },
      data: (client, { status, card }) => listResources.data(client, name, status, card as string | undefined),
    }),
  }),
]);
