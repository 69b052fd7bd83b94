/**
 * What parity says before it starts (docs/parity.md: What it touches on the upstream): what it will
 * make on the upstream, that it touches nothing else, and how it leaves what it made. Worked out from
 * the journey, so that it cannot say less than the journey does. Pure.
 */
import type { Step } from './step.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export interface NoticeOptions {
  upstream: string;
  apiKey: string;
  local: string;
  /** Whether parity registers a signing key of its own on the upstream (no --signing-key given). */
  ownKey: boolean;
}

export function notice(journey: readonly Step[], options: NoticeOptions): string {
  const count = (kind: string) => journey.filter((s) => s.creates?.kind === kind).length;
  const customers = count('customer');
  const refusedCustomers = journey.filter((s) => s.creates?.kind === 'customer' && s.id.startsWith('refuse-')).length;
  const authorisations = journey.filter((s) => s.operationId === 'simulateCardAuthorisation').length;
  const made = [
    `${plural(customers - refusedCustomers, 'customer')}${refusedCustomers ? ` (${customers} if the upstream takes a reused Idempotency-Key)` : ''}`,
    plural(count('account'), 'account'),
    plural(count('card'), 'virtual card'),
    `${plural(authorisations, 'simulated authorisation')} with their transactions`,
    `${plural(count('webhook'), 'webhook subscription')} to https://parity-<run>.invalid, which receives nothing`,
  ];
  return [
    `parity: ${plural(journey.length, 'step')} against ${options.upstream} (API key ${options.apiKey}) and ${options.local}.`,
    `On the upstream it makes ${made.join(', ')}, and touches nothing else: no credential is changed, and no signing key${options.ownKey ? ' but one of its own, registered for the run and deleted after it' : ''}.`,
    `It ends what it made as far as the API allows: cards deleted, accounts closed, webhooks deleted, customers deactivated (the API deletes no customer).`,
  ].join('\n');
}
