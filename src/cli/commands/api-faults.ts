/**
 * `api-faults set|show|clear`: the API fault lab from the terminal (docs/api-faults.md: The API fault lab).
 * `set` takes the body of PUT /_sandbox/api/faults as JSON (or just its list of rules); the sandbox
 * checks the values.
 */
import type { ApiFaultRuleView, ApiFaultsView } from '../../client/control.generated.js';
import { faultText } from '../../wire/fault-text.js';
import { ClientUsageError, type CommandContext } from '../client.js';
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

export async function setApiFaults({ client, io, json }: CommandContext, text: string): Promise<void> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new ClientUsageError(`api faults must be JSON, such as '{"rules":[{"status":503,"times":2}]}': ${(error as Error).message}`);
  }
  const answer = await client.setApiFaults((Array.isArray(body) ? { rules: body } : body) as Parameters<typeof client.setApiFaults>[0]);
  if (json) return io.json(answer);
  printRules(io, answer);
}

export async function showApiFaults({ client, io, json }: CommandContext): Promise<void> {
  const answer = await client.getApiFaults();
  if (json) return io.json(answer);
  printRules(io, answer);
}

export async function clearApiFaults({ client, io, json }: CommandContext): Promise<void> {
  await client.clearApiFaults();
  if (json) return io.json({ cleared: true });
  io.out(`${io.color.green('✓')} no API faults`);
}
