/**
 * `verify|reject <customerId>`, `issue|fail <cardId>`, `capture|release <authorisationId>`: the
 * simulator's empty-bodied PATCHes, sent through the control plane's mirror of /v1/simulator;
 * `capture --amount` captures part of a hold (docs/money-path.md: Partial captures).
 */
import { z } from 'zod';
import type { Client } from '../client.js';
import { command, printed, tool } from '../command.js';

const SIMULATIONS = {
  verify: { noun: 'customer', operation: 'simulateVerifyCustomer', done: 'verified' },
  reject: { noun: 'customer', operation: 'simulateRejectCustomer', done: 'rejected' },
  issue: { noun: 'card', operation: 'simulateIssueCard', done: 'issued' },
  fail: { noun: 'card', operation: 'simulateCardFail', done: 'failed to issue' },
  capture: { noun: 'authorisation', operation: 'simulateCardAuthorisationCapture', done: 'is being captured' },
  release: { noun: 'authorisation', operation: 'simulateCardAuthorisationRelease', done: 'is being released' },
} as const;

export type Simulation = keyof typeof SIMULATIONS;

/** The simulator answers 202 with no body (then --json prints nothing: scripts rely on the exit code). */
export const simulate = printed(
  (client: Client, action: Simulation, id: string, amount?: string): Promise<unknown> =>
    action === 'capture' && amount !== undefined ? client.simulateCardAuthorisationCapture(id, { amount }) : client[SIMULATIONS[action].operation](id),
  ({ io }, _body, action, id, amount) =>
    io.out(
      `${io.color.green('✓')} ${SIMULATIONS[action].noun} ${io.color.bold(id)} ${SIMULATIONS[action].done}${amount === undefined ? '' : ` for ${amount}, the rest released`}`,
    ),
);

/** Only capture takes more than the id: the part to capture. */
const AMOUNT = {
  flags: '--amount <decimal>',
  description: 'capture this much of it, in its currency (> 0, at most what was authorised); the rest is released',
};

const COMMANDS: [Simulation, string, string][] = [
  ['verify', 'Simulate KYC success: the customer becomes active', 'KYC passes: the customer becomes active (customer.updated).'],
  ['reject', 'Simulate KYC rejection', 'KYC fails: the customer is rejected.'],
  ['issue', 'Simulate card issuance: the card becomes active with a PAN and expiry', 'The card issuer issues the card: it becomes active.'],
  ['fail', 'Simulate failed card issuance', 'The card issuer fails to issue the card.'],
  [
    'capture',
    'Capture an authorisation created with --no-capture, whole or --amount of it',
    'Capture a pending authorisation, whole or amount of it (the rest released).',
  ],
  ['release', 'Release an authorisation created with --no-capture', 'Release a pending authorisation.'],
];

export const simulateCommands = COMMANDS.map(([action, description, toolDescription]) => {
  const noun = SIMULATIONS[action].noun;
  const argument = `<${noun}Id>`;
  const capture = action === 'capture';
  return command<{ amount?: string }>({
    name: action,
    args: argument,
    description,
    examples: [`${action} ${argument}`, ...(capture ? [`capture ${argument} --amount 5`] : [])],
    ...(capture && { options: [AMOUNT] }),
    run: (flags, id) => (ctx) => simulate(ctx, action, id, flags.amount),
    tool: tool({
      description: toolDescription,
      input: {
        [`${noun}Id`]: z.string().describe(`the ${noun}'s id`),
        ...(capture && { amount: z.string().optional().describe('the part to capture, in its currency; the whole when left out') }),
      },
      data: (client, args) => {
        const input = args as Record<string, unknown>;
        return simulate.data(client, action, String(input[`${noun}Id`]), capture ? (input.amount as string | undefined) : undefined);
      },
    }),
  });
});
