/**
 * `verify|reject <customerId>`, `issue|fail <cardId>`, `capture|release <authorisationId>`: the
 * simulator's empty-bodied PATCHes, sent through the control plane's mirror of /v1/simulator;
 * `capture --amount` captures part of a hold (docs/money-path.md: Partial captures), `--no-final` one
 * of several (docs/money-path.md: Several captures of one hold).
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

/** A capture's part and whether it is the last (docs/money-path.md: Several captures of one hold). */
export interface CapturePart {
  amount?: string | undefined;
  final?: boolean | undefined;
}

const captured = ({ amount, final }: CapturePart) =>
  final === false ? ` for ${amount} now, the rest still held` : amount === undefined ? '' : ` for ${amount}, the rest released`;

/** The simulator answers 202 with no body (then --json prints nothing: scripts rely on the exit code). */
export const simulate = printed(
  (client: Client, action: Simulation, id: string, part: CapturePart = {}): Promise<unknown> =>
    action === 'capture' && (part.amount !== undefined || part.final !== undefined)
      ? client.simulateCardAuthorisationCapture(id, {
          ...(part.amount !== undefined && { amount: part.amount }),
          ...(part.final !== undefined && { final: part.final }),
        })
      : client[SIMULATIONS[action].operation](id),
  ({ io }, _body, action, id, part = {}) =>
    io.out(
      `${io.color.green('✓')} ${SIMULATIONS[action].noun} ${io.color.bold(id)} ${part.final === false ? 'captured in part' : SIMULATIONS[action].done}${captured(part)}`,
    ),
);

/** Only capture takes more than the id: the part to capture, and whether it is the last. */
const CAPTURE_OPTIONS = [
  {
    flags: '--amount <decimal>',
    description: 'capture this much of it, in its currency (> 0; with the captures before, at most what was authorised); the rest is released',
  },
  { flags: '--no-final', description: 'a capture of part: its debit now, the authorisation pending with the rest held for the captures to come' },
];

const COMMANDS: [Simulation, string, string][] = [
  ['verify', 'Simulate KYC success: the customer becomes active', 'KYC passes: the customer becomes active (customer.updated).'],
  ['reject', 'Simulate KYC rejection', 'KYC fails: the customer is rejected.'],
  ['issue', 'Simulate card issuance: the card becomes active with a PAN and expiry', 'The card issuer issues the card: it becomes active.'],
  ['fail', 'Simulate failed card issuance', 'The card issuer fails to issue the card.'],
  [
    'capture',
    'Capture an authorisation created with --no-capture, whole or --amount of it; --no-final to capture again later',
    'Capture a pending authorisation, whole or amount of it (the rest released); final: false keeps the rest held for later captures.',
  ],
  ['release', 'Release an authorisation created with --no-capture', 'Release a pending authorisation.'],
];

export const simulateCommands = COMMANDS.map(([action, description, toolDescription]) => {
  const noun = SIMULATIONS[action].noun;
  const argument = `<${noun}Id>`;
  const capture = action === 'capture';
  return command<{ amount?: string; final?: boolean }>({
    name: action,
    args: argument,
    description,
    examples: [`${action} ${argument}`, ...(capture ? [`capture ${argument} --amount 5`, `capture ${argument} --amount 5 --no-final`] : [])],
    ...(capture && { options: CAPTURE_OPTIONS }),
    // Commander sets final to true unless --no-final is given: send it only when it says something.
    run: (flags, id) => (ctx) => simulate(ctx, action, id, { amount: flags.amount, final: flags.final === false ? false : undefined }),
    tool: tool({
      description: toolDescription,
      input: {
        [`${noun}Id`]: z.string().describe(`the ${noun}'s id`),
        ...(capture && {
          amount: z.string().optional().describe('the part to capture, in its currency; what is left when left out'),
          final: z.boolean().optional().describe('false: a capture of part, the rest staying held for later captures'),
        }),
      },
      data: (client, args) => {
        const input = args as Record<string, unknown>;
        const part = capture ? { amount: input.amount as string | undefined, final: input.final as boolean | undefined } : {};
        return simulate.data(client, action, String(input[`${noun}Id`]), part);
      },
    }),
  });
});
