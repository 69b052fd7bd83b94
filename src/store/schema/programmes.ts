/**
 * The programmes and what each keeps outside its world: credentials, signing keys, idempotency keys
 * and snapshots; and the columns every programme's table starts with.
 */
import { sql } from 'drizzle-orm';
import { foreignKey, index, integer, primaryKey, sqliteTable, text, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { FeeSettings } from '../../domain/fees.js';
import type { MovedRates } from '../../domain/rates.js';
import type { Faults } from '../../domain/webhook-faults.js';

export const createdAt = () => integer('created_at').notNull();
export const updatedAt = () => integer('updated_at').notNull();

/**
 * A programme: an isolated sandbox with its own credentials, keys, world and clock. What a
 * programme keeps outside its resources is here: the token secret and generation, the clock
 * (frozen at an instant, or an offset from the wall clock), the webhook signing key and, for
 * deterministic runs, the seed its ids and randomness are drawn from.
 */
export const programmes = sqliteTable('programmes', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Hex of the 32 random bytes that sign its access tokens (HS256). */
  tokenSecret: text('token_secret').notNull(),
  /** Bumped when credentials change: tokens carry it, and older ones are refused. */
  tokenGeneration: integer('token_generation').notNull().default(0),
  /** A frozen clock's instant; null for a clock that runs. */
  clockFrozenAt: integer('clock_frozen_at'),
  /** A running clock's offset from the wall clock. */
  clockOffset: integer('clock_offset').notNull().default(0),
  /** PKCS#8 PEM of the P-384 key that signs its webhooks. */
  webhookKey: text('webhook_key').notNull(),
  randomSeed: integer('random_seed'),
  /** Faults for all its subscriptions (docs/webhooks.md: Webhooks → The delivery lab); null for none. */
  webhookFaults: text('webhook_faults', { mode: 'json' }).$type<Faults>(),
  /** Whether all its deliveries are paused. */
  webhooksPaused: integer('webhooks_paused', { mode: 'boolean' }).notNull().default(false),
  createdAt: createdAt(),
  /** The fees its new transactions carry (docs/money-path.md: Fees); null for none. */
  fees: text('fees', { mode: 'json' }).$type<FeeSettings>(),
  /** How long its holds stay pending before they are released (docs/money-path.md: Holds that expire); null for --hold-expiry. */
  holdExpiryMs: integer('hold_expiry_ms'),
  /** The balance its new accounts start with (docs/money-path.md: Funds); null for --starting-balance. */
  startingBalance: text('starting_balance'),
  /** The rates it moved from the shipped table (docs/money-path.md: Moving rates); null for none. */
  rates: text('rates', { mode: 'json' }).$type<MovedRates>(),
});

/** The owning programme's id, first in every key; its rows go with it. */
export const programmeId = () =>
  text('programme_id')
    .notNull()
    .references(() => programmes.id, { onDelete: 'cascade' });

/** A reference to a row of the same programme: (programme_id, id). */
export const sameProgramme = (name: string, columns: [AnySQLiteColumn, AnySQLiteColumn], target: [AnySQLiteColumn, AnySQLiteColumn], cascade = false) =>
  foreignKey({ name, columns, foreignColumns: target }).onDelete(cascade ? 'cascade' : 'no action');

/** API keys are unique across programmes: POST /auth/token finds the programme by its key. */
export const credentials = sqliteTable(
  'credentials',
  {
    apiKey: text('api_key').primaryKey(),
    programmeId: programmeId(),
    secretHash: text('secret_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('credentials_programme').on(t.programmeId)],
);

export const signingKeys = sqliteTable(
  'signing_keys',
  {
    programmeId: programmeId(),
    keyId: text('key_id').notNull(),
    /** SPKI PEM text of the integrator's P-384 public key. */
    publicKey: text('public_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.programmeId, t.keyId] })],
);

export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    programmeId: programmeId(),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    state: text('state', { enum: ['in_flight', 'done'] }).notNull(),
    status: integer('status'),
    headers: text('headers', { mode: 'json' }).$type<Record<string, string>>(),
    body: text('body'),
    createdAt: createdAt(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.programmeId, t.scope, t.key] }),
    // A programme's kept answers in the order they were claimed (by rowid): the newest N are found
    // without reading the rows (services/idempotency.ts: trim).
    index('idempotency_answers')
      .on(t.programmeId)
      .where(sql`${t.state} = 'done'`),
  ],
);

/**
 * A programme's saved state (docs/snapshots.md): its portable file, and what a listing shows without
 * reading it. Ids are unique across programmes, as API keys are: a fork names the snapshot alone.
 */
export const snapshots = sqliteTable(
  'snapshots',
  {
    id: text('id').primaryKey(),
    programmeId: programmeId(),
    name: text('name').notNull(),
    /** The sandbox time it holds, and whether its clock was frozen there. */
    clockNow: integer('clock_now').notNull(),
    clockFrozen: integer('clock_frozen', { mode: 'boolean' }).notNull(),
    /** How many rows of each table it holds, and entries of the journal: a SnapshotCounts. */
    counts: text('counts', { mode: 'json' }).$type<Record<string, number>>().notNull(),
    /** The file, as GET /_sandbox/snapshots/{id}/file answers it, and its size in bytes. */
    file: text('file').notNull(),
    bytes: integer('bytes').notNull(),
    /** Wall-clock time. */
    createdAt: createdAt(),
  },
  (t) => [index('snapshots_programme').on(t.programmeId)],
);

/**
 * A large restore under way (snapshots/staged.ts): the programme's new world is written under
 * `stagedAs` — a staging programme of its own (STAGING_PREFIX), or the programme itself when its
 * world was empty — and is the programme's from `committed` on: its old rows are deleted and the
 * new ones copied in (`copied` once they all are). What a stop leaves here is undone (`writing`)
 * or finished when the database is next opened.
 */
export const restores = sqliteTable('restores', {
  programmeId: text('programme_id')
    .primaryKey()
    .references(() => programmes.id, { onDelete: 'cascade' }),
  stagedAs: text('staged_as').notNull(),
  phase: text('phase', { enum: ['writing', 'committed', 'copied'] }).notNull(),
});
