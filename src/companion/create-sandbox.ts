/**
 * `createSandbox()`, the test companion (docs/companion.md: Helpers for your tests): a programme of its own
 * with a ready API client, its clock, its events, webhook receivers and wallets. In-process by
 * default — a sandbox started in this process on a free port, in memory — or, with `url`, in a
 * sandbox already running (a container in CI). Either way it is a thin layer over HTTP: it creates
 * a programme with POST /_sandbox/programmes and uses nothing a user could not reach, so `close()`
 * stops what it started or deletes the programme it created.
 */
import { readFile } from 'node:fs/promises';
import { createClient, type ApiClient } from '../client/create-client.js';
import type { Report, SnapshotSummary } from '../client/control.generated.js';
import { faultsOf, setStartingFaults, type SandboxFaults, type StartingFaults } from './faults.js';
import { defaultConfig, type Config } from '../config/index.js';
import { buildDeps } from '../deps.js';
import { quietLog } from '../kernel/log.js';
import { startServer } from '../server.js';
import { createControlClient, type ControlClient } from '../client/control.js';
import { sandboxEvents, type SandboxEvents } from './events.js';
import { feesOf, ratesOf, simulatorOf, type SandboxFees, type SandboxRates, type SandboxSimulator } from './money.js';
import { startReceiver, type ReceiverOptions, type WebhookReceiver } from './receiver.js';
import { createWallet, seededWalletKey, type Wallet, type WalletOptions } from './wallet.js';

/**
 * The in-process server's time limits (server.ts has a public sandbox's). A test runner's worker
 * keeps an idle connection while it loads the next test file, its event loop held for seconds on a
 * busy machine: its client's idle timer cannot fire, and a request sent on a connection the server
 * closed meanwhile meets ECONNRESET. So the server never closes an idle connection itself (the
 * client's pool does, and close() ends what is left), and cuts no request for headers the loop had
 * no turn to read.
 */
const IN_PROCESS_LIMITS = { keepAliveTimeoutMs: 0, headersTimeoutMs: 120_000, requestTimeoutMs: 120_000 };

/** A snapshot of a sandbox's programme (docs/snapshots.md): what the control plane shows of it, and its file. */
export interface SandboxSnapshot extends SnapshotSummary {
  /** Its portable file: to keep, or for `restore` and `createSandbox({ from })` in another sandbox. */
  file(): Promise<Buffer>;
}

/** A snapshot to start from or go back to: one taken by `snapshot()`, a snapshot file's path, or its bytes. */
export type SnapshotSource = SandboxSnapshot | string | Uint8Array;

/** Where each snapshot `snapshot()` took lives: the sandbox and the programme. */
const taken = new WeakMap<SandboxSnapshot, { id: string; url: string; programme: string }>();

/** Where a snapshot `snapshot()` took lives; undefined for a file. */
const originOf = (source: SnapshotSource | undefined) => (typeof source === 'object' && !(source instanceof Uint8Array) ? taken.get(source) : undefined);

/** The bytes of a snapshot file, wherever it is. */
const fileOf = async (from: SnapshotSource): Promise<Uint8Array> =>
  typeof from === 'string' ? readFile(from) : from instanceof Uint8Array ? from : from.file();

export interface SandboxOptions {
  /** A running sandbox to create the programme in (e.g. `http://127.0.0.1:4242`); in-process otherwise. */
  url?: string;
  /** The running sandbox's --admin-token, if it has one. */
  adminToken?: string;
  /** The programme's name; its id by default. */
  name?: string;
  /** Freeze the programme's clock at this instant (`now`, an ISO 8601 date-time or a Date); it runs otherwise. */
  clock?: string | Date;
  /** Draw the programme's ids and randomness from this seed (docs/programmes.md: Deterministic runs). */
  randomSeed?: number;
  /**
   * Start from a snapshot: its world, clock, queues and random streams (then `clock` and
   * `randomSeed` are the snapshot's). One taken in the same sandbox is forked there; otherwise its
   * file is restored into the new programme.
   */
  from?: SnapshotSource;
  /** How long the programme's holds wait to be captured before they are released (`7d`, `36h`); --hold-expiry otherwise (docs/money-path.md: Holds that expire). */
  holdExpiry?: string;
  /** The balance the programme's new accounts start with (`"100"`); --starting-balance otherwise (docs/money-path.md: Funds). */
  startingBalance?: string;
  /** In-process only: options of `card-sandbox start` (`--verify strict` by default, as the hosted service). */
  config?: Partial<Config>;
  /** Faults the programme starts with, as `faults.api.set()` and `faults.webhooks.set()` take them (docs/go-live.md: In CI). */
  faults?: StartingFaults;
}

export interface SandboxClock {
  /** The programme's sandbox time. */
  now(): Promise<Date>;
  /** Moves it forward (`25h`, `30d`, `PT90S`, `P1M`, `1y`), running every job and webhook retry that falls due. */
  advance(by: string): Promise<Date>;
  /** Moves it forward to an instant. */
  advanceTo(instant: string | Date): Promise<Date>;
}

export interface Sandbox {
  /** Where the sandbox is: the API is at `${url}/v1`, the control plane at `${url}/_sandbox`. */
  url: string;
  /** The programme's id. */
  programme: string;
  apiKey: string;
  apiSecret: string;
  /** Signs, authenticates and types every operation (docs/companion.md: The API client). */
  client: ApiClient;
  clock: SandboxClock;
  events: SandboxEvents;
  webhooks: { receiver(options?: ReceiverOptions): Promise<WebhookReceiver> };
  faults: SandboxFaults;
  /** The sandbox's own simulator controls (docs/money-path.md): partial captures, reversals, refunds, cards blocked, suspended and reinstated, accounts that fail. */
  simulator: SandboxSimulator;
  /** The fees the programme's new transactions carry (docs/money-path.md: Fees). */
  fees: SandboxFees;
  /** The exchange rates its conversions use, moved or the shipped table's (docs/money-path.md: Moving rates). */
  rates: SandboxRates;
  /**
   * The go-live report (docs/go-live.md: Before you go live): checks with evidence, and coverage — of
   * this programme, or with `programmes` of several together (docs/go-live.md: A report over a whole
   * test run): `'run'`, this one and every programme made in the sandbox after it, those deleted since
   * included (the test run of a global setup's sandbox); `'all'`, every programme in the sandbox; or a list of ids.
   */
  report(options?: { programmes?: 'run' | 'all' | readonly string[] }): Promise<Report>;
  /** A customer's wallet; seeded sandboxes give the same wallets in the same order. */
  wallet(options?: WalletOptions): Wallet;
  /** Wipes the programme's world (credentials, keys and clock stay); receivers subscribe again. */
  reset(): Promise<void>;
  /** Takes a snapshot of the programme (docs/snapshots.md), kept in the sandbox. */
  snapshot(name?: string): Promise<SandboxSnapshot>;
  /**
   * Puts the programme back as a snapshot holds it: its world, clock, queues and journal;
   * credentials stay. A receiver whose subscription the restored world does not hold subscribes again.
   */
  restore(from: SnapshotSource): Promise<SnapshotSummary>;
  /** Stops the receivers, then the sandbox it started or the programme it created. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * A Date as the control plane reads it. An invalid one goes as it prints (`Invalid Date`), so that
 * the sandbox refuses it with a 400 naming the field, as it refuses any instant it cannot take.
 */
const instantText = (date: Date): string => (Number.isNaN(date.getTime()) ? String(date) : date.toISOString());

/**
 * A programme of its own for a test file: in a sandbox started in this process (in memory, on a
 * free port, verifying in `strict` mode), or in the running one `url` names. In-process, the log
 * keeps to what needs attention: warnings and errors, on stderr.
 *
 * @example
 * ```ts
 * import { createSandbox } from 'card-sandbox';
 *
 * const sandbox = await createSandbox({ clock: '2026-01-01T09:00:00Z' });
 * const hooks = await sandbox.webhooks.receiver();
 * const customer = await sandbox.client.createCustomer({ chainId: sandbox.wallet().chainId, externalId: 'alice' });
 * await sandbox.client.simulateVerifyCustomer(customer.id);
 * await hooks.waitFor('customer.updated', (c) => c.status === 'active');
 * await sandbox.clock.advance('25h');
 * await sandbox.close();
 * ```
 */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  let stopServer: (() => Promise<void>) | undefined;
  let url: string;
  if (options.url !== undefined) {
    url = options.url.replace(/\/+$/, '').replace(/\/(v1|_sandbox)$/, '');
  } else {
    const config = defaultConfig({ port: 0, host: '127.0.0.1', db: ':memory:', verify: 'strict', randomSeed: options.randomSeed, ...options.config });
    // The server shares this process with the test runner, whose workers reuse its connections:
    // IN_PROCESS_LIMITS.
    const running = await startServer(buildDeps(config, { log: quietLog() }), IN_PROCESS_LIMITS);
    url = running.url;
    stopServer = () => running.close();
  }

  const sandboxControl = createControlClient({ baseUrl: url, adminToken: options.adminToken });
  const { from } = options;
  let created: Awaited<ReturnType<ControlClient['createProgramme']>> | undefined;
  try {
    const clock = options.clock instanceof Date ? instantText(options.clock) : options.clock;
    const origin = originOf(from);
    const { holdExpiry, startingBalance } = options;
    if (origin?.url === url) created = await sandboxControl.createProgramme({ name: options.name, from: origin.id, holdExpiry, startingBalance });
    else {
      created = await sandboxControl.createProgramme({ name: options.name, clock, randomSeed: options.randomSeed, holdExpiry, startingBalance });
      if (from !== undefined) await sandboxControl.restoreSnapshotFile(await fileOf(from), { programme: created.id });
    }
  } catch (error) {
    if (stopServer) await stopServer();
    else if (created) await sandboxControl.deleteProgramme(created.id);
    throw error;
  }
  const { id: programme, apiKey, apiSecret, createdAt } = created;
  const control = createControlClient({ baseUrl: url, programme, adminToken: options.adminToken });
  const client = createClient({ baseUrl: url, apiKey, apiSecret });
  const receivers = new Set<WebhookReceiver>();
  let wallets = 0;
  let closing: Promise<void> | undefined;

  const moved = async (body: { by: string } | { to: string }) => new Date((await control.advanceClock(body)).now);

  const close = () =>
    (closing ??= (async () => {
      // The programme's deletion takes its subscriptions with it.
      await Promise.all([...receivers].map((r) => r.close({ unsubscribe: false })));
      if (stopServer) await stopServer();
      else await control.deleteProgramme(programme);
    })());

  const faults = faultsOf(control);
  try {
    await setStartingFaults(faults, options.faults);
  } catch (error) {
    await close();
    throw error;
  }

  return {
    url,
    programme,
    apiKey,
    apiSecret,
    client,
    clock: {
      now: async () => new Date((await control.getClock()).now),
      advance: (by) => moved({ by }),
      advanceTo: (instant) => moved({ to: instant instanceof Date ? instantText(instant) : instant }),
    },
    events: sandboxEvents(control),
    webhooks: {
      async receiver(receiverOptions) {
        const receiver = await startReceiver(client, receiverOptions);
        receivers.add(receiver);
        return receiver;
      },
    },
    faults,
    simulator: simulatorOf(control),
    fees: feesOf(control),
    rates: ratesOf(control),
    report: ({ programmes } = {}) =>
      control.getReport(
        programmes === undefined
          ? {}
          : programmes === 'run'
            ? { programmes: 'all', since: createdAt }
            : { programmes: programmes === 'all' ? 'all' : programmes.join(',') },
      ),
    wallet(walletOptions = {}) {
      const n = wallets++;
      const privateKey = walletOptions.privateKey ?? (options.randomSeed !== undefined ? seededWalletKey(options.randomSeed, n) : undefined);
      return createWallet({ ...walletOptions, privateKey });
    },
    async reset() {
      await control.reset();
      await Promise.all([...receivers].map((r) => r.resubscribe()));
    },
    async snapshot(name) {
      const summary = await control.saveSnapshot(name === undefined ? {} : { name });
      return snapshotOf(control, url, programme, summary);
    },
    async restore(source) {
      const origin = originOf(source);
      const restored =
        origin?.url === url && origin.programme === programme
          ? await control.restoreSnapshot(origin.id)
          : await control.restoreSnapshotFile(await fileOf(source));
      // A receiver whose subscription the restored world does not hold subscribes again.
      const held = new Set((await client.getWebhooks()).map((hook) => hook.id));
      await Promise.all([...receivers].filter((r) => !held.has(r.webhookId)).map((r) => r.resubscribe()));
      return restored;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A snapshot `snapshot()` took, which knows where it lives and can fetch its file. */
function snapshotOf(control: ControlClient, url: string, programme: string, summary: SnapshotSummary): SandboxSnapshot {
  const snapshot = { ...summary, file: async () => Buffer.from(await (await control.open('getSnapshotFile', summary.id)).arrayBuffer()) };
  taken.set(snapshot, { id: summary.id, url, programme });
  return snapshot;
}
