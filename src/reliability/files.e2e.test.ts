/**
 * A user's files, with the built CLI (docs/reliability.md: Files are whole): `--export-on-exit`
 * killed with SIGKILL at many moments of its write leaves the previous file whole or the new one,
 * never an empty or partial one; a folder it cannot write to is refused at start, and a write
 * that fails at exit exits 1; `--import`, `--seed` and `seed` read no more than the sandbox takes
 * (`/dev/zero` is refused at once), and say what is wrong without a byte of the file; `snapshot
 * export --out` and `report --junit` leave no temporary file behind; `skill --install` below /proc
 * fails at once, naming the folder. Start, stop and kill are the built CLI's, a process each; client
 * commands (seed, snapshot, report, skill) run through its entry in this process, against a sandbox
 * served from this process too.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestSandbox } from '../testing/harness.js';
import { openStore } from '../store/store.js';
import { parseSeedDocument } from '../wire/seed.js';
import { assertBuilt, runCli, spawnCli, startSandbox } from '../testing/spawn.js';
import { runCommand } from '../testing/cli.js';
import { startInProcess, type InProcessSandbox } from '../cli/commands/in-process.js';
import { until } from '../testing/wait.js';

// Every run is a Node process start on a loaded machine: generous limits, no speed checks.
vi.setConfig({ testTimeout: 600_000 });

const dir = mkdtempSync(join(tmpdir(), 'reliability-files-'));
const SECRET = 'root:x:0:0:the-secret-line-of-a-file';
/** The world of the kill test: 800 customers with an account and a card, so that its file takes a while to write. */
const CUSTOMERS = 800;
/** That world's snapshot file, which each sandbox of the kill test finds in place, and its bytes. */
const worldFile = join(dir, 'world.snapshot.json');
let world: Buffer;
/** A database holding that world, which each sandbox of the kill test starts from a copy of. */
const worldDb = join(dir, 'world.db');
/** The sandbox the client commands read and write files against: fixtures/demo.json's world, in this process. */
let served: InProcessSandbox;

/**
 * Resolves once the sandbox started by `pid` has recorded itself in its run file, which it does
 * once it listens for SIGTERM: a signal sent earlier would find no handler.
 */
async function listening(pid: number): Promise<void> {
  const file = join(tmpdir(), `card-sandbox-${process.getuid?.() ?? 'user'}`, `${pid}.json`);
  await until(() => existsSync(file), 'the run file');
}

interface SnapshotFile {
  format?: string;
  sha256?: string;
  state?: { world?: { customers?: unknown[] } };
}

/** `text` parsed when it is a whole snapshot file: JSON, of the format, its state matching its digest; else undefined. */
function wholeFile(text: string): SnapshotFile | undefined {
  try {
    const file = JSON.parse(text) as SnapshotFile;
    const whole = file.format === 'card-sandbox snapshot' && createHash('sha256').update(JSON.stringify(file.state)).digest('hex') === file.sha256;
    return whole ? file : undefined;
  } catch {
    return undefined;
  }
}

const whole = (text: string): boolean => wholeFile(text) !== undefined;

beforeAll(async () => {
  assertBuilt();
  writeFileSync(join(dir, SECRET.slice(0, 4)), `${SECRET}\nmore lines\n`);
  // Seeded once, in this process, into a database file that each killed sandbox opens a copy of.
  const sb = createTestSandbox({}, { store: openStore(worldDb) });
  const customers = Array.from({ length: CUSTOMERS }, (_, i) => ({ externalId: `c-${i}`, accounts: [{ currencies: ['EUR'], cards: [{}] }] }));
  sb.deps.services.sandbox.seed(parseSeedDocument({ customers }));
  const exported = sb.deps.snapshots.export(sb.deps.programmes.default());
  sb.deps.store.close();
  expect(whole(exported)).toBe(true);
  world = Buffer.from(exported);
  writeFileSync(worldFile, world);
  served = await startInProcess();
  const seeded = await runCommand(['seed', 'fixtures/demo.json', '--url', served.url]);
  expect(seeded.code, seeded.stderr).toBe(0);
});
afterAll(async () => {
  await served?.close();
  rmSync(dir, { recursive: true, force: true });
});

// Every test has folders and sandboxes of its own: they run together.

describe.concurrent('--export-on-exit', () => {
  it('killed with SIGKILL at twenty moments of its write, leaves the previous file whole or the new one', async () => {
    /** One sandbox, killed `delay` ms after its write has begun: which file it left. */
    const killedAt = async (delay: number): Promise<'previous' | 'next'> => {
      const folder = mkdtempSync(join(dir, `kill-${delay}-`));
      const file = join(folder, 'world.snapshot.json');
      copyFileSync(worldFile, file);
      // The database apart from the file's folder, whose changes tell that the write has begun.
      const db = join(mkdtempSync(join(dir, `db-${delay}-`)), 'world.db');
      copyFileSync(worldDb, db);
      const sandbox = await startSandbox(['--db', db, '--export-on-exit', file]);
      await listening(sandbox.process.child.pid!);
      // Kill at a moment of the write: once the folder changes (the write has begun), after 0–19 ms.
      const watcher = watch(folder, () => {
        watcher.close();
        setTimeout(() => sandbox.process.child.kill('SIGKILL'), delay);
      });
      sandbox.process.child.kill('SIGTERM');
      await sandbox.process.exited;
      watcher.close();
      // The previous file, byte for byte, is whole (checked once, above); any other must be whole itself.
      const left = readFileSync(file);
      if (left.equals(world)) return 'previous';
      const written = wholeFile(left.toString('utf8'));
      expect(written, `run ${delay}: ${left.length} bytes`).toBeDefined();
      // Nothing but the file is left in its folder by a write that finished, and it holds the world.
      expect(readdirSync(folder)).toEqual(['world.snapshot.json']);
      expect(written!.state!.world!.customers).toHaveLength(CUSTOMERS);
      return 'next';
    };
    // Two at a time: each run is a process and a folder of its own.
    const seen: string[] = [];
    for (let run = 0; run < 20; run += 2) seen.push(...(await Promise.all([run, run + 1].map(killedAt))));
    expect(seen).toHaveLength(20);
  });

  // One start for both: what it removed is read before the SIGTERM, which leaves the process at once.
  it('removes at start the temporary files a killed write left beside it, only those of a process that is gone; SIGTERM sent as soon as the --json ready line is read: a clean stop, and the file written', async () => {
    const folder = mkdtempSync(join(dir, 'stale-'));
    const file = join(folder, 'out.snapshot.json');
    const gone = spawnCli(['--version']);
    await gone.exited;
    const stale = `.out.snapshot.json.${gone.child.pid}.0badc0de.tmp`;
    const live = `.out.snapshot.json.${process.pid}.0badc0de.tmp`;
    for (const name of [stale, live]) writeFileSync(join(folder, name), '{"format":');
    const sandbox = await startSandbox(['--export-on-exit', file]);
    const atReady = readdirSync(folder);
    sandbox.process.child.kill('SIGTERM');
    const run = await sandbox.process.exited;
    expect(atReady).toEqual([live]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('SIGTERM: shutting down');
    expect(whole(readFileSync(file, 'utf8'))).toBe(true);
    expect(readdirSync(folder).sort()).toEqual([live, 'out.snapshot.json'].sort());
  });

  it('to a folder that does not exist: refused at start with exit 2, naming the path', async () => {
    const file = join(dir, 'no-such-folder', 'out.snapshot.json');
    const run = await runCli(['start', '--port', '0', '--export-on-exit', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--export-on-exit ${file}: the folder ${join(dir, 'no-such-folder')} does not exist`);
  });

  it('that cannot be written at exit: the process exits 1, saying so', async () => {
    const folder = mkdtempSync(join(dir, 'gone-'));
    const sandbox = await startSandbox(['--export-on-exit', join(folder, 'out.snapshot.json')]);
    await listening(sandbox.process.child.pid!);
    rmSync(folder, { recursive: true });
    sandbox.process.child.kill('SIGTERM');
    const run = await sandbox.process.exited;
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('could not be written');
  });
});

describe.concurrent('reading a file given by its path', () => {
  it.each([
    ['--import /dev/zero', ['start', '--port', '0', '--import', '/dev/zero'], /cannot read the snapshot file \/dev\/zero: larger than 64 MiB/],
    ['--seed /dev/zero', ['start', '--port', '0', '--seed', '/dev/zero'], /cannot read the seed file \/dev\/zero: larger than 1 MiB/],
  ])('%s: refused at once, exit 2', async (_, args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('a file that is not JSON, given to --import, --seed, seed or snapshot restore --file: said so without a byte of it', async () => {
    const file = join(dir, SECRET.slice(0, 4));
    for (const args of [
      ['start', '--port', '0', '--import', file],
      ['start', '--port', '0', '--seed', file],
      ['seed', file, '--url', served.url],
      ['snapshot', 'restore', '--file', file, '--url', served.url],
    ]) {
      // A client command runs in this process; `start` is a process of its own.
      const run = await (args[0] === 'start' ? runCli : runCommand)(args);
      expect(run.code, args.join(' ')).not.toBe(0);
      expect(run.stderr, args.join(' ')).toMatch(/not JSON/);
      expect(`${run.stdout}${run.stderr}`, args.join(' ')).not.toMatch(/root:x|secret/);
    }
  });
});

describe.concurrent('writing a file', () => {
  it('snapshot export --out and report --junit write whole files and leave nothing else', async () => {
    const folder = mkdtempSync(join(dir, 'out-'));
    const saved = await runCommand(['snapshot', 'save', '--json', '--url', served.url]);
    const { id } = JSON.parse(saved.stdout) as { id: string };
    expect((await runCommand(['snapshot', 'export', id, '--out', join(folder, 'a.snapshot.json'), '--url', served.url])).code).toBe(0);
    await runCommand(['report', '--junit', join(folder, 'report.xml'), '--url', served.url]);
    expect(readdirSync(folder).sort()).toEqual(['a.snapshot.json', 'report.xml']);
    expect(whole(readFileSync(join(folder, 'a.snapshot.json'), 'utf8'))).toBe(true);
    expect(readFileSync(join(folder, 'report.xml'), 'utf8')).toMatch(/<\/testsuites>\n$/);
  });

  it('skill --install below /proc fails at once, naming the folder', async () => {
    const run = await runCommand(['skill', '--install', '/proc/self/x']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot install the skill in \/proc\/self\/x\/card-sandbox: cannot make \/proc\/self\/x/);
    expect(existsSync('/proc/self/x')).toBe(false);
  });
});
