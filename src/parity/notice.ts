/**
 * What parity says before it starts (docs/parity.md: What it touches on the upstream): what it will
 * make on the upstream, that it touches nothing else, and how it leaves what it made. Worked out from
 * the journey, so that it cannot say less than the journey does. Pure.
 */
import type { Step } from './step.js';
import { count } from '../domain/words.js';

export interface NoticeOptions {
  upstream: string;
  apiKey: string;
  local: string;
  /** Whether parity registers a signing key of its own on the upstream (no --signing-key given). */
  ownKey: boolean;
}

export function notice(journey: readonly Step[], options: NoticeOptions): string {
  const made = (kind: string) => journey.filter((s) => s.creates?.kind === kind).length;
  const customers = made('customer');
  const refusedCustomers = journey.filter((s) => s.creates?.kind === 'customer' && s.id.startsWith('refuse-')).length;
  const authorisations = journey.filter((s) => s.operationId === 'simulateCardAuthorisation').length;
  const things = [
    `${count(customers - refusedCustomers, 'customer')}${refusedCustomers ? ` (${customers} if the upstream takes a reused Idempotency-Key)` : ''}`,
    count(made('account'), 'account'),
    count(made('card'), 'virtual card'),
    `${count(authorisations, 'simulated authorisation')} with their transactions`,
    `${count(made('webhook'), 'webhook subscription')} to https://parity-<run>.invalid, which receives nothing`,
  ];
  return [
    `parity: ${count(journey.length, 'step')} against ${options.upstream} (API key ${options.apiKey}) and ${options.local}.`,
    `On the upstream it makes ${things.join(', ')}, and touches nothing else: no credential is changed, and no signing key${options.ownKey ? ' but one of its own, registered for the run and deleted after it' : ''}.`,
    `It ends what it made as far as the API allows: cards deleted, accounts closed, webhooks deleted, customers deactivated (the API deletes no customer).`,
  ].join('\n');
}
