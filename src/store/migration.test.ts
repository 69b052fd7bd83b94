/**
 * A database from before programmes upgrades in place: its world becomes the default programme's,
 * and what it kept of the token secret, token generation, clock and webhook key carries over, so
 * tokens, signatures and retries go on as before.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config/index.js';
import { buildDeps } from '../deps.js';
import { packagePath } from '../kernel/paths.js';
import { generateP384, pkcs8Pem } from '../signatures/keys.js';
import { memoryLog } from '../kernel/log.js';
import { openStore } from './store.js';

const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-migration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database as the sandbox left it before programmes: the first two migrations only. */
function databaseBeforeProgrammes(path: string) {
  const folder = join(dir, 'old-migrations');
  mkdirSync(join(folder, 'meta'), { recursive: true });
  const journal = JSON.parse(readFileSync(packagePath('drizzle', 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, 2);
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const { tag } of journal.entries) cpSync(packagePath('drizzle', `${tag}.sql`), join(folder, `${tag}.sql`));
  const sqlite = new Database(path);
  migrate(drizzle(sqlite), { migrationsFolder: folder });
  return sqlite;
}

describe('the migration to programmes', () => {
  it("makes the old world the default programme's, keeping its secret, generation, clock and key", () => {
    const path = join(dir, 'old.db');
    const old = databaseBeforeProgrammes(path);
    const webhookKey = pkcs8Pem(generateP384().privateKey);
    const secret = 'ab'.repeat(32);
    const insertMeta = old.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    for (const [key, value] of [
      ['jwt_secret', secret],
      ['token_generation', '3'],
      ['clock_offset', '7200000'],
      ['webhook_private_key', webhookKey],
    ])
      insertMeta.run(key, value);
    old.prepare("INSERT INTO credentials (api_key, secret_hash, created_at) VALUES ('11111111-1111-4111-8111-111111111111', 'x', 1)").run();
    old
      .prepare(
        "INSERT INTO customers (id, external_id, chain_id, chain_id_key, status, challenge_signed, created_at, updated_at) VALUES ('c1', 'alice', 'eip155:1:0xA', 'eip155:1:0xa', 'active', 1, 1, 1)",
      )
      .run();
    old
      .prepare(
        "INSERT INTO accounts (id, customer_id, type, currencies, status, cascade_deactivated, created_at, updated_at) VALUES ('a1', 'c1', 'card_account', '[\"EUR\"]', 'active', 0, 1, 1)",
      )
      .run();
    for (const id of ['e1', 'e2', 'e3'])
      old.prepare("INSERT INTO events (id, type, entity_id, body, created_at) VALUES (?, 'customer.updated', 'c1', '{}', 1)").run(id);
    old
      .prepare(
        "INSERT INTO deliveries (id, event_id, webhook_id, callback_url, status, attempts, next_attempt_at, created_at, updated_at) VALUES ('d1', 'e3', 'w1', 'http://127.0.0.1:9/', 'pending', 1, 5, 1, 1)",
      )
      .run();
    old.prepare("INSERT INTO jobs (id, kind, subject_id, due_at, created_at) VALUES ('j1', 'card.expire', 'x', 9, 1)").run();
    old.close();

    const store = openStore(path);
    try {
      const row = store.sqlite.prepare("SELECT * FROM programmes WHERE id = 'default'").get() as Record<string, unknown>;
      expect(row).toMatchObject({
        name: 'default',
        token_secret: secret,
        token_generation: 3,
        clock_offset: 7_200_000,
        clock_frozen_at: null,
        webhook_key: webhookKey,
      });
      const owners = (table: string) => store.sqlite.prepare(`SELECT DISTINCT programme_id FROM ${table}`).pluck().all();
      for (const table of ['credentials', 'customers', 'accounts', 'events', 'deliveries', 'jobs']) expect(owners(table), table).toEqual(['default']);
      expect(store.sqlite.prepare('SELECT seq FROM events ORDER BY rowid').pluck().all()).toEqual([1, 2, 3]);
      expect(store.sqlite.prepare("SELECT name FROM sqlite_master WHERE name = 'meta'").get()).toBeUndefined();

      const deps = buildDeps(defaultConfig(), { store, log: memoryLog() });
      expect(deps.services.customers.get('c1').externalId).toBe('alice');
      expect(deps.services.jobs.pending().map((j) => j.id)).toEqual(['j1']);
      expect(deps.programmes.list().map((p) => p.apiKeys)).toEqual([['11111111-1111-4111-8111-111111111111']]);
    } finally {
      store.close();
    }
  });

  it('upgrades an empty database from before programmes, which then makes its default programme', () => {
    const path = join(dir, 'empty.db');
    databaseBeforeProgrammes(path).close();
    const deps = buildDeps(defaultConfig({ db: path }), { log: memoryLog() });
    try {
      expect(deps.programmes.list().map((p) => p.id)).toEqual(['default']);
    } finally {
      deps.store.close();
    }
  });
});
