/**
 * `verify|reject <customerId>`, `issue|fail <cardId>`, `capture|release <authorisationId>`: the
 * simulator's empty-bodied PATCHes, sent through the control plane's mirror of /v1/simulator.
 */
import type { CommandContext } from '../client.js';

const SIMULATIONS = {
  verify: { noun: 'customer', path: 'customers/:id/verify', done: 'verified' },
  reject: { noun: 'customer', path: 'customers/:id/reject', done: 'rejected' },
  issue: { noun: 'card', path: 'cards/:id/issue', done: 'issued' },
  fail: { noun: 'card', path: 'cards/:id/fail', done: 'failed to issue' },
  capture: { noun: 'authorisation', path: 'authorisations/:id/capture', done: 'is being captured' },
  release: { noun: 'authorisation', path: 'authorisations/:id/release', done: 'is being released' },
} as const;

export type Simulation = keyof typeof SIMULATIONS;

export async function simulate({ client, io, json }: CommandContext, action: Simulation, id: string): Promise<void> {
  const { noun, path, done } = SIMULATIONS[action];
  const body = await client.request('PATCH', `/simulator/${path.replace(':id', encodeURIComponent(id))}`);
  if (json) {
    // The simulator answers 202 with no body; scripts rely on the exit code.
    if (body !== undefined) io.json(body);
    return;
  }
  io.out(`${io.color.green('✓')} ${noun} ${io.color.bold(id)} ${done}`);
}
