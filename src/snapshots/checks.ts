/**
 * What a snapshot file's world must be as a whole before it is restored (docs/snapshots.md: The
 * file): every callback URL one the sandbox would take (domain/formats.ts), every event's body the
 * webhook body of its type for its entity (wire/webhook.ts, wire/ resources), and every reference to another row
 * one the world holds — so that a restored programme never holds a row its routes, its scheduler
 * or its dispatcher cannot serve. Each check names the place (`world.events.3.body`).
 */
import { z } from 'zod';
import { callbackUrlProblem, Uuid } from '../domain/formats.js';
import { WEBHOOK_TYPES, type WebhookType } from '../domain/outbox.js';
import { WEBHOOK_BODIES } from '../wire/webhook.js';
import type { RecordProblem } from './format.js';

/** The records of each table, as the file holds them. */
export type World = Record<string, Record<string, unknown>[]>;

/** Yields to the event loop every so many records, so that a large file does not hold every programme's requests. */
export type Pause = () => Promise<void>;

const ids = (records: Record<string, unknown>[] | undefined) => new Set((records ?? []).map((r) => r.id as string));

/** Refers `field` of each record of `table` to the ids of `target`; `optional` lets null through. */
function references(world: World, table: string, field: string, target: Set<string>, targetName: string, problems: RecordProblem[], optional = false) {
  (world[table] ?? []).forEach((record, i) => {
    const value = record[field];
    if ((value === null && optional) || target.has(value as string)) return;
    problems.push({ path: `world.${table}.${i}.${field}`, message: `names no ${targetName} of the snapshot` });
  });
}

/**
 * Each type's webhook body (wire/webhook.ts's WEBHOOK_BODIES: `webhookType`, `eventId`, then the
 * entity as GET returns it), made as one object rather than an intersection, which zod checks
 * several times faster: a file holds thousands of them.
 */
const BODIES = Object.fromEntries(
  WEBHOOK_TYPES.map((type): [WebhookType, z.ZodType] => [type, WEBHOOK_BODIES[type].entity.extend({ webhookType: z.literal(type), eventId: Uuid })]),
) as Record<WebhookType, z.ZodType>;

/** What an event's body must be: JSON of the webhook body of its type, for its event and entity. */
function bodyProblem(record: Record<string, unknown>): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(record.body as string);
  } catch {
    return 'must be the JSON text of a webhook body';
  }
  const parsed = BODIES[record.type as WebhookType].safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `must be a ${String(record.type)} webhook body (${issue.path.join('.') || 'body'}: ${issue.message})`;
  }
  const { eventId, id } = body as { eventId: unknown; id: unknown };
  if (eventId !== record.id) return "must carry its event's id as eventId";
  if (id !== record.entityId) return "must carry its event's entityId as id";
  return undefined;
}

/** Every problem of the world as a whole, the first ten at most; `pause` is awaited as it goes. */
export async function worldProblems(world: World, pause: Pause): Promise<RecordProblem[]> {
  const problems: RecordProblem[] = [];
  for (const table of ['webhooks', 'deliveries']) {
    (world[table] ?? []).forEach((record, i) => {
      const problem = callbackUrlProblem(record.callbackUrl as string);
      if (problem) problems.push({ path: `world.${table}.${i}.callbackUrl`, message: problem });
    });
  }
  const events = world.events ?? [];
  for (let i = 0; i < events.length && problems.length < 10; i++) {
    const problem = bodyProblem(events[i]!);
    if (problem) problems.push({ path: `world.events.${i}.body`, message: problem });
    if (i % 500 === 499) await pause();
  }
  const customers = ids(world.customers);
  const accounts = ids(world.accounts);
  const cards = ids(world.cards);
  const authorisations = ids(world.authorisations);
  references(world, 'accounts', 'customerId', customers, 'customer', problems);
  references(world, 'cards', 'accountId', accounts, 'account', problems);
  references(world, 'authorisations', 'accountId', accounts, 'account', problems);
  references(world, 'authorisations', 'cardId', cards, 'card', problems);
  references(world, 'transactions', 'accountId', accounts, 'account', problems);
  references(world, 'transactions', 'cardId', cards, 'card', problems, true);
  references(world, 'transactions', 'authorisationId', authorisations, 'authorisation', problems, true);
  references(world, 'deliveries', 'eventId', ids(world.events), 'event', problems);
  references(world, 'attempts', 'deliveryId', ids(world.deliveries), 'delivery', problems);
  return problems.slice(0, 10);
}
