/**
 * After the journey, on the upstream (docs/parity.md: What it touches on the upstream): whatever the
 * run made and the journey did not end — because a step was refused or the run stopped — is ended as
 * far as the service allows, and nothing else is touched: its webhooks deleted, its cards deleted,
 * its accounts closed, its customers deactivated (the API deletes no customer). Each resource is read
 * first, and only acted on while it lasts, in a state the operation accepts. Returns one line per resource left as
 * it is or acted on, and how many it could not end.
 */
import type { SideRun } from './side-run.js';
import type { OperationId, ResourceKind } from './step.js';

interface Ending {
  read: OperationId;
  /** The states the ending applies to; any state when there are none. */
  from?: readonly string[];
  end: OperationId;
  done: string;
}

const ENDINGS: Record<ResourceKind, Ending> = {
  webhook: { read: 'getWebhook', end: 'deleteWebhook', done: 'deleted' },
  card: { read: 'getCard', from: ['active', 'inactive', 'suspended'], end: 'deleteCard', done: 'deleted' },
  account: { read: 'getAccount', from: ['active', 'inactive'], end: 'closeAccount', done: 'closed' },
  customer: { read: 'getCustomer', from: ['active'], end: 'deactivateCustomer', done: 'deactivated' },
};

const PARAMS: Record<ResourceKind, string> = { webhook: 'webhookId', card: 'cardId', account: 'accountId', customer: 'customerId' };
// Children before their parents: a card is deleted before its account is closed.
const ORDER: ResourceKind[] = ['webhook', 'card', 'account', 'customer'];
const ENDED = new Set(['terminated', 'issue_failed', 'closed', 'inactive', 'rejected']);

export async function cleanUp(run: SideRun): Promise<{ lines: string[]; left: number }> {
  const lines: string[] = [];
  let left = 0;
  const made = [...run.created].sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
  for (const { label, kind } of made) {
    const id = run.values.get(label)!;
    const ending = ENDINGS[kind];
    const params = { [PARAMS[kind]]: label };
    const read = await run.read(ending.read, params);
    // A webhook deleted is gone; the other resources stay, in a state that says whether they ended.
    if (read.status === 404 && kind === 'webhook') continue;
    const status = (read.body as { status?: unknown } | undefined)?.status;
    if (read.status !== 200 || (ending.from !== undefined && typeof status !== 'string')) {
      lines.push(`${kind} ${id}: could not be read (${read.none ?? read.status})`);
      left++;
      continue;
    }
    if (typeof status === 'string' && ending.from !== undefined) {
      if (ENDED.has(status)) continue;
      if (!ending.from.includes(status)) {
        lines.push(`${kind} ${id}: left ${status}`);
        left++;
        continue;
      }
    }
    const answer = await run.execute({ id: `clean-up ${label}`, operationId: ending.end, does: ending.done, params });
    const ended = answer.status !== undefined && answer.status < 300;
    if (!ended) left++;
    lines.push(ended ? `${kind} ${id}: ${ending.done}` : `${kind} ${id}: not ${ending.done} (${answer.none ?? answer.status})`);
  }
  return { lines, left };
}

/** What the clean-up did, in the words of the line that ends a stopped run: `left` as `cleanUp` counts it, -1 when it stopped. */
export function cleanUpSaid(left: number): string {
  if (left === 0) return 'what it made on the upstream was cleaned up';
  return left < 0
    ? 'the clean-up on the upstream stopped: what it made there may be left (see above)'
    : `${left} of what it made on the upstream could not be cleaned up (see above)`;
}
