/** `seed <file>`: load a seed world document into the running sandbox, atomically. */
import { MAX_BODY_BYTES, SNAPSHOT_FORMAT } from '../../wire/limits.js';
import { jsonProblem } from '../../domain/json-problem.js';
import { readBounded, readProblem } from '../../kernel/files.js';
import { z } from 'zod';
import { ClientUsageError, type Client } from '../client.js';
import { command, printed, tool } from '../command.js';
import { count } from '../../domain/words.js';

/**
 * Reads and parses a seed file, at most what POST /_sandbox/seed takes (1 MiB); an unreadable,
 * too large or non-JSON file is the caller's mistake. What is wrong is said without a byte of the
 * file: the path may name any file on the machine.
 */
export async function readSeedFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = (await readBounded(file, MAX_BODY_BYTES)).toString('utf8');
  } catch (error) {
    throw new ClientUsageError(`cannot read the seed file ${file}: ${readProblem(error)}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text) as unknown;
  } catch (error) {
    throw new ClientUsageError(`the seed file ${file} is not JSON: ${jsonProblem(error, text)}`);
  }
  if ((document as { format?: unknown } | null)?.format === SNAPSHOT_FORMAT)
    throw new ClientUsageError(
      `${file} is a snapshot file, not a seed world: put it back with \`card-sandbox snapshot restore --file ${file}\`, or start with \`card-sandbox start --import ${file}\``,
    );
  return document;
}

export const seed = printed(
  async (client: Client, file: string) => client.seedWorld((await readSeedFile(file)) as Parameters<Client['seedWorld']>[0]),
  ({ io }, result, file) => {
    const c = io.color;
    const accounts = result.customers.reduce((n, customer) => n + customer.accounts.length, 0);
    const cards = result.customers.reduce((n, customer) => n + customer.accounts.reduce((m, a) => m + a.cards.length, 0), 0);
    io.out(
      `${c.green('✓')} seeded ${count(result.customers.length, 'customer')}, ${count(accounts, 'account')}, ${count(cards, 'card')} and ${count(result.webhooks.length, 'webhook')} from ${file}`,
    );
    for (const hook of result.webhooks) io.out(`  webhook  ${hook.id} → ${hook.callbackUrl}`);
    for (const customer of result.customers) {
      io.out(`  customer ${customer.id} ${io.status(customer.status)} ${c.dim(customer.externalId)}`);
      for (const account of customer.accounts) {
        io.out(`    account ${account.id} ${io.status(account.status)}`);
        for (const card of account.cards) io.out(`      card  ${card.id} ${io.status(card.status)}`);
      }
    }
  },
);

export const seedCommand = command({
  name: 'seed',
  args: '<file>',
  description: 'Load a seed world (customers, accounts, cards, webhooks) into the running sandbox; all or nothing',
  examples: ['seed fixtures/demo.json'],
  run: (_flags, file) => (ctx) => seed(ctx, file),
  tool: tool({
    description: 'Load a seed world from a JSON file (all or nothing).',
    input: { file: z.string().describe('the path of a seed world, such as fixtures/demo.json') },
    data: (client, { file }) => seed.data(client, file),
  }),
});
