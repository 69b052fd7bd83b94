/**
 * `api-faults set|show|clear`: the API fault lab from the terminal (docs/api-faults.md: The API fault lab).
 * `set` takes the body of PUT /_sandbox/api/faults as JSON (or just its list of rules); the sandbox
 * checks the values.
 */
import type { ApiFaultRuleView, ApiFaultsView } from '../../client/control.generated.js';
import { API_FAULT_FIELD_NAMES, outcomesText } from '../../domain/api-fault-kinds.js';
import { API_FAULT_EFFECTS, API_FAULT_STATUSES } from '../../domain/api-faults.js';
import { faultText } from '../../wire/fault-text.js';
import { z } from 'zod';
import { ClientUsageError, type Client } from '../client.js';
import { command, group, printed, tool } from '../command.js';
import type { Io } from '../io.js';

const matchText = ({ match }: ApiFaultRuleView) =>
  [match.method, match.path, match.operationId && `(${match.operationId})`].filter(Boolean).join(' ') || 'every request';

function printRules(io: Io, { rules, seed }: ApiFaultsView): void {
  if (rules.length === 0) return io.out(io.color.dim('no API faults'));
  io.table(
    ['#', 'MATCH', 'FAULT', 'RATE', 'LEFT', 'HITS'],
    rules.map((r, i) => [String(i + 1), matchText(r), faultText(r), String(r.rate), r.times === undefined ? '∞' : `${r.remaining}/${r.times}`, String(r.hits)]),
  );
  if (seed !== undefined) io.out(io.color.dim(`seed ${seed}`));
}

/** The body of PUT /_sandbox/api/faults from the JSON given: the body, or just its list of rules. */
function apiFaultsBody(text: string) {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new ClientUsageError(`api faults must be JSON, such as '{"rules":[{"status":503,"times":2}]}': ${(error as Error).message}`);
  }
  return (Array.isArray(body) ? { rules: body } : body) as Parameters<Client['setApiFaults']>[0];
}

export const setApiFaults = printed(
  (client: Client, text: string) => client.setApiFaults(apiFaultsBody(text)),
  ({ io }, answer) => printRules(io, answer),
);

export const showApiFaults = printed(
  (client: Client) => client.getApiFaults(),
  ({ io }, answer) => printRules(io, answer),
);

export const clearApiFaults = printed(
  async (client: Client) => {
    await client.clearApiFaults();
    return { cleared: true };
  },
  ({ io }) => io.out(`${io.color.green('✓')} no API faults`),
);

export const apiFaultsCommands = [
  group('api-faults', 'Faults on demand for API requests: latency, 5xx, 429, closed connections, lost answers'),
  command({
    name: 'api-faults set',
    args: '<json>',
    description: 'Set the rules: the body of PUT /_sandbox/api/faults, or just its list of rules',
    examples: [
      `api-faults set '{"rules":[{"match":{"method":"POST","path":"/v1/customers"},"status":503,"times":2}]}'`,
      `api-faults set '[{"status":503,"effect":"after","rate":0.2}]'`,
      `api-faults set '{"rules":[{"status":429,"retryAfter":"3s","rate":0.5}],"seed":7}'`,
    ],
    run: (_flags, text) => (ctx) => setApiFaults(ctx, text),
    tool: tool({
      description: `API fault lab rules for /v1: ${API_FAULT_FIELD_NAMES.join(', ')} (status ${API_FAULT_STATUSES.join('/')}, retryAfter with 429 or 503, at most one of ${outcomesText}, effect ${API_FAULT_EFFECTS.join('|')}), rate, times, match {method, path, operationId}.`,
      input: {
        rules: z.array(z.record(z.string(), z.unknown())).describe('the rules, as PUT /_sandbox/api/faults takes them'),
        seed: z.number().int().optional(),
      },
      data: (client, body) => setApiFaults.data(client, JSON.stringify(body)),
    }),
  }),
  command({
    name: 'api-faults show',
    description: 'Show the rules, with what each has left and how many requests each faulted',
    examples: ['api-faults show', 'api-faults show --json'],
    isDefault: true,
    run: () => showApiFaults,
    tool: { description: 'The API fault rules, with what each has left and its hits.', input: {}, data: (client) => showApiFaults.data(client) },
  }),
  command({
    name: 'api-faults clear',
    description: 'No more API faults',
    examples: ['api-faults clear'],
    run: () => clearApiFaults,
    tool: { description: 'No more API faults.', input: {}, data: (client) => clearApiFaults.data(client) },
  }),
];
