/**
 * What the control plane does with programmes (docs/programmes.md: Parallel test suites): the
 * default one made at start, others created with their own row and credential, listed, described
 * and deleted with everything they own. A programme's services are built when it is first used
 * (registry.ts). A refusal of its input names the field, not where the input came from: the
 * control plane says that (http/errors.ts: onBody).
 */
import { count, eq, inArray, notLike, sql } from 'drizzle-orm';
import { formatDuration, parseDuration } from '../domain/duration.js';
import { iso, readClockOption } from '../domain/instant.js';
import type { Config } from '../config/index.js';
import { echo } from '../domain/echo.js';
import { fail } from '../domain/errors.js';
import { normalise } from '../domain/money.js';
import { DEFAULT_PROGRAMME, STAGING_PREFIX, stagingIdOf } from '../domain/programme.js';
import { cryptoRandom, seededRandom, type Ids, type Random } from '../kernel/ids.js';
import { putCredential } from '../services/auth.js';
import { credentials, programmes } from '../store/schema.js';
import type { Store } from '../store/store.js';
import type { CreatedProgramme, NewProgramme, ProgrammeSummary } from '../wire/programmes.js';
import type { Programme, Registry } from './registry.js';
import type { ProgrammeRow } from './settings.js';
import { storedRecords, type EndedRecords } from '../services/report.js';

export interface ProgrammeOperationsDeps {
  store: Store;
  config: Config;
  registry: Registry;
  /** Ids of programmes and their credentials. */
  ids: Ids;
  /** Their API secrets. */
  random: Random;
  wall: () => number;
  /** Where a deleted programme's go-live report records are kept (docs/go-live.md: A report over a whole test run). */
  ended?: EndedRecords;
}

export function createProgrammeOperations({ store, config, registry, ids, random: secrets, wall, ended }: ProgrammeOperationsDeps) {
  const { db } = store;

  /** A new row: a token secret and the clock asked for; the webhook key waits for its first use. */
  const insertRow = (
    id: string,
    name: string,
    options: { clockFrozenAt?: number | undefined; randomSeed?: number | undefined; holdExpiryMs?: number | undefined; startingBalance?: string | undefined },
  ): ProgrammeRow => {
    // A stream of the seed of its own: what the programme's services draw never repeats its secrets.
    const random = options.randomSeed !== undefined ? seededRandom(options.randomSeed).fork('token secret') : cryptoRandom();
    const row: ProgrammeRow = {
      id,
      name,
      tokenSecret: random.bytes(32).toString('hex'),
      tokenGeneration: 0,
      clockFrozenAt: options.clockFrozenAt ?? null,
      clockOffset: 0,
      webhookKey: '',
      randomSeed: options.randomSeed ?? null,
      webhookFaults: null,
      webhooksPaused: false,
      createdAt: wall(),
      fees: null,
      rates: null,
      holdExpiryMs: options.holdExpiryMs ?? null,
      startingBalance: options.startingBalance === undefined ? null : normalise(options.startingBalance),
    };
    db.insert(programmes).values(row).run();
    return row;
  };

  /** What the control plane shows; a programme not in memory is described from its row, not built. */
  const summary = (row: ProgrammeRow): ProgrammeSummary => {
    const clock = registry.clockOf(row);
    return {
      id: row.id,
      name: row.name,
      apiKeys: db
        .select({ apiKey: credentials.apiKey })
        .from(credentials)
        .where(eq(credentials.programmeId, row.id))
        .all()
        .map((c) => c.apiKey),
      clock: { now: iso(clock.now()), frozen: clock.frozen },
      holdExpiry: formatDuration(row.holdExpiryMs ?? config.holdExpiryMs),
      startingBalance: row.startingBalance ?? config.startingBalance,
      createdAt: iso(row.createdAt),
    };
  };

  /** --webhook-faults and --api-faults, on the default programme and, with --faults-everywhere, on each one made (docs/go-live.md: In CI). */
  const setStartFaults = (programme: Programme) => {
    if (config.webhookFaults !== undefined) programme.services.lab.setFaults(undefined, config.webhookFaults);
    if (config.apiFaults !== undefined) programme.services.apiFaults.set(config.apiFaults);
  };

  const missing = (id: string): never => fail('programme_not_found', `no programme with id ${id}`);

  /** The programmes, not the staging ones of restores under way (snapshots/staged.ts). */
  const notStaging = notLike(programmes.id, `${STAGING_PREFIX}%`);

  return {
    /**
     * The default programme, made in a fresh database with the configured (or default) credential;
     * --api-key/--api-secret are registered at every start.
     */
    ensureDefault(): Programme {
      store.transaction(() => {
        if (!registry.rowOf(DEFAULT_PROGRAMME)) insertRow(DEFAULT_PROGRAMME, DEFAULT_PROGRAMME, { randomSeed: config.randomSeed });
      });
      const programme = registry.default();
      programme.services.auth.init(
        config.apiKey !== undefined && config.apiSecret !== undefined ? { apiKey: config.apiKey, apiSecret: config.apiSecret } : undefined,
      );
      // A --webhook-key that cannot serve stops the start, rather than the first delivery.
      if (config.webhookKey !== undefined) programme.services.webhooks.verificationKey();
      // --webhook-faults sets the default programme's faults at every start (docs/webhooks.md: Webhooks → The delivery lab).
      setStartFaults(programme);
      return programme;
    },

    /** A new programme: its row and credential only, its services built when it is first used. */
    create(input: Omit<NewProgramme, 'from'>): CreatedProgramme {
      let clockFrozenAt: number | undefined;
      if (input.clock !== undefined) {
        // Pre-1970 or past 9999 is refused, never clamped (docs/control-plane.md: The range of time).
        const read = readClockOption(input.clock, wall());
        if ('problem' in read) fail('invalid_request', `clock ${read.problem}, got ${echo(input.clock)}`, [{ path: 'clock', message: read.problem }]);
        clockFrozenAt = read.at;
      }
      let apiKey = '';
      let apiSecret = '';
      const row = store.transaction(() => {
        const total = db.select({ n: count() }).from(programmes).where(notStaging).get()!.n;
        if (total >= config.maxProgrammes)
          fail(
            'programme_limit_reached',
            `this sandbox holds ${total} programmes, its limit (--max-programmes ${config.maxProgrammes}); delete one with DELETE /_sandbox/programmes/{id}`,
          );
        // Seeded (--random-seed) draws repeat after a restart with the same --db: skip what is taken.
        const free = (taken: (candidate: string) => boolean) => {
          for (;;) {
            const candidate = ids.uuid();
            if (!taken(candidate)) return candidate;
          }
        };
        apiKey = free((key) => db.select().from(credentials).where(eq(credentials.apiKey, key)).get() !== undefined);
        apiSecret = secrets.bytes(24).toString('base64url');
        const id = free((candidate) => registry.rowOf(candidate) !== undefined);
        // NewProgramme checked it.
        const holdExpiryMs = input.holdExpiry === undefined ? undefined : parseDuration(input.holdExpiry);
        const made = insertRow(id, input.name ?? id, { clockFrozenAt, randomSeed: input.randomSeed, holdExpiryMs, startingBalance: input.startingBalance });
        putCredential(store, id, { apiKey, apiSecret }, made.createdAt);
        return made;
      });
      if (config.faultsEverywhere) setStartFaults(registry.get(row.id));
      return { ...summary(row), apiKey, apiSecret };
    },

    list(): ProgrammeSummary[] {
      return db
        .select()
        .from(programmes)
        .where(notStaging)
        .orderBy(programmes.createdAt, sql`rowid`)
        .all()
        .map(summary);
    },

    describe: (id: string): ProgrammeSummary => summary(registry.rowOf(id) ?? missing(id)),

    /** Deletes a programme and everything it owns, but what its go-live report reads; its pending deliveries are never sent. */
    remove(id: string): void {
      if (id === DEFAULT_PROGRAMME) fail('default_programme', 'the default programme cannot be deleted; reset it with POST /_sandbox/reset');
      const row = registry.rowOf(id) ?? missing(id);
      const journal =
        registry
          .loaded()
          .find((p) => p.id === id)
          ?.journal.list() ?? [];
      ended?.keep({ programme: id, requests: journal, ...storedRecords(store, id) }, row.createdAt);
      registry.unload(id);
      // With the staging programme of a restore of it under way, if any.
      db.delete(programmes)
        .where(inArray(programmes.id, [id, stagingIdOf(id)]))
        .run();
    },
  };
}
