/**
 * `fees [show]`, `fees set --partner --service --network`, `fees clear`: the fees the programme's
 * new transactions carry (docs/money-path.md: Fees), each type a percentage (`0.5%`) or a fixed
 * token amount (`0.10`).
 */
import { z } from 'zod';
import type { Fees } from '../../client/control.generated.js';
import type { Client } from '../client.js';
import { command, group, printed, tool } from '../command.js';

const TYPES = ['partner', 'service', 'network'] as const;

const print = printed(
  (client: Client) => client.getFees(),
  ({ io }, fees: Fees) => {
    const set = TYPES.filter((type) => fees[type] !== undefined);
    if (set.length === 0) return io.out('no fees: new transactions carry fees: []');
    io.table(
      ['TYPE', 'FEE'],
      set.map((type) => [type, fees[type]!]),
    );
  },
);

export const showFees = print;

export const setFees = printed(
  (client: Client, fees: Fees) => client.setFees(fees),
  ({ io }, fees) => {
    const set = TYPES.filter((type) => fees[type] !== undefined).map((type) => `${type} ${fees[type]}`);
    io.out(
      `${io.color.green('✓')} ${set.length ? `every transaction made from now on carries ${set.join(', ')}` : 'no fees: new transactions carry fees: []'}`,
    );
  },
);

const feeInput = z.string().optional().describe('a percentage of the token amount ("0.5%") or a fixed token amount ("0.10")');

export const feesCommands = [
  group('fees', 'Fees: what every new transaction of the programme carries'),
  command({
    name: 'fees show',
    description: "Show the programme's fees",
    examples: ['fees', 'fees show --json'],
    isDefault: true,
    run: () => showFees,
    tool: { description: "The programme's fees: each type a percentage or a fixed token amount.", input: {}, data: (client) => showFees.data(client) },
  }),
  command<{ partner?: string; service?: string; network?: string }>({
    name: 'fees set',
    description: 'Set the fees of every transaction made from now on (the types left out are not charged)',
    examples: ['fees set --partner 0.5% --service 0.10', 'fees set --network 1%'],
    options: TYPES.map((type) => ({ flags: `--${type} <fee>`, description: `the ${type} fee: a percentage (0.5%) or a fixed token amount (0.10)` })),
    run: (flags) => (ctx) => setFees(ctx, Object.fromEntries(TYPES.flatMap((type) => (flags[type] === undefined ? [] : [[type, flags[type]]])))),
    tool: tool({
      description: 'Set the fees of every transaction made from now on; the types left out are not charged.',
      input: { partner: feeInput, service: feeInput, network: feeInput },
      data: (client, input) => setFees.data(client, Object.fromEntries(Object.entries(input).filter(([, fee]) => fee !== undefined))),
    }),
  }),
  command({
    name: 'fees clear',
    description: 'No more fees: new transactions carry fees: []',
    examples: ['fees clear'],
    run: () => (ctx) => setFees(ctx, {}),
    tool: { description: 'No more fees.', input: {}, data: (client) => setFees.data(client, {}) },
  }),
];
