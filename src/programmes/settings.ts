/**
 * What a programme is built from, worked out once: its clock, the seed and random stream it draws
 * from, its ids, and the key that signs its webhooks. Every programme takes them from its row but
 * the default one, which takes them from the start's options (--clock, --random-seed,
 * --webhook-key) and, in tests, from the caller (docs/programmes.md: Deterministic runs).
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { count, eq, max } from 'drizzle-orm';
import { createClock, type Clock } from '../kernel/clock.js';
import { MAX_INSTANT, readClockOption } from '../domain/instant.js';
import { ConfigError, type Config } from '../config/index.js';
import { DEFAULT_PROGRAMME } from '../domain/programme.js';
import { cryptoRandom, idsOf, seededRandom, type Ids, type Random } from '../kernel/ids.js';
import { generateP384, isP384, keyFingerprintId, pkcs8Pem, readP384PrivateKey } from '../signatures/keys.js';
import { events, programmes, webhooks } from '../store/schema.js';
import type { Store } from '../store/store.js';
import type { WebhookSigner } from '../webhooks/send.js';

export type ProgrammeRow = typeof programmes.$inferSelect;

/** The default programme's clock, ids and randomness when the caller (a test) gives them. */
export interface DefaultOverrides {
  clock?: Clock | undefined;
  ids?: Ids | undefined;
  random?: Random | undefined;
}

export interface ProgrammeSettings {
  clock: Clock;
  /** The seed it draws from, if it has one: a fork of its snapshot draws from it too. */
  seed: number | undefined;
  random: Random;
  ids: Ids;
  /** The key that signs its webhooks, made or read when first needed. */
  signer: () => WebhookSigner;
}

/** What the row does not decide: for the default programme, the start's options and the caller's overrides. */
interface Given extends DefaultOverrides {
  seed: number | undefined;
  webhookKeyFile?: string | undefined;
}

export interface SettingsDeps {
  store: Store;
  config: Config;
  defaults: DefaultOverrides;
  wall: () => number;
}

export function programmeSettings({ store, config, defaults, wall }: SettingsDeps) {
  const { db } = store;

  /** The one place the default programme differs: its clock follows --clock at every start, running from its kept offset otherwise. */
  const given = (row: ProgrammeRow): Given => {
    if (row.id !== DEFAULT_PROGRAMME) return { seed: row.randomSeed ?? undefined };
    return {
      clock: defaults.clock ?? startClock(config, wall) ?? createClock({ offset: row.clockOffset, wall, latest: MAX_INSTANT }),
      seed: config.randomSeed,
      ids: defaults.ids,
      random: defaults.random,
      webhookKeyFile: config.webhookKey,
    };
  };

  const clockOf = (row: ProgrammeRow, { clock }: Given = given(row)): Clock =>
    clock ??
    (row.clockFrozenAt !== null
      ? createClock({ frozenAt: row.clockFrozenAt, wall, latest: MAX_INSTANT })
      : createClock({ offset: row.clockOffset, wall, latest: MAX_INSTANT }));

  /**
   * A seeded programme draws from its seed's stream from the start. A world kept in the database
   * (--db, after a restart) was drawn from that start already: it goes on from a stream of its own,
   * named by what the world holds, so that no id is drawn twice (docs/programmes.md: Deterministic runs).
   */
  const randomOf = (row: ProgrammeRow, seed: number): Random => {
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
   * The key that signs the programme's webhooks: the --webhook-key file when given, else the one
   * kept in its row, else a new one (a programme's first need of it: a new programme costs no key
   * until it sends or shows one), kept from then on. A seeded programme's key comes from its seed.
   */
  const signerOf = (row: ProgrammeRow, { seed, webhookKeyFile }: Given) => {
    let signer: WebhookSigner | undefined;
    return (): WebhookSigner => {
      if (signer) return signer;
      let privateKey: KeyObject;
      if (webhookKeyFile !== undefined) privateKey = readWebhookKeyFile(webhookKeyFile);
      // Only this function writes the key, and it keeps what it made: the row read at build is current.
      else if (row.webhookKey) privateKey = readP384PrivateKey(row.webhookKey);
      else {
        privateKey = generateP384(seed === undefined ? undefined : seededRandom(seed).fork('webhook key').bytes(48)).privateKey;
        db.update(programmes)
          .set({ webhookKey: pkcs8Pem(privateKey) })
          .where(eq(programmes.id, row.id))
          .run();
      }
      signer = { keyId: keyFingerprintId(createPublicKey(privateKey)), privateKey };
      return signer;
    };
  };

  return {
    /** Everything the programme of `row` is built from. */
    of(row: ProgrammeRow): ProgrammeSettings {
      const g = given(row);
      const random = g.random ?? (g.seed === undefined ? cryptoRandom() : randomOf(row, g.seed));
      return { clock: clockOf(row, g), seed: g.seed, random, ids: g.ids ?? idsOf(random), signer: signerOf(row, g) };
    },
    /** Its clock alone, to describe a programme not in memory without building it. */
    clockOf: (row: ProgrammeRow): Clock => clockOf(row),
  };
}

export type Settings = ReturnType<typeof programmeSettings>;

/** --clock, when given. */
function startClock(config: Config, wall: () => number): Clock | undefined {
  if (config.clock === undefined) return undefined;
  const read = readClockOption(config.clock, wall());
  if ('problem' in read) throw new ConfigError(`--clock ${read.problem}, got "${config.clock}"`);
  return createClock({ frozenAt: read.at, wall, latest: MAX_INSTANT });
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
