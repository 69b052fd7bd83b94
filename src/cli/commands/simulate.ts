/**
 * `verify|reject <customerId>`, `issue|fail <cardId>`, `capture|release <authorisationId>`: the
 * simulator's empty-bodied PATCHes, sent through the control plane's mirror of /v1/simulator.
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
  (client: Client, action: Simulation, id: string): Promise<unknown> => client[SIMULATIONS[action].operation](id),
  ({ io }, _body, action, id) => io.out(`${io.color.green('✓')} ${SIMULATIONS[action].noun} ${io.color.bold(id)} ${SIMULATIONS[action].done}`),
);

const COMMANDS: [Simulation, string, string][] = [
  ['verify', 'Simulate KYC success: the customer becomes active', 'KYC passes: the customer becomes active (customer.updated).'],
  ['reject', 'Simulate KYC rejection', 'KYC fails: the customer is rejected.'],
  ['issue', 'Simulate card issuance: the card becomes active with a PAN and expiry', 'The card issuer issues the card: it becomes active.'],
  ['fail', 'Simulate failed card issuance', 'The card issuer fails to issue the card.'],
  ['capture', 'Capture an authorisation created with --no-capture', 'Capture a pending authorisation.'],
  ['release', 'Release an authorisation created with --no-capture', 'Release a pending authorisation.'],
];

export const simulateCommands = COMMANDS.map(([action, description, toolDescription]) => {
  const argument = `<${SIMULATIONS[action].noun}Id>`;
  return command({
    name: action,
    args: argument,
    description,
    examples: [`${action} ${argument}`],
    run: (_flags, id) => (ctx) => simulate(ctx, action, id),
    tool: tool({
      description: toolDescription,
      input: { [`${SIMULATIONS[action].noun}Id`]: z.string().describe(`the ${SIMULATIONS[action].noun}'s id`) },
      data: (client, args) => simulate.data(client, action, String(Object.values(args)[0])),
    }),
  });
});
