/**
 * The snapshot file (docs/snapshots.md: The file): one JSON document — its header (the format and
 * its version, the snapshot's id, name and creation time, the sandbox that wrote it, the SHA-256 of
 * its state), then the programme's state: its clock, where its random streams stand, its faults
 * and pause, its journal, and its world, table by table, as records of the format's own fields
 * (format.ts). The database keeps a snapshot as this file. Every file read — from elsewhere or kept
 * in the database — is brought to the current version (migrations.ts) and checked to the value
 * before anything changes; one from elsewhere also by its digest and as a whole world (checks.ts).
 */
import { createHash } from 'node:crypto';
// Gives the event loop a turn: a large file is read in slices, so that other programmes' requests are answered meanwhile.
import { setImmediate as pause } from 'node:timers/promises';
import { z } from 'zod';
import type { ClockState } from '../kernel/clock.js';
import { ApiFaultsShown } from '../domain/api-faults.js';
import type { ApiFaultsView } from '../wire/api-faults.js';
import { fail, SandboxError, type FieldError } from '../domain/errors.js';
import type { FeeSettings } from '../domain/fees.js';
import type { RateTable } from '../domain/money.js';
import type { MovedRates } from '../domain/rates.js';
import { readFixture } from '../kernel/fixtures.js';
import { Uuid } from '../domain/formats.js';
import { instantProblem } from '../domain/instant.js';
import { jsonProblem } from '../domain/json-problem.js';
import { StoredFaults } from '../domain/stored-faults.js';
import { Seed, type Faults } from '../domain/webhook-faults.js';
import type { RandomState } from '../kernel/ids.js';
import { FeeSettingsInput } from '../wire/fees.js';
import { MovedRatesInput } from '../wire/rates.js';
import { JournalEntry } from '../wire/journal.js';
import type { ApiFaultDraws } from '../services/api-faults.js';
import type { WorldTableName } from '../store/world.js';
import { version } from '../kernel/version.js';
import { worldProblems, type World } from './checks.js';
import { cellsOf, fileInstant, type RecordProblem } from './format.js';
import { FORMAT_TABLES } from './tables.js';
import { migrate, MigrationProblem, readableVersions } from './migrations.js';
import { parseJson } from './json-slices.js';
import { echo } from '../domain/echo.js';
import { SNAPSHOT_FORMAT } from '../wire/limits.js';

/** The version of the format this sandbox writes; it reads this one and every earlier one (migrations.ts). */
export const SNAPSHOT_VERSION = 3;
const READABLE = readableVersions(SNAPSHOT_VERSION);

export type TableName = WorldTableName;

/** Each table's rows as cells, in the order format.ts `columnsOf` names its columns. */
export type TableRows = Record<TableName, unknown[][]>;

/** What a programme is at one instant, as a snapshot holds it. */
export interface ProgrammeState {
  /** The seed it was made with, which a fork is made with too. */
  seed?: number | undefined;
  clock: ClockState;
  /** Where its random streams stand: the one its services draw from, and its requests' ids'; absent for an unseeded one. */
  random: { main?: RandomState | undefined; apiRequests?: RandomState | undefined; controlRequests?: RandomState | undefined };
  webhookFaults?: Faults | undefined;
  webhooksPaused: boolean;
  /** The fees its new transactions carry (docs/money-path.md: Fees); absent for none. */
  fees?: FeeSettings | undefined;
  /** The rates it moved from the shipped table (docs/money-path.md: Moving rates); absent for none, as in files written before rates moved. */
  rates?: MovedRates | undefined;
  /** The API fault lab's rules as GET /_sandbox/api/faults shows them, and where its draws stand. */
  apiFaults: { shown: ApiFaultsView; draws: ApiFaultDraws };
  /** Newest first. */
  journal: JournalEntry[];
  rows: TableRows;
}

export interface SnapshotHeader {
  id: string;
  name: string;
  createdAt: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A world as the file writes it: each table's records as the bytes of a JSON list, in FORMAT_TABLES' order, and each table's count. */
export interface WorldText {
  tables: Uint8Array[];
  counts: Record<TableName, number>;
}

/** What a snapshot takes of a programme but its world, which is written as text (rows.ts `text`). */
export type CapturedState = Omit<ProgrammeState, 'rows'>;

/**
 * The file of a snapshot: its header, then its state, the world written as records. The world's
 * lists come as the JSON text SQLite wrote (format.ts `recordSql`); the state's bytes are hashed
 * as they are put together, and the file is written once, as bytes.
 */
export function snapshotFile(header: SnapshotHeader, captured: CapturedState, world: WorldText): Buffer {
  const { clock, ...rest } = captured;
  const open = JSON.stringify({ ...rest, clock: { now: new Date(clock.now).toISOString(), frozen: clock.frozen } });
  const state: Uint8Array[] = [Buffer.from(`${open.slice(0, -1)},"world":{`)];
  FORMAT_TABLES.forEach((table, i) => state.push(Buffer.from(`${i ? ',' : ''}${JSON.stringify(table.name)}:`), world.tables[i]!));
  state.push(Buffer.from('}}'));
  const hash = createHash('sha256');
  for (const piece of state) hash.update(piece);
  const head = JSON.stringify({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, ...header, sandbox: version(), sha256: hash.digest('hex') });
  return Buffer.concat([Buffer.from(`${head.slice(0, -1)},"state":`), ...state, Buffer.from('}')]);
}

const word = z
  .int()
  .min(0)
  .max(2 ** 32 - 1);
const Stream = z.strictObject({ key: z.string(), words: z.tuple([word, word, word, word]) });

/** An instant of the file: RFC 3339, within the sandbox's range of time; epoch ms once read. */
const FileInstant = z.string().transform((text, ctx) => {
  const read = fileInstant(text);
  if ('cell' in read) return read.cell;
  ctx.addIssue({ code: 'custom', message: read.problem });
  return z.NEVER;
});

const Entry = JournalEntry.superRefine((entry, ctx) => {
  const problem = instantProblem(Date.parse(entry.time));
  if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['time'], message: problem });
});

const Records = z.array(z.unknown(), 'must be a list of records');

/** The state but its world, which is read record by record (format.ts). */
const State = z.strictObject({
  seed: Seed.optional(),
  clock: z.strictObject({ now: FileInstant, frozen: z.boolean() }),
  random: z.strictObject({ main: Stream.optional(), apiRequests: Stream.optional(), controlRequests: Stream.optional() }),
  webhookFaults: StoredFaults.optional(),
  webhooksPaused: z.boolean(),
  fees: FeeSettingsInput.optional(),
  // Read when a file is, not when the CLI loads: a command that reads no snapshot reads no fixture.
  rates: z.lazy(() => MovedRatesInput(readFixture<RateTable>('rates.json'))).optional(),
  apiFaults: z.strictObject({ shown: ApiFaultsShown, draws: z.strictObject({ programme: Stream.optional(), rules: Stream.optional() }) }),
  journal: z.array(Entry),
  world: z.strictObject(Object.fromEntries(FORMAT_TABLES.map(({ name }) => [name, Records])) as Record<TableName, typeof Records>),
});

const Header = z.strictObject({
  format: z.literal(SNAPSHOT_FORMAT),
  version: z.literal(SNAPSHOT_VERSION),
  id: Uuid,
  name: z.string(),
  createdAt: z.iso.datetime(),
  /** The version of card-sandbox that wrote it. */
  sandbox: z.string(),
  /** The SHA-256 of its state's JSON text. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hexadecimal digits'),
});

const File = Header.extend({ state: State });

/** The file as the control plane's document describes it: its header, and its state as this version of the sandbox writes it. */
export const SnapshotFile = Header.extend({
  state: z
    .record(z.string(), z.unknown())
    .meta({ description: "The programme's clock, random streams, faults, pause, journal and its world, table by table, as records" }),
}).meta({ id: 'SnapshotFile' });

type Parsed = z.output<typeof File>;
/** A snapshot read back: its header, and the state ready to be put in place — the world as cells, the API fault lab's rules in their normal form. */
export type SnapshotRead = Omit<Parsed, 'state'> & { state: Omit<Parsed['state'], 'world'> & { rows: TableRows } };
export type RestoredState = SnapshotRead['state'];

const SLICE = 2000;

const STATE_KEY = Buffer.from(',"state":');
const CLOSE = '}'.charCodeAt(0);
const DIGEST_SLICE = 1 << 20;

/**
 * Whether the file's state is what its digest says: the digest of the state's JSON text. A file as
 * the sandbox writes it holds that text as it is, after `,"state":` (no string of the header can
 * hold those characters unescaped), so its bytes are hashed where they lie, a slice at a time
 * (hashing the text instead would encode it again, in one go); a file written out again by other
 * hands (indented, its keys moved) is hashed as its state written anew.
 */
async function digestMatches(bytes: Buffer, file: Record<string, unknown>): Promise<boolean> {
  const at = bytes.indexOf(STATE_KEY);
  if (at >= 0 && bytes.at(-1) === CLOSE) {
    const hash = createHash('sha256');
    for (let from = at + STATE_KEY.length; from < bytes.length - 1; from += DIGEST_SLICE) {
      hash.update(bytes.subarray(from, Math.min(from + DIGEST_SLICE, bytes.length - 1)));
      await pause();
    }
    if (hash.digest('hex') === file.sha256) return true;
  }
  return sha256(JSON.stringify(file.state)) === file.sha256;
}

/** The world's records as cells, every value checked; the first ten problems otherwise. */
async function worldRows(world: World): Promise<{ rows: TableRows } | { problems: RecordProblem[] }> {
  const problems: RecordProblem[] = [];
  const rows = {} as TableRows;
  let read = 0;
  for (const table of FORMAT_TABLES) {
    const records = world[table.name]!;
    const cells: unknown[][] = new Array(records.length);
    for (let i = 0; i < records.length; i++) {
      const row = cellsOf(table, records[i], `state.world.${table.name}.${i}`, problems);
      if (row) cells[i] = row;
      if (problems.length >= 10) return { problems };
      if (++read % SLICE === 0) await pause();
    }
    rows[table.name] = cells;
  }
  return problems.length ? { problems } : { rows };
}

/**
 * Reads a snapshot file. `verify` checks a file from elsewhere by its digest and as a whole world
 * (references, bodies, callback URLs), which one the database kept needs not; every value is
 * checked either way. A file that is not one, is cut short, corrupt or malformed is an
 * `invalid_snapshot`; one of a version this sandbox cannot read, `snapshot_version_unsupported`.
 */
export async function readSnapshot(input: string | Uint8Array, verify: boolean): Promise<SnapshotRead> {
  // Bytes as received are hashed as they are, and parsed as UTF-8 a slice at a time.
  const bytes = () => (typeof input === 'string' ? Buffer.from(input) : Buffer.from(input.buffer, input.byteOffset, input.byteLength));
  if (input.length === 0) fail('invalid_snapshot', 'the body is empty: send a snapshot file, as GET /_sandbox/snapshots/{id}/file gives it');
  let json: unknown;
  try {
    json = await parseJson(typeof input === 'string' ? input : bytes(), pause);
  } catch (error) {
    fail(
      'invalid_snapshot',
      `the file is not JSON (cut short or corrupt?): ${jsonProblem(error, typeof input === 'string' ? input : bytes().toString('utf8'))}`,
    );
  }
  await pause();
  const file = (typeof json === 'object' && json !== null && !Array.isArray(json) ? json : {}) as Record<string, unknown>;
  if (file.format !== SNAPSHOT_FORMAT) fail('invalid_snapshot', `this is not a snapshot file: it has no "format": "${SNAPSHOT_FORMAT}"`);
  if (typeof file.version !== 'number') fail('invalid_snapshot', 'the file has no version');
  if (!READABLE.includes(file.version)) {
    const writer = typeof file.sandbox === 'string' ? ` (written by card-sandbox ${echo(file.sandbox, 40)})` : '';
    fail(
      'snapshot_version_unsupported',
      `the file is a version ${file.version} snapshot${writer}; card-sandbox ${version()} reads versions ${READABLE.join(', ')} and writes version ${SNAPSHOT_VERSION}: restore it with the version that wrote it`,
    );
  }
  if (typeof file.state !== 'object' || file.state === null)
    fail('invalid_snapshot', 'the file has a snapshot header but no "state": it holds no programme (was it cut short, or written by hand?)');
  if (verify && (typeof file.sha256 !== 'string' || !(await digestMatches(bytes(), file)))) {
    fail('invalid_snapshot', 'the file is corrupt: its state does not match its sha256 (was it changed, or cut short and mended?)');
  }
  let current: Record<string, unknown>;
  try {
    current = { ...file, version: SNAPSHOT_VERSION, state: migrate(file.state as Record<string, unknown>, file.version, SNAPSHOT_VERSION) };
  } catch (error) {
    if (error instanceof MigrationProblem) throw refused([{ path: error.path, message: error.message }]);
    throw error;
  }
  const parsed = File.safeParse(current);
  if (!parsed.success) throw refused(parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || 'file', message: issue.message })));
  const world = parsed.data.state.world as World;
  const read = await worldRows(world);
  if ('problems' in read) throw refused(read.problems);
  if (verify) {
    const problems = await worldProblems(world, pause);
    if (problems.length) throw refused(problems.map((p) => ({ ...p, path: `state.${p.path}` })));
  }
  const { world: _world, ...state } = parsed.data.state;
  return { ...parsed.data, state: { ...state, rows: read.rows } };
}

/** Every problem found, in one refusal naming each place. */
function refused(errors: FieldError[]): SandboxError {
  const places = [...new Set(errors.map((e) => e.path))].join(', ');
  return new SandboxError('invalid_snapshot', `the snapshot file is invalid at ${places}${errors.length === 1 ? `: ${errors[0]!.message}` : ''}`, errors);
}
