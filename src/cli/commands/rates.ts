/**
 * `rates [show]`, `rates set EUR=0.95 …`, `rates reset`: the exchange rates the programme's
 * conversions use (docs/money-path.md: Moving rates), units of a currency per one USD; what is
 * moved replaces the shipped table's rate until `rates reset`.
 */
import { z } from 'zod';
import type { Rates } from '../../client/control.generated.js';
import type { Client, CommandContext } from '../client.js';
import { command, group, printed, tool, UsageError } from '../command.js';

const print = ({ io }: CommandContext, rates: Rates) =>
  io.table(
    ['CURRENCY', `PER 1 ${rates.base}`, 'MOVED'],
    Object.entries(rates.rates).map(([currency, rate]) => [currency, rate, currency in rates.moved ? 'moved' : '']),
  );

export const showRates = printed((client: Client) => client.getRates(), print);

export const setRates = printed((client: Client, moved: Record<string, string>) => client.setRates(moved), print);

/** `EUR=0.95` pairs as the body of PUT /_sandbox/rates. */
export function ratePairs(pairs: string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const match = /^([^=]+)=(.*)$/.exec(pair);
      if (!match) throw new UsageError(`"${pair}" is not CURRENCY=RATE, such as EUR=0.95`);
      return [match[1]!, match[2]!];
    }),
  );
}

export const ratesCommands = [
  group('rates', 'Exchange rates: units of each currency per one USD, for every conversion from now on'),
  command({
    name: 'rates show',
    description: 'Show the rates conversions use now, marking those moved from the shipped table',
    examples: ['rates', 'rates show --json'],
    isDefault: true,
    run: () => showRates,
    tool: { description: "The programme's exchange rates (units per USD) and those it moved.", input: {}, data: (client) => showRates.data(client) },
  }),
  command({
    name: 'rates set',
    args: '<pairs...>',
    description: 'Move rates for every conversion from now on (a capture converts at the rate of its own time); the others keep the shipped rate',
    examples: ['rates set EUR=0.95', 'rates set EUR=0.95 GBP=0.8'],
    // A variadic argument arrives as one list.
    run:
      (_flags, ...pairs) =>
      (ctx) =>
        setRates(ctx, ratePairs(pairs.flat())),
    tool: tool({
      description: 'Move exchange rates, units per USD such as {"EUR":"0.95"}, replacing what was moved; {} for the shipped table.',
      input: { rates: z.record(z.string(), z.string()).describe('currency → units per USD, such as {"EUR":"0.95"}') },
      data: (client, { rates }) => setRates.data(client, rates),
    }),
  }),
  command({
    name: 'rates reset',
    description: 'Back to the shipped rate table',
    examples: ['rates reset'],
    run: () => (ctx) => setRates(ctx, {}),
    tool: { description: 'Back to the shipped rate table.', input: {}, data: (client) => setRates.data(client, {}) },
  }),
];
