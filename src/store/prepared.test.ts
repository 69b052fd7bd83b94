/**
 * What the request paths build once (store/prepared.ts) and the store's statement cache must not
 * change: the rows written and read are those drizzle's own queries write and read, and what waits
 * for a commit runs after it, never after a rollback.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROGRAMME } from '../domain/programme.js';
import { rowInserter, rowsInserter, rowUpdater, sqlLiteral } from './prepared.js';
import { customers, deliveries, events, programmes, webhooks } from './schema.js';
import { openStore } from './store.js';

const withProgramme = () => {
  const store = openStore(':memory:');
  store.db.insert(programmes).values({ id: DEFAULT_PROGRAMME, name: 'default', tokenSecret: 's', webhookKey: '', createdAt: 1 }).run();
  return store;
};

const customer = {
  programmeId: DEFAULT_PROGRAMME,
  id: 'c1',
  externalId: 'x',
  chainId: 'eip155:1:0xAb',
  chainIdKey: 'eip155:1:0xab',
  status: 'initiating' as const,
  challenge: null,
  challengeExpiresAt: null,
  createdAt: 5,
  updatedAt: 5,
};

describe('rowInserter, rowsInserter and rowUpdater', () => {
  it('write what drizzle writes: encoded columns, defaults for what the row leaves out, NULL for nothing', () => {
    const ours = withProgramme();
    const theirs = withProgramme();
    rowInserter(ours, customers)(customer);
    theirs.db.insert(customers).values(customer).run();
    const raw = (store: typeof ours) => store.sqlite.prepare('select * from customers').all();
    expect(raw(ours)).toEqual(raw(theirs));
    expect(ours.db.select().from(customers).get()).toMatchObject({ challengeSigned: false, challenge: null });

    const hook = { programmeId: DEFAULT_PROGRAMME, id: 'w1', callbackUrl: 'http://127.0.0.1:1/', types: ['card.updated' as const], createdAt: 1, updatedAt: 1 };
    rowInserter(ours, webhooks)(hook);
    expect(ours.db.select().from(webhooks).get()).toMatchObject({ types: ['card.updated'] });
    ours.db
      .insert(events)
      .values({ programmeId: DEFAULT_PROGRAMME, id: 'e1', seq: 1, type: 'card.updated', entityId: 'card-1', body: '{}', createdAt: 1 })
      .run();
    rowInserter(
      ours,
      deliveries,
    )({
      programmeId: DEFAULT_PROGRAMME,
      id: 'd1',
      eventId: 'e1',
      webhookId: 'w1',
      callbackUrl: hook.callbackUrl,
      status: 'pending',
      nextAttemptAt: 3,
      createdAt: 1,
      updatedAt: 1,
    });
    expect(ours.db.select().from(deliveries).get()).toMatchObject({ attempts: 0, firstAttemptAt: null });
  });

  it('writes rows given different columns through one inserter as drizzle writes each', () => {
    const ours = withProgramme();
    const theirs = withProgramme();
    const rows = [
      customer,
      { ...customer, id: 'c2', externalId: 'y', chainIdKey: 'two', challenge: 'nonce', challengeExpiresAt: 7 },
      { ...customer, id: 'c3', externalId: 'z', chainIdKey: 'three', challengeExpiresAt: 8 },
      { ...customer, id: 'c4', externalId: 'w', chainIdKey: 'four' },
    ];
    const insert = rowInserter(ours, customers);
    for (const row of rows) {
      insert(row);
      theirs.db.insert(customers).values(row).run();
    }
    const raw = (store: typeof ours) => store.sqlite.prepare('select * from customers order by id').all();
    expect(raw(ours)).toEqual(raw(theirs));
  });

  it('writes many rows at once, in order, as drizzle writes each: runs of the same columns together, a run longer than one statement takes split', () => {
    const ours = withProgramme();
    const theirs = withProgramme();
    // 19 rows alike (16 + 2 + 1 per statement), one with a challenge, then 5 alike again.
    const rows = Array.from({ length: 25 }, (_, i) => ({
      ...customer,
      id: `c${i}`,
      externalId: `x${i}`,
      chainIdKey: `k${i}`,
      ...(i === 19 && { challenge: 'nonce', challengeExpiresAt: 7 }),
    }));
    rowsInserter(ours, customers)(rows);
    rowsInserter(ours, customers)([]);
    theirs.db.insert(customers).values(rows).run();
    const raw = (store: typeof ours) => store.sqlite.prepare('select rowid, * from customers order by rowid').all();
    expect(raw(ours)).toHaveLength(25);
    expect(raw(ours)).toEqual(raw(theirs));
  });

  it('rewrites the row with the same key, and only it', () => {
    const store = withProgramme();
    const insert = rowInserter(store, customers);
    insert(customer);
    insert({ ...customer, id: 'c2', externalId: 'y', chainIdKey: 'other' });
    const update = rowUpdater(store, customers);
    const row = store.db.select().from(customers).where(eq(customers.id, 'c1')).get()!;
    expect(update({ ...row, status: 'screening', challengeSigned: true, updatedAt: 9 })).toBe(1);
    expect(update({ ...row, id: 'nobody' })).toBe(0);
    expect(store.db.select().from(customers).where(eq(customers.id, 'c1')).get()).toMatchObject({ status: 'screening', challengeSigned: true, updatedAt: 9 });
    expect(store.db.select().from(customers).where(eq(customers.id, 'c2')).get()).toMatchObject({ status: 'initiating', challengeSigned: false, updatedAt: 5 });
  });
});

describe('sqlLiteral', () => {
  it('writes any string as the literal that compares equal to it', () => {
    const store = openStore(':memory:');
    for (const text of ['default', "o'brien", "''", 'a"b', '', 'ÆTHER ☃', "x' OR '1'='1"]) {
      expect(
        store.sqlite
          .prepare(`select ${sqlLiteral(text)} as v`)
          .pluck()
          .get(),
      ).toBe(text);
    }
  });
});

describe('the statement cache', () => {
  it('gives objects to a query of the same text that drizzle last ran as arrays', () => {
    const store = withProgramme();
    rowInserter(store, customers)(customer);
    // A select with fields: drizzle switches the statement to arrays and maps them itself.
    const query = store.db.select({ id: customers.id, status: customers.status }).from(customers).where(eq(customers.programmeId, DEFAULT_PROGRAMME));
    expect(query.all()).toEqual([{ id: 'c1', status: 'initiating' }]);
    // The same text as a plain query, which takes the rows as SQLite gives them.
    const [before, after] = query.toSQL().sql.split('?');
    const text = sql`${sql.raw(before!)}${DEFAULT_PROGRAMME}${sql.raw(after!)}`;
    expect(store.db.all(text)).toEqual([{ id: 'c1', status: 'initiating' }]);
    expect(store.db.get(text)).toEqual({ id: 'c1', status: 'initiating' });
  });
});

describe('onCommit', () => {
  it('runs after the outermost commit, drops what a rolled-back savepoint or transaction asked for, and runs at once outside one', () => {
    const store = withProgramme();
    const ran: string[] = [];
    store.transaction(() => {
      store.onCommit(() => ran.push('outer'));
      try {
        store.transaction(() => {
          store.onCommit(() => ran.push('rolled back'));
          throw new Error('refused');
        });
      } catch {
        // The savepoint is undone; the transaction goes on.
      }
      store.transaction(() => store.onCommit(() => ran.push('inner')));
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['outer', 'inner']);
    expect(() =>
      store.transaction(() => {
        store.onCommit(() => ran.push('never'));
        throw new Error('refused');
      }),
    ).toThrow('refused');
    store.onCommit(() => ran.push('now'));
    expect(ran).toEqual(['outer', 'inner', 'now']);
  });
});
