/**
 * The go-live report's coverage (docs/go-live.md: Before you go live): each operation with its calls
 * and answer statuses and those never called, the states each resource type reached against those
 * it can (with what reaches each state never seen), each webhook type's attempts and what the receiver answered, and the money
 * path's directions, fee types and refusals for funds (money-coverage.ts) — over every programme
 * the report covers.
 */
import { operationFinder } from '../api-fault-matching.js';
import { RESOURCE_TYPES, type WebhookType } from '../outbox.js';
import { REACHED_BY, STATUSES } from '../reach.js';
import { moneyCoverage } from './money-coverage.js';
import { pathOf } from './records.js';
import type { Report, ReportInput } from './types.js';

export function coverage(input: ReportInput): Report['coverage'] {
  const operationOf = operationFinder(input.operations);
  const calls = new Map<string, Record<string, number>>();
  const webhooks = new Map<WebhookType, { attempts: number; answers: Record<string, number> }>();
  for (const p of input.programmes) {
    for (const e of p.requests) {
      const id = operationOf(e.method, pathOf(e));
      if (id === undefined) continue;
      const statuses = calls.get(id) ?? {};
      statuses[String(e.status)] = (statuses[String(e.status)] ?? 0) + 1;
      calls.set(id, statuses);
    }
    for (const a of p.attempts) {
      const entry = webhooks.get(a.eventType) ?? { attempts: 0, answers: {} };
      const answer = a.statusCode === null ? 'no answer' : String(a.statusCode);
      entry.attempts++;
      entry.answers[answer] = (entry.answers[answer] ?? 0) + 1;
      webhooks.set(a.eventType, entry);
    }
  }
  const operations = input.operations.map((o) => {
    const statuses = calls.get(o.operationId) ?? {};
    return {
      operationId: o.operationId,
      method: o.method.toUpperCase(),
      path: `/v1${o.path}`,
      calls: Object.values(statuses).reduce((a, b) => a + b, 0),
      statuses,
    };
  });
  return {
    operations,
    neverCalled: operations.filter((o) => o.calls === 0).map((o) => o.operationId),
    states: RESOURCE_TYPES.map((resource) => {
      const statuses: readonly string[] = STATUSES[resource];
      const reached = statuses.filter((s) => input.programmes.some((p) => p.statesReached[resource]?.includes(s)));
      const never = statuses.filter((s) => !reached.includes(s));
      return { resource, reached, never, hints: Object.fromEntries(never.map((s) => [s, (REACHED_BY[resource] as Record<string, string>)[s]!])) };
    }),
    webhooks: [...webhooks].map(([type, w]) => ({ type, ...w })),
    money: moneyCoverage(input),
  };
}
