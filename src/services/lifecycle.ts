/**
 * The one way a resource changes (docs/api.md: Customers, accounts and cards): load it or refuse with
 * its not-found code, check the move against its state table, write the change with `updatedAt`,
 * and append its `<entity>.updated` event with the resource as GET returns it — all inside the
 * caller's transaction. Customers, accounts, cards, authorisations and transactions each make one,
 * which also writes their new rows with the first event.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Core } from './core.js';
import { fail, type ErrorCode } from '../domain/errors.js';
import type { WebhookType } from '../domain/outbox.js';
import { transition, type Machine } from '../domain/state-machine.js';
import { once, rowInserter, rowUpdater } from '../store/prepared.js';
import type { accounts, authorisations, cards, customers, transactions } from '../store/schema.js';
import type { Events } from './outbox.js';

type Table = typeof customers | typeof accounts | typeof cards | typeof authorisations | typeof transactions;

export interface LifecycleSpec<T extends Table, A extends string, W> {
  table: T;
  machine: Machine<T['$inferSelect']['status'], A>;
  event: WebhookType;
  notFound: ErrorCode;
  /** The resource as GET returns it, which its events carry. */
  view: (row: T['$inferSelect']) => W;
  /** What else a change writes (a termination's time). */
  alsoWrite?: (changes: Partial<T['$inferSelect']>, now: number) => Partial<T['$inferSelect']>;
  /** Runs after each change is written, in the same transaction; `previous` is the row before it. */
  afterSave?: (next: T['$inferSelect'], now: number, previous: T['$inferSelect']) => void;
}

export function lifecycle<T extends Table, A extends string, W>(core: Core, events: Events, spec: LifecycleSpec<T, A, W>) {
  type Row = T['$inferSelect'];
  const { store, clock, programme } = core;
  const { table } = spec;
  // drizzle cannot type a query over a union of tables; each spec names one table, so this is safe.
  const db = store.db as unknown as { select(): { from(t: Table): { where(c: unknown): { prepare(): { get(values: { id: string }): Row | undefined } } } } };
  const findQuery = once(() =>
    db
      .select()
      .from(table)
      .where(and(eq(table.programmeId, programme), eq(table.id, sql.placeholder('id'))))
      .prepare(),
  );
  const insert = rowInserter(store, table) as (row: Row) => void;
  const update = rowUpdater(store, table) as (row: Row) => number;
  /** What changed, as an event on the span active now (docs/tracing.md: Tracing): the resource, its id, from → to status. */
  const traced = (eventId: string, row: Row, from: Row['status'] | undefined) =>
    core.tracing?.event(spec.event, {
      'card_sandbox.resource': spec.machine.entity,
      'card_sandbox.resource.id': row.id,
      'card_sandbox.status.from': from,
      'card_sandbox.status.to': row.status,
      'card_sandbox.event.id': eventId,
    });

  const service = {
    /** The row, or undefined. */
    find: (id: string): Row | undefined => findQuery().get({ id }),

    /** The row, or the resource's 404. */
    load: (id: string): Row => service.find(id) ?? fail(spec.notFound, `no ${spec.machine.entity} with id ${id}`),

    /** Writes a new row and appends its first event; returns the resource. Call inside a transaction. */
    create(row: Row): W {
      insert(row);
      const created = spec.view(row);
      traced(events.emit(spec.event, row.id, created as object), row, undefined);
      return created;
    },

    /** Writes `changes` and appends the event; returns the new row. Call inside a transaction. */
    save(row: Row, changes: Partial<Row>, now: number): Row {
      const write = { ...changes, ...spec.alsoWrite?.(changes, now), updatedAt: now };
      const next = { ...row, ...write } as Row;
      update(next);
      traced(events.emit(spec.event, row.id, spec.view(next) as object), next, row.status);
      spec.afterSave?.(next, now, row);
      return next;
    },

    /** One move of the state table, refused with its code when the row's state does not allow it. */
    move(row: Row, action: A, now: number, changes: Partial<Row> = {}): Row {
      const outcome = transition(spec.machine, row.status, action);
      if (!outcome.ok) fail(outcome.code, outcome.detail);
      return service.save(row, { ...changes, status: outcome.next } as Partial<Row>, now);
    },

    /** Loads the row and runs `change` on it at the sandbox's now, in one transaction; returns the resource. */
    mutate: (id: string, change: (row: Row, now: number) => Row): W => store.transaction(() => spec.view(change(service.load(id), clock.now()))),
  };
  return service;
}
