/**
 * `balance <accountId> [--set <amount>]`: an account's funds (docs/money-path.md: Funds) — its
 * balance, what its pending authorisations hold and what is available — or its balance set.
 */
import { z } from 'zod';
import type { Funds } from '../../client/control.generated.js';
import type { Client } from '../client.js';
import { command, printed, tool } from '../command.js';

export const balance = printed(
  (client: Client, accountId: string, set?: string): Promise<Funds> =>
    set === undefined ? client.getBalance(accountId) : client.setBalance(accountId, { amount: set }),
  ({ io }, funds) => io.table(['BALANCE', 'HELD', 'AVAILABLE'], [[funds.balance, funds.held, funds.available]]),
);

export const balanceCommands = [
  command<{ set?: string }>({
    name: 'balance',
    args: '<accountId>',
    description: "An account's balance, what its pending authorisations hold and what is available; --set to set the balance",
    examples: ['balance <accountId>', 'balance <accountId> --set 100', 'balance <accountId> --json'],
    options: [{ flags: '--set <amount>', description: "the new balance in the account's currency, e.g. 100" }],
    run: (flags, accountId) => (ctx) => balance(ctx, accountId, flags.set),
    tool: tool({
      description: "An account's balance, held and available amounts in its currency; with amount, sets the balance first.",
      input: {
        accountId: z.string().describe('the account id'),
        amount: z.string().optional().describe('the new balance, a decimal string such as "100"'),
      },
      data: (client, { accountId, amount }) => balance.data(client, accountId, amount),
    }),
  }),
];
