/** `customers|accounts|cards|authorisations|transactions list` in-process: the world as tables, --status, --card, --json. */
import { beforeAll, expect, it } from 'vitest';
import { cliContext } from '../../testing/cli.js';
import { createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { ClientUsageError } from '../client.js';
import { listResources } from './lists.js';

let sb: TestSandbox;
let seeded: { customers: { id: string; accounts: { id: string; cards: { id: string }[] }[] }[] };
beforeAll(async () => {
  sb = createTestSandbox();
  seeded = (
    await sb.json('POST', '/_sandbox/seed', {
      token: false,
      body: {
        customers: [
          { externalId: 'bob', accounts: [{ currencies: ['EUR'], cards: [{}] }] },
          { externalId: 'carol', status: 'initiating' },
        ],
      },
    })
  ).body;
  const card = seeded.customers[0]!.accounts[0]!.cards[0]!.id;
  expect((await sb.json('POST', `/_sandbox/simulator/cards/${card}/authorisation`, { token: false, body: { amount: '12.50', currency: 'USD' } })).status).toBe(
    201,
  );
});

const rows = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s{2,}/));

it('lists customers with their ids and statuses, filtered by --status', async () => {
  const all = cliContext(sb);
  await listResources(all, 'customers');
  expect(rows(all.stdout()).map((r) => r.slice(0, 3))).toEqual([
    ['ID', 'EXTERNAL ID', 'STATUS'],
    [seeded.customers[0]!.id, 'bob', 'active'],
    [seeded.customers[1]!.id, 'carol', 'initiating'],
  ]);
  const initiating = cliContext(sb, { json: true });
  await listResources(initiating, 'customers', 'initiating');
  expect((JSON.parse(initiating.stdout()) as { externalId: string; accounts?: unknown }[]).map((c) => [c.externalId, c.accounts])).toEqual([
    ['carol', undefined],
  ]);
});

it('lists accounts, cards and authorisations, each as GET /v1 returns it with --json', async () => {
  const account = seeded.customers[0]!.accounts[0]!;
  const cards = cliContext(sb);
  await listResources(cards, 'cards');
  expect(rows(cards.stdout())[1]!.slice(0, 3)).toEqual([account.cards[0]!.id, account.id, 'active']);
  const accounts = cliContext(sb, { json: true });
  await listResources(accounts, 'accounts');
  expect(JSON.parse(accounts.stdout())).toEqual([(await sb.json('GET', `/v1/accounts/${account.id}`)).body]);
  const authorisations = cliContext(sb);
  await listResources(authorisations, 'authorisations', 'pending');
  expect(rows(authorisations.stdout())[1]!.slice(1, 4)).toEqual([account.cards[0]!.id, 'pending', '12.5 USD']);
  const none = cliContext(sb);
  await listResources(none, 'authorisations', 'released');
  expect(none.stdout()).toBe('no authorisations with status released\n');
});

it('refuses a status the resource never has, naming those it has', async () => {
  await expect(listResources(cliContext(sb), 'cards', 'activ')).rejects.toThrow(
    new ClientUsageError('--status must be one of issuing, issue_failed, active, inactive, blocked, suspended, terminated for cards, got "activ"'),
  );
});

it('lists transactions with the ids reverse and refund --transaction take, narrowed by --card', async () => {
  const card = seeded.customers[0]!.accounts[0]!.cards[0]!.id;
  // The authorisation captures itself a second after it was made: its debit is the transaction.
  expect((await sb.json('POST', '/_sandbox/clock/advance', { token: false, body: { by: '2s' } })).status).toBe(200);
  const listed = cliContext(sb, { json: true });
  await listResources(listed, 'transactions', undefined, card);
  const [transaction] = JSON.parse(listed.stdout()) as { id: string }[];
  expect(JSON.parse(listed.stdout())).toEqual([(await sb.json('GET', `/v1/transactions/${transaction!.id}`)).body]);
  const table = cliContext(sb);
  await listResources(table, 'transactions');
  expect(rows(table.stdout())[0]).toEqual(['ID', 'CARD', 'STATUS', 'DIRECTION', 'AMOUNT', 'AUTHORISATION', 'CREATED']);
  expect(rows(table.stdout())[1]!.slice(0, 4)).toEqual([transaction!.id, card, expect.any(String), 'debit']);
  const other = cliContext(sb);
  await listResources(other, 'transactions', undefined, '3b241101-e2bb-4255-8caf-4136c566a962');
  expect(other.stdout()).toBe('no transactions of card 3b241101-e2bb-4255-8caf-4136c566a962\n');
});
