/**
 * `verify|reject <customerId>`, `issue|fail <cardId>`, `capture|release <authorisationId>`: the
 * simulator's empty-bodied PATCHes, sent through the control plane's mirror of /v1/simulator.
 */
import type { CommandContext } from '../client.js';

const SIMULATIONS = {
  verify: { noun: 'customer', operation: 'simulateVerifyCustomer', done: 'verified' },
  reject: { noun: 'customer', operation: 'simulateRejectCustomer', done: 'rejected' },
  issue: { noun: 'card', operation: 'simulateIssueCard', done: 'issued' },
  fail: { noun: 'card', operation: 'simulateCardFail', done: 'failed to issue' },
  capture: { noun: 'authorisation', operation: 'simulateCardAuthorisationCapture', done: 'is being captured' },
  release: { noun: 'authorisation', operation: 'simulateCardAuthorisationRelease', done: 'is being released' },
} as const;

export type Simulation = keyof typeof SIMULATIONS;

export async function simulate({ client, io, json }: CommandContext, action: Simulation, id: string): Promise<void> {
  const { noun, operation, done } = SIMULATIONS[action];
  const body: unknown = await client[operation](id);
  if (json) {
    // The simulator answers 202 with no body; scripts rely on the exit code.
    if (body !== undefined) io.json(body);
    return;
  }
  io.out(`${io.color.green('✓')} ${noun} ${io.color.bold(id)} ${done}`);
}
