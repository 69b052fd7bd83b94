/**
 * Programmes (docs/programmes.md: Parallel test suites): many isolated sandboxes in one process and one
 * database. Each has its own row (token secret, clock, webhook key), its own credentials and world,
 * and, once used, its own services, clock, ids and request journal, built on demand and kept in
 * memory. They share the store, the configuration, the log and what services.ts names `Shared`.
 * Isolation holds because every service is built for one programme and reads and writes only its
 * rows (core.ts); deleting a programme cascades to everything it owns.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { count, eq, max, sql } from 'drizzle-orm';
import { createClock, iso, parseClockOption, type Clock } from './clock.js';
import { ConfigError, type Config } from './config.js';
import type { Core } from './core.js';
import { fail } from './domain/errors.js';
import { DEFAULT_PROGRAMME } from './domain/programme.js';
import { cryptoRandom, idsOf, seededRandom, type Ids, type Random } from './ids.js';
import { Journal } from './journal.js';
import type { Log } from './log.js';
import { hashSecret } from './services/auth.js';
import { createServices, type Services, type Shared } from './services/index.js';
import { generateP384, isP384, keyFingerprintId, pkcs8Pem, readP384PrivateKey } from './signatures/keys.js';
import { credentials, deliveries, events, jobs, programmes, webhooks } from './store/schema.js';
import type { Store } from './store/store.js';
import type { WebhookSigner } from './webhooks/send.js';
import type { CreatedProgramme, NewProgramme, ProgrammeSummary } from './wire/control.js';

type ProgrammeRow = typeof programmes.$inferSelect;

export interface Programme {
  id: string;
  core: Core;
  services: Services;
  journal: Journal;
  /**
   * Where its requests' ids come from: API requests and control-plane requests each from a stream
   * of their own, so that polling the control plane never changes the ids the API answers with
   * (docs/programmes.md: Deterministic runs).
   */
  requestIds: { api: Ids; control: Ids };
  /** The streams those ids are drawn from, for a snapshot to say where they stand. */
  requestStreams: { api: Random; control: Random };
  /** The seed it draws from, if it has one: a fork of its snapshot draws from it too. */
  seed: number | undefined;
}

export type { CreatedProgramme, NewProgramme, ProgrammeSummary };

/** The default programme's clock, ids and randomness when the caller (a test) gives them. */
export interface DefaultOverrides {
  clock?: Clock | undefined;
  ids?: Ids | undefined;
  random?: Random | undefined;
}

export interface ProgrammesDeps {
  store: Store;
  config: Config;
  log: Log;
  shared: Shared;
  /** Ids of programmes and their credentials. */
  ids: Ids;
  /** Their API secrets. */
  random: Random;
  wall?: () => number;
}

/** The key --webhook-key names: a P-384 private key, or a start-up error saying what is wrong. */
function readWebhookKeyFile(file: string): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`--webhook-key ${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const refuse = (reason: string) =>
    new ConfigError(`--webhook-key ${file}: ${reason}; make one with \`openssl ecparam -name secp384r1 -genkey -noout -out webhook-key.pem\``);
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw refuse('the file is not a PEM private key');
  }
  if (!isP384(key))
    throw refuse(
      `the key is ${key.asymmetricKeyType === 'ec' ? `an EC key on ${key.asymmetricKeyDetails?.namedCurve}` : `a ${key.asymmetricKeyType} key`}, not ECDSA P-384`,
    );
  return key;
}

export function createProgrammes({ store, config, log, shared, ids, random: secrets, wall = Date.now }: ProgrammesDeps, defaults: DefaultOverrides = {}) {
  const { db } = store;
  const loaded = new Map<string, Programme>();
  let running = false;

  const rowOf = (id: string) => db.select().from(programmes).where(eq(programmes.id, id)).get();

  /** The default programme's clock follows --clock at every start; others keep theirs in their row. */
  const clockOf = (row: ProgrammeRow): Clock => {
    if (row.id === DEFAULT_PROGRAMME) {
      if (defaults.clock) return defaults.clock;
      if (config.clock !== undefined) {
        const at = parseClockOption(config.clock, wall());
        if (at === undefined) throw new ConfigError(`--clock must be an ISO 8601 instant or "now", got "${config.clock}"`);
        return createClock({ frozenAt: at, wall });
      }
      return createClock({ offset: row.clockOffset, wall });
    }
    return row.clockFrozenAt !== null ? createClock({ frozenAt: row.clockFrozenAt, wall }) : createClock({ offset: row.clockOffset, wall });
  };

  /** The seed a programme draws from: --random-seed for the default programme, else the one it was made with. */
  const seedOf = (row: ProgrammeRow): number | undefined => (row.id === DEFAULT_PROGRAMME ? config.randomSeed : (row.randomSeed ?? undefined));

  /**
   * A seeded programme draws from its seed's stream from the start. A world kept in the database
   * (--db, after a restart) was drawn from that start already: it goes on from a stream of its own,
   * named by what the world holds, so that no id is drawn twice (docs/programmes.md: Deterministic runs).
   */
  const randomOf = (row: ProgrammeRow): Random => {
    if (row.id === DEFAULT_PROGRAMME && defaults.random) return defaults.random;
    const seed = seedOf(row);
    if (seed === undefined) return cryptoRandom();
    const lastEvent =
      db
        .select({ seq: max(events.seq) })
        .from(events)
        .where(eq(events.programmeId, row.id))
        .get()?.seq ?? 0;
    const hooks = db.select({ n: count() }).from(webhooks).where(eq(webhooks.programmeId, row.id)).get()!.n;
    return lastEvent === 0 && hooks === 0 ? seededRandom(seed) : seededRandom(seed).fork(`resumed after event ${lastEvent} with ${hooks} webhooks`);
  };

  /**
   * The key that signs the programme's webhooks: --webhook-key for the default programme when
   * given, else the one kept in its row, else a new one (a programme's first need of it: a new
   * programme costs no key until it sends or shows one), kept from then on. A seeded programme's
   * key comes from its seed.
   */
  const signerOf = (row: ProgrammeRow) => {
    let signer: WebhookSigner | undefined;
    return (): WebhookSigner => {
      if (signer) return signer;
      let privateKey: KeyObject;
      if (row.id === DEFAULT_PROGRAMME && config.webhookKey !== undefined) privateKey = readWebhookKeyFile(config.webhookKey);
      else {
        // Only this function writes the key, and it keeps what it made: the row read at build is current.
        if (row.webhookKey) privateKey = readP384PrivateKey(row.webhookKey);
        else {
          const seed = seedOf(row);
          privateKey = generateP384(seed === undefined ? undefined : seededRandom(seed).fork('webhook key').bytes(48)).privateKey;
          db.update(programmes)
            .set({ webhookKey: pkcs8Pem(privateKey) })
            .where(eq(programmes.id, row.id))
            .run();
        }
      }
      signer = { keyId: keyFingerprintId(createPublicKey(privateKey)), privateKey };
      return signer;
    };
  };

  const keepClock = (id: string) => (clock: Clock) => {
    db.update(programmes)
      .set({ clockOffset: clock.offset(), clockFrozenAt: clock.frozen ? clock.now() : null })
      .where(eq(programmes.id, id))
      .run();
  };

  const build = (row: ProgrammeRow): Programme => {
    const random = randomOf(row);
    const core: Core = {
      programme: row.id,
      store,
      clock: clockOf(row),
      ids: row.id === DEFAULT_PROGRAMME && defaults.ids ? defaults.ids : idsOf(random),
      random,
      config,
      log,
    };
    const services = createServices(core, shared, { signer: signerOf(row), keepClock: keepClock(row.id) });
    const requestStreams = { api: random.fork('api requests'), control: random.fork('control requests') };
    const requestIds = { api: idsOf(requestStreams.api), control: idsOf(requestStreams.control) };
    const programme = { id: row.id, core, services, journal: new Journal(config.journalSize), requestIds, requestStreams, seed: seedOf(row) };
    loaded.set(row.id, programme);
    if (running) {
      services.scheduler.start();
      services.scheduler.kick();
    }
    return programme;
  };

  /** A new row: a token secret and the clock asked for; the webhook key waits for its first use. */
  const insertRow = (id: string, name: string, options: { clockFrozenAt?: number | undefined; randomSeed?: number | undefined }): ProgrammeRow => {
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
    };
    db.insert(programmes).values(row).run();
    return row;
  };

  /** What the control plane shows; a programme not in memory is described from its row, not built. */
  const summary = (row: ProgrammeRow): ProgrammeSummary => {
    const clock = loaded.get(row.id)?.core.clock ?? clockOf(row);
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
      createdAt: iso(row.createdAt),
    };
  };

  const service = {
    /** The programme, or undefined when there is none with this id. */
    find(id: string): Programme | undefined {
      const cached = loaded.get(id);
      if (cached) return cached;
      const row = rowOf(id);
      return row && build(row);
    },

    /** The programme, or its 404. */
    get: (id: string): Programme => service.find(id) ?? fail('programme_not_found', `no programme with id ${id}`),

    default: (): Programme => service.get(DEFAULT_PROGRAMME),

    /** The programme holding `apiKey`, if any: API keys are unique across programmes. */
    byApiKey(apiKey: string): Programme | undefined {
      const owner = db.select({ programmeId: credentials.programmeId }).from(credentials).where(eq(credentials.apiKey, apiKey)).get();
      return owner && service.find(owner.programmeId);
    },

    /**
     * The default programme, made in a fresh database with the configured (or default) credential;
     * --api-key/--api-secret are registered at every start.
     */
    ensureDefault(): Programme {
      store.transaction(() => {
        if (!rowOf(DEFAULT_PROGRAMME)) insertRow(DEFAULT_PROGRAMME, DEFAULT_PROGRAMME, { randomSeed: config.randomSeed });
      });
      const programme = service.default();
      programme.services.auth.init(
        config.apiKey !== undefined && config.apiSecret !== undefined ? { apiKey: config.apiKey, apiSecret: config.apiSecret } : undefined,
      );
      // A --webhook-key that cannot serve stops the start, rather than the first delivery.
      if (config.webhookKey !== undefined) programme.services.webhooks.verificationKey();
      // --webhook-faults sets the default programme's faults at every start (docs/webhooks.md: Webhooks → The delivery lab).
      if (config.webhookFaults !== undefined) programme.services.lab.setFaults(undefined, config.webhookFaults);
      if (config.apiFaults !== undefined) programme.services.apiFaults.set(config.apiFaults);
      return programme;
    },

    create(input: NewProgramme): CreatedProgramme {
      let clockFrozenAt: number | undefined;
      if (input.clock !== undefined) {
        clockFrozenAt = parseClockOption(input.clock, wall());
        if (clockFrozenAt === undefined)
          fail('invalid_request', `invalid body: clock must be "now" or an ISO 8601 date-time, got "${input.clock}"`, [
            { path: 'clock', message: 'must be "now" or an ISO 8601 date-time' },
          ]);
      }
      // Its row and credential only: its services are built when it is first used.
      let apiKey = '';
      let apiSecret = '';
      const row = store.transaction(() => {
        const total = db.select({ n: count() }).from(programmes).get()!.n;
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
        const id = free((candidate) => rowOf(candidate) !== undefined);
        const made = insertRow(id, input.name ?? id, { clockFrozenAt, randomSeed: input.randomSeed });
        db.insert(credentials)
          .values({ apiKey, programmeId: id, secretHash: hashSecret(apiSecret), createdAt: made.createdAt })
          .run();
        return made;
      });
      return { ...summary(row), apiKey, apiSecret };
    },

    list(): ProgrammeSummary[] {
      return db
        .select()
        .from(programmes)
        .orderBy(programmes.createdAt, sql`rowid`)
        .all()
        .map(summary);
    },

    describe(id: string): ProgrammeSummary {
      return summary(rowOf(id) ?? fail('programme_not_found', `no programme with id ${id}`));
    },

    /** Deletes a programme and everything it owns; its pending deliveries are never sent. */
    remove(id: string): void {
      if (id === DEFAULT_PROGRAMME) fail('default_programme', 'the default programme cannot be deleted; reset it with POST /_sandbox/reset');
      if (!rowOf(id)) fail('programme_not_found', `no programme with id ${id}`);
      const programme = loaded.get(id);
      programme?.services.scheduler.stop();
      programme?.services.webhooks.stop();
      loaded.delete(id);
      db.delete(programmes).where(eq(programmes.id, id)).run();
    },

    /** The programmes in memory now. */
    loaded: (): Programme[] => [...loaded.values()],

    /**
     * Runs due work in real time from now on: every programme in memory, and those with work
     * waiting in the database (retries and jobs resume after a restart).
     */
    start(): void {
      running = true;
      const waiting = db
        .selectDistinct({ id: jobs.programmeId })
        .from(jobs)
        .union(db.selectDistinct({ id: deliveries.programmeId }).from(deliveries).where(eq(deliveries.status, 'pending')))
        .all();
      for (const { id } of waiting) service.find(id);
      for (const programme of loaded.values()) {
        programme.services.scheduler.start();
        programme.services.scheduler.kick();
      }
    },

    stop(): void {
      running = false;
      for (const programme of loaded.values()) programme.services.scheduler.stop();
    },
  };
  return service;
}

export type Programmes = ReturnType<typeof createProgrammes>;
