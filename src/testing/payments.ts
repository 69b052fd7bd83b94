/**
 * Helpers for tests of authorisations and transactions: requests with a fresh token (time travel
 * expires old ones), time travel itself, and what the store holds — event bodies per entity and
 * row counts, to show that a refusal changed nothing. Not shipped.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/index.js';
import { authorisations, events, transactions } from '../store/schema.js';
import type { RequestOptions, TestSandbox } from './harness.js';

export const SECOND = 1_000;
export const DAY = 24 * 60 * 60 * SECOND;
/** A well-formed id that names nothing. */
export const MISSING = '0b9e5f7a-2c4d-4e6f-8a1b-3c5d7e9f1a2b';

export function payments(sb: TestSandbox) {
  const { db } = sb.deps.store;
  const api = (method: string, path: string, options: RequestOptions = {}) =>
    sb.json(method, path, { ...options, token: sb.deps.services.auth.issueToken(DEFAULT_API_KEY, DEFAULT_API_SECRET).token });

  return {
    api,
    authorise: (cardId: string, body: unknown) => api('POST', `/v1/simulator/cards/${cardId}/authorisation`, { body }),
    patch: (id: string, action: 'capture' | 'release') => api('PATCH', `/v1/simulator/authorisations/${id}/${action}`),
    authorisation: async (id: string) => (await api('GET', `/v1/authorisations/${id}`)).body,
    cardTransactions: async (cardId: string) => (await api('GET', `/v1/cards/${cardId}/transactions`)).body as any[],
    advance: (ms: number) => sb.deps.services.scheduler.advance(sb.deps.clock.now() + ms),

    /** The events written for an entity, oldest first, bodies parsed. */
    eventsOf: (entityId: string) =>
      db
        .select()
        .from(events)
        .where(eq(events.entityId, entityId))
        .orderBy(asc(events.createdAt), asc(sql`rowid`))
        .all()
        .map((e) => ({ type: e.type, body: JSON.parse(e.body) })),

    counts: () => ({
      authorisations: db.select().from(authorisations).all().length,
      transactions: db.select().from(transactions).all().length,
      events: db.select().from(events).all().length,
    }),
  };
}

export type Payments = ReturnType<typeof payments>;
