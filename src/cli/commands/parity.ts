/**
 * `parity --upstream <url> --api-key <key> --api-secret <secret> …` (docs/parity.md): the same journey
 * against the hosted service and a new programme of a sandbox — one started in this process, or one
 * made in the sandbox at --url and deleted afterwards — and every difference between their answers,
 * as a table, JSON (--json, --out) or JUnit (--junit). Exit 0 with no difference, 1 with any, 2 when
 * it could not run. It talks to both over HTTP, as an integrator's client does.
 */
import { createPrivateKey, generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseDuration } from '../../domain/duration.js';
import { writeFileAtomicSync } from '../../kernel/files.js';
import { UnreachableError } from '../../client/control.js';
import { ApiError } from '../../client/operations.js';
import { cleanUp, cleanUpSaid } from '../../parity/clean-up.js';
import { JOURNEY } from '../../parity/journey.js';
import { notice } from '../../parity/notice.js';
import { junitXml, parityReport, stepHeader, tableRows, type ParityReport } from '../../parity/report.js';
import { runJourney, type StepResult } from '../../parity/run.js';
import { CannotRun, createSide } from '../../parity/side.js';
import { createSideRun, type RunValues } from '../../parity/side-run.js';
import { ClientUsageError, createClient, resolveClientOptions } from '../client.js';
import { command, CommandExit } from '../command.js';
import type { Io } from '../io.js';
import { startInProcess } from './in-process.js';

export const EXIT_SAME = 0;
export const EXIT_DIFFERENT = 1;
export const EXIT_CANNOT_RUN = 2;

export interface ParityOptions {
  upstream: string;
  apiKey: string;
  apiSecret: string;
  signingKey?: string;
  signingKeyId?: string;
  url?: string;
  json?: boolean;
  junit?: string;
  out?: string;
  dryRun?: boolean;
  /** The whole run's deadline, a duration (`15m`). */
  timeout?: string;
  /** One request's, a duration (`30s`). */
  requestTimeout?: string;
}

const DEFAULT_TIMEOUT = '15m';
const DEFAULT_REQUEST_TIMEOUT = '30s';

/** A deadline flag's milliseconds: a duration from 1 s to 24 h. */
function deadline(flag: string, raw: string): number {
  const ms = parseDuration(raw);
  if (ms === undefined || ms < 1_000 || ms > 86_400_000)
    throw new CannotStart(`${flag} must be a duration from 1s to 24h, such as "15m" or "30s"; got "${raw}"`);
  return ms;
}

/** Why parity cannot start or go on: said in one line, exit 2. */
class CannotStart extends Error {}

function upstreamUrl(raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // Said below.
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new CannotStart(`--upstream must be the service's base URL with /v1, such as https://api.example.com/v1; got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

/** The upstream's signing key: the user's, registered there already, or one made for the run (`own`). */
function upstreamKey(options: ParityOptions): { keyId: string; privateKey: KeyObject; own: boolean } {
  const file = options.signingKey;
  if ((file === undefined) !== (options.signingKeyId === undefined)) throw new CannotStart('--signing-key and --signing-key-id go together');
  if (file === undefined) return { keyId: randomUUID(), privateKey: generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey, own: true };
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CannotStart(
      code?.startsWith('E') && !code.startsWith('ERR_') ? `cannot read --signing-key ${file}: ${code}` : `--signing-key ${file} is not a PEM private key`,
    );
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'secp384r1')
    throw new CannotStart(`--signing-key ${file} is not an ECDSA P-384 private key`);
  return { keyId: options.signingKeyId!, privateKey: key, own: false };
}

/** A new programme of the sandbox at --url, or of one started here; `done` deletes it (and stops the one started here). */
async function localProgramme(options: ParityOptions, env: Record<string, string | undefined>, run: string) {
  const own = options.url === undefined ? await startInProcess({ verify: 'strict' }) : undefined;
  try {
    const { url, adminToken } = resolveClientOptions({ url: own?.url ?? options.url }, env);
    const client = createClient({ url, ...(adminToken && { adminToken }) });
    const programme = await client.createProgramme({ name: `parity-${run}` });
    const done = async () => {
      await client.deleteProgramme(programme.id).catch(() => undefined);
      await own?.close();
    };
    return { url, apiKey: programme.apiKey, apiSecret: programme.apiSecret, done };
  } catch (error) {
    await own?.close();
    if (error instanceof UnreachableError || error instanceof ClientUsageError) throw new CannotStart(error.message);
    if (error instanceof ApiError) throw new CannotStart(`the sandbox refused a new programme: ${error.message}`);
    throw error;
  }
}

function printSteps(io: Io, json: boolean): void {
  const steps = JOURNEY.map((s) => ({ ...stepHeader(s), does: s.does }));
  if (json) return io.json({ steps });
  io.table(
    ['STEP', 'OPERATION', 'DOES'],
    steps.map((s) => [s.id, `${s.method} ${s.path}`, s.does]),
  );
}

function printTable(io: Io, report: ParityReport): void {
  const c = io.color;
  const rows = tableRows(report).map(({ same, cells }) =>
    same ? [cells[0]!, c.dim(cells[1]!), c.green('same'), '', '', ''] : [c.bold(cells[0]!), cells[1]!, c.red(cells[2]!), ...cells.slice(3)],
  );
  io.table(['STEP', 'OPERATION', 'KIND', 'WHERE', 'UPSTREAM', 'LOCAL'], rows);
  const { steps, differing } = report.summary;
  io.out(`\n${steps} steps: ${c.green(`${steps - differing} the same`)}, ${differing ? c.red(`${differing} differ`) : '0 differ'}`);
}

/** Runs the journey on both sides, cleans up, and reports; returns the exit code. */
export async function parity(io: Io, options: ParityOptions, env: Record<string, string | undefined> = process.env, signal?: AbortSignal): Promise<number> {
  const cannot = (message: string) => {
    io.err(`${io.color.red('error')} ${message}`);
    return EXIT_CANNOT_RUN;
  };
  let upstreamBase: string;
  let key: ReturnType<typeof upstreamKey>;
  let runMs: number;
  let requestTimeoutMs: number;
  try {
    upstreamBase = upstreamUrl(options.upstream);
    key = upstreamKey(options);
    runMs = deadline('--timeout', options.timeout ?? DEFAULT_TIMEOUT);
    requestTimeoutMs = deadline('--request-timeout', options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT);
  } catch (error) {
    if (error instanceof CannotStart) return cannot(error.message);
    throw error;
  }
  const where = options.url === undefined ? 'a new programme of a sandbox started in this process' : `a new programme of the sandbox at ${options.url}`;
  const told = notice(JOURNEY, { upstream: upstreamBase, apiKey: options.apiKey, local: where, ownKey: key.own });
  if (options.dryRun) {
    io.err(told);
    printSteps(io, options.json === true);
    return EXIT_SAME;
  }

  const values: RunValues = {
    run: randomBytes(4).toString('hex'),
    unknownId: randomUUID(),
    walletKeys: [1, 2, 3].map(() => `0x${randomBytes(32).toString('hex')}`),
  };
  // Ctrl-C, SIGTERM or the run's deadline: requests in flight end, and no step starts after them.
  const expired = AbortSignal.timeout(runMs);
  const stopping = signal ? AbortSignal.any([signal, expired]) : expired;
  const upstream = createSide({
    baseUrl: upstreamBase,
    apiKey: options.apiKey,
    apiSecret: options.apiSecret,
    keyId: key.keyId,
    privateKey: key.privateKey,
    requestTimeoutMs,
  });
  upstream.stopOn(stopping);
  const upstreamRun = createSideRun(upstream, values);
  let local: Awaited<ReturnType<typeof localProgramme>>;
  try {
    await upstream.connect();
    local = await localProgramme(options, env, values.run);
  } catch (error) {
    if (error instanceof CannotRun || error instanceof CannotStart) return cannot(`cannot run: ${error.message}`);
    throw error;
  }
  // Said once the upstream took the credentials (a token changes nothing there), before anything is made.
  io.err(told);

  const startedAt = new Date();
  let results: StepResult[] = [];
  /** What the clean-up could not end; -1 when it stopped. */
  let left = 0;
  let failed: string | undefined;
  let registered = false;
  try {
    const localKey = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey;
    const localSide = createSide({
      baseUrl: local.url,
      apiKey: local.apiKey,
      apiSecret: local.apiSecret,
      keyId: randomUUID(),
      privateKey: localKey,
      requestTimeoutMs,
    });
    localSide.stopOn(stopping);
    await localSide.connect();
    await localSide.registerKey();
    if (key.own) {
      await upstream.registerKey();
      registered = true;
    }
    results = await runJourney({ journey: JOURNEY, upstream: upstreamRun, local: createSideRun(localSide, values), signal: stopping });
  } catch (error) {
    // Exit 1 says "a difference": anything else that stops the run is exit 2, with what the clean-up below did.
    // Stopping ends what was in flight: said below as a stop, not as a failure.
    if (!stopping.aborted) failed = `cannot run: ${(error as Error).message}`;
  } finally {
    // The clean-up runs whatever stopped the run, each request within --request-timeout.
    upstream.stopOn(undefined);
    const cleaned = await cleanUp(upstreamRun).catch((error: unknown) => ({ lines: [`stopped: ${(error as Error).message}`], left: -1 }));
    for (const line of cleaned.lines) io.err(`clean-up on the upstream: ${line}`);
    left = cleaned.left;
    if (registered) {
      const removed = await upstream.removeKey().catch((error: unknown) => ({ none: (error as Error).message, status: undefined }));
      if (removed.status === undefined || removed.status >= 300) {
        io.err(`clean-up on the upstream: signing key ${key.keyId} not deleted (${removed.none ?? removed.status})`);
        left = left < 0 ? left : left + 1;
      }
    }
    await local.done();
  }

  if (failed !== undefined) return cannot(left === 0 ? failed : `${failed}; ${cleanUpSaid(left)}`);
  if (results.length < JOURNEY.length) {
    const why = expired.aborted ? `: the run's deadline (--timeout ${options.timeout ?? DEFAULT_TIMEOUT}) passed` : '';
    return cannot(`stopped after ${results.length} of ${JOURNEY.length} steps${why}; ${cleanUpSaid(left)}`);
  }
  const report = parityReport(upstreamBase, `${local.url}/v1`, results);
  if (options.junit !== undefined) {
    writeFileAtomicSync(options.junit, junitXml(report, results, startedAt));
    io.err(`wrote the JUnit report to ${resolve(options.junit)}`);
  }
  if (options.out !== undefined) {
    writeFileAtomicSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
    io.err(`wrote the JSON report to ${resolve(options.out)}`);
  }
  if (options.json) io.json(report);
  else printTable(io, report);
  // What is left on the upstream needs a person: said last, and exit 2 whatever the comparison found.
  if (left !== 0) {
    io.err(`error ${cleanUpSaid(left)}`);
    return EXIT_CANNOT_RUN;
  }
  return report.summary.differing > 0 ? EXIT_DIFFERENT : EXIT_SAME;
}

const EXAMPLE = '--upstream https://sandbox.example.com/v1 --api-key $KEY --api-secret $SECRET';

export const parityCommand = command<ParityOptions>({
  name: 'parity',
  description: 'Run the same journey against the hosted service and a new sandbox programme, and show every difference (exit 1 with any, 2 when it cannot run)',
  client: false,
  options: [
    { flags: '--upstream <url>', description: "the service's base URL, with /v1", required: true },
    { flags: '--api-key <key>', description: 'your API key on the service', required: true },
    { flags: '--api-secret <secret>', description: 'its secret', required: true },
    {
      flags: '--signing-key <file>',
      description: 'the PEM private key (ECDSA P-384) registered on the service to sign with (default: one made and registered for the run, deleted after it)',
    },
    { flags: '--signing-key-id <id>', description: 'the signingKeyId it is registered under' },
    { flags: '--url <url>', description: 'a running sandbox to make a new programme in (default: one started in this process)' },
    { flags: '--json', description: 'print the report as JSON and nothing else on stdout' },
    { flags: '--junit <file>', description: 'also write it as JUnit XML: a test case per step' },
    { flags: '--out <file>', description: 'also write the JSON report to this file' },
    { flags: '--dry-run', description: 'print the steps and what it would touch, and send nothing' },
    {
      flags: '--timeout <duration>',
      description: `the whole run's deadline: past it, the step in flight ends and the clean-up runs (default ${DEFAULT_TIMEOUT})`,
    },
    { flags: '--request-timeout <duration>', description: `how long one request may take before it counts as unanswered (default ${DEFAULT_REQUEST_TIMEOUT})` },
  ],
  examples: [
    `parity ${EXAMPLE} --signing-key client.key --signing-key-id $KEY_ID`,
    `parity ${EXAMPLE} --json --junit parity.xml`,
    `parity ${EXAMPLE} --dry-run`,
  ],
  action: async ({ io, env }, flags) => {
    // Ctrl-C stops after the step in flight and cleans up; a second one stops at once.
    const abort = new AbortController();
    const stop = () => abort.abort();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);
    try {
      const code = await parity(io, flags, env, abort.signal);
      if (code !== 0) throw new CommandExit(code);
    } finally {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, stop);
    }
  },
});
