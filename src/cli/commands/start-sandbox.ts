/**
 * The sandbox `card-sandbox start` runs: built from the configuration, given its snapshot file or
 * seed world, listening, and announced. Loaded only when `start` runs (start.ts): no other command
 * pays for the server, the store and the services.
 */
import { readFileSync } from 'node:fs';
import { createPublicKey } from 'node:crypto';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET, type Config } from '../../config/index.js';
import { buildDeps, type Deps } from '../../deps.js';
import { isLoopbackHost } from '../../domain/addresses.js';
import { SandboxError } from '../../domain/errors.js';
import { count } from '../../domain/words.js';
import { removeStaleTemporaries, unwritableProblem } from '../../kernel/files.js';
import { jsonLog } from '../../kernel/log.js';
import { startServer, type RunningSandbox } from '../../server.js';
import { keyFingerprintId, spkiPem } from '../../signatures/keys.js';
import { faultsView } from '../../wire/delivery-lab.js';
import { parseSeedDocument } from '../../wire/seed.js';
import { tracingSettings } from '../../tracing/settings.js';
import { version } from '../../kernel/version.js';
import { ClientUsageError } from '../client.js';
import { StartError } from '../command.js';
import type { Io } from '../io.js';
import { readSeedFile } from './seed.js';
import { holds, readSnapshotFile } from './snapshot.js';
import { faultsText } from './webhooks.js';

/**
 * The banner's clock: frozen, real time, or running ahead of it or behind it by an offset that the
 * database kept or that an imported snapshot set (`from` says which).
 */
export function clockText(frozen: boolean, now: number, offsetMs: number, from = 'kept in the database'): string {
  if (frozen) return `frozen at ${new Date(now).toISOString()}`;
  const by = Math.abs(offsetMs);
  if (by < 1000) return 'real time';
  const amount = by >= 86_400_000 ? `${+(by / 86_400_000).toFixed(1)} d` : by >= 3_600_000 ? `${+(by / 3_600_000).toFixed(1)} h` : `${Math.round(by / 1000)} s`;
  return `running at ${new Date(now).toISOString()}, ${amount} ${offsetMs > 0 ? 'ahead of' : 'behind'} real time (${from})`;
}

function registerSigningKey(config: Config, register: (id: string, base64Pem: string) => void): string | undefined {
  if (!config.signingKey) return undefined;
  let pem: string;
  try {
    pem = readFileSync(config.signingKey, 'utf8');
  } catch (error) {
    throw new StartError(`cannot read --signing-key ${config.signingKey}: ${(error as Error).message}`);
  }
  let key;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new StartError(`--signing-key ${config.signingKey} is not a PEM public key`);
  }
  const id = config.signingKeyId ?? keyFingerprintId(key);
  try {
    register(id, Buffer.from(spkiPem(key)).toString('base64'));
  } catch (error) {
    throw new StartError(`--signing-key ${config.signingKey}: ${(error as Error).message}`);
  }
  return id;
}

/**
 * What start warns of, in the banner and the log: a control plane open to a network — bound to an
 * address other than loopback without --admin-token (docs/reliability.md: Open to a network).
 */
export function exposureWarning(config: Pick<Config, 'host' | 'port' | 'adminToken'>, port: number): string | undefined {
  if (isLoopbackHost(config.host) || config.adminToken !== undefined) return undefined;
  const where = config.host === '0.0.0.0' || config.host === '::' ? 'every network this machine (or container) is on' : `the network of ${config.host}`;
  return `the control plane is open to ${where}, with no --admin-token: anyone who reaches port ${port} can reset, restore, seed and read this sandbox. Bind to 127.0.0.1, publish the port on loopback only (docker run -p 127.0.0.1:${port}:${port}), or give --admin-token`;
}

/**
 * Starts the sandbox and announces it. `listening` runs once it listens and before the banner or
 * the `--json` ready line is printed: whoever reads that line may signal the process at once.
 */
export async function start(config: Config, io: Io, listening: (running: RunningSandbox) => void): Promise<RunningSandbox> {
  // A file that could not be written at exit is refused now, while the user is there to see it.
  const unwritable = config.exportOnExit === undefined ? undefined : unwritableProblem(config.exportOnExit);
  if (unwritable !== undefined) throw new StartError(`--export-on-exit ${config.exportOnExit}: ${unwritable}`);
  // What a sandbox killed while writing it left beside the file (docs/reliability.md: Files are whole).
  if (config.exportOnExit !== undefined) removeStaleTemporaries(config.exportOnExit);
  const log = config.jsonLogs ? jsonLog() : io.log();
  // The OpenTelemetry packages are loaded only when tracing is on (docs/tracing.md: Tracing).
  const traced = tracingSettings(config);
  const tracing = traced && (await import('../../tracing/otel.js')).createTracing(traced, log, version());
  const deps = buildDeps(config, { log, ...(tracing && { tracing }) });
  const signingKeyId = registerSigningKey(config, (id, pem) => deps.services.auth.putSigningKey(id, pem));
  const usage = (error: unknown) => {
    throw error instanceof ClientUsageError ? new StartError(error.message) : error;
  };
  // A snapshot file first: a seed world is loaded only into an empty one.
  const imported = config.importFile === undefined ? undefined : await importAtStart(deps, config.importFile).catch(usage);
  const seeded = config.seed === undefined ? undefined : await seedAtStart(deps, config.seed).catch(usage);
  const running = await startServer(deps);
  listening(running);
  // The inspector (docs/inspector.md: The inspector): its files are read when the page is first opened.
  const inspector = `${running.url}/_sandbox/ui/`;
  const warning = exposureWarning(config, running.port);
  // With --admin-token, the well-known default secret is refused (services/auth.ts): it is not shown as one.
  const defaultSecret = config.apiKey === undefined && config.adminToken === undefined;

  if (config.jsonLogs) {
    // The first line on stdout, for a script or test runner that started it on a free port. A
    // secret given with --api-secret is the caller's own: it is not echoed.
    io.json(
      {
        event: 'ready',
        url: running.url,
        inspector,
        apiKey: config.apiKey ?? DEFAULT_API_KEY,
        ...(defaultSecret && { apiSecret: DEFAULT_API_SECRET }),
        version: version(),
        env: config.env,
        verify: config.verify,
        db: config.db,
        ...(signingKeyId && { signingKeyId }),
        ...(traced && { tracing: { url: traced.url, protocol: traced.protocol } }),
        ...(imported && { imported }),
        ...(seeded && { seeded }),
        ...(warning && { warnings: [warning] }),
      },
      true,
    );
    if (warning) log.warn(warning);
  } else {
    const c = io.color;
    const row = (label: string, value: string) => io.out(`  ${c.dim(label.padEnd(12))} ${value}`);
    io.out(`\n  ${c.bold.cyan('card-sandbox')} ${c.dim(`v${version()}`)} ${c.green('ready')}\n`);
    row('API', `${running.url}/v1`);
    row('Control', `${running.url}/_sandbox`);
    row('Inspector', inspector);
    row('API key', config.apiKey ?? DEFAULT_API_KEY);
    row(
      'API secret',
      config.apiKey ? c.dim('(as configured)') : defaultSecret ? DEFAULT_API_SECRET : c.yellow('refused with --admin-token: give --api-key and --api-secret'),
    );
    row('Mode', `env ${config.env}, verify ${config.verify}${config.physicalCards ? ', physical cards' : ''}`);
    row('Clock', clockText(deps.clock.frozen, deps.clock.now(), deps.clock.offset(), imported ? 'from the imported snapshot' : undefined));
    row('Database', config.db === ':memory:' ? 'in memory (nothing kept after exit)' : config.db);
    if (signingKeyId) row('Signing key', signingKeyId);
    if (traced) row('Tracing', `${traced.url} ${c.dim(`(${traced.protocol}, service ${traced.serviceName})`)}`);
    if (config.webhookFaults) row('Faults', `${faultsText(faultsView(config.webhookFaults))} ${c.dim('(webhooks faults show)')}`);
    if (imported) row('Imported', imported);
    if (seeded) row('Seed', seeded);
    if (config.exportOnExit !== undefined) row('Export', `${config.exportOnExit} ${c.dim('(the default programme, when it stops)')}`);
    if (warning) row('Warning', c.yellow(warning));
    io.out('');
    if (warning) log.warn(warning);
  }
  return running;
}

/**
 * `start --seed <file>`: loads the world before the server listens. A database that already holds
 * customers or webhooks (a restart with --db) is left as it is, so restarting never duplicates
 * the world. Throws ClientUsageError, naming every bad place, when the file cannot be loaded.
 */
export async function seedAtStart(deps: Deps, file: string): Promise<string> {
  const document = await readSeedFile(file);
  if (!deps.services.sandbox.isEmpty()) return `${file} not loaded: the database already holds a world`;
  try {
    const result = deps.services.sandbox.seed(parseSeedDocument(document));
    return `${file}: ${count(result.customers.length, 'customer')}, ${count(result.webhooks.length, 'webhook')}`;
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    const places = (error.errors ?? []).map((e) => `\n  ${e.path}: ${e.message}`).join('');
    throw new ClientUsageError(`--seed ${file}: ${error.detail}${places}`);
  }
}

/**
 * `start --import <file>`: the default programme restored from a snapshot file before the server
 * listens. Throws ClientUsageError, naming what is wrong, when the file cannot be restored.
 */
export async function importAtStart(deps: Deps, file: string): Promise<string> {
  const bytes = await readSnapshotFile(file);
  try {
    const restored = await deps.snapshots.restoreFile(deps.programmes.default(), bytes);
    return `${file}: snapshot ${restored.name === restored.id ? restored.id : `"${restored.name}"`}, ${holds(restored)}`;
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    const places = (error.errors ?? []).map((e) => `\n  ${e.path}: ${e.message}`).join('');
    throw new ClientUsageError(`--import ${file}: ${error.detail}${places}`);
  }
}
