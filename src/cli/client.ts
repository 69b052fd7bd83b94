/**
 * Where the CLI finds a running sandbox (`--url`, `CARD_SANDBOX_URL`, the port, the one running on
 * this machine, default http://127.0.0.1:4242), and what its commands share: the control client
 * (client/control.ts) with the admin token and the programme, and how a refusal is told.
 */
import { createControlClient, type ControlClient, type ControlClientOptions } from '../client/control.js';
import type { ApiError } from '../client/operations.js';
import type { Problem as SandboxProblem } from '../wire/problem.js';
import type { Io } from './io.js';
import { runningSandboxes, type RunFile } from './run-files.js';

export const DEFAULT_URL = 'http://127.0.0.1:4242';

/** Where client commands look when told nothing, as their help says it. */
export const DEFAULT_URL_TEXT = `the one sandbox running on this machine, else ${DEFAULT_URL}`;

/** What the sandbox refused with, or, from something that is not a sandbox, its status described the same way. */
export type Problem = Pick<SandboxProblem, 'title' | 'status'> & Partial<SandboxProblem>;

export function refusalOf(error: ApiError): Problem {
  return (
    error.problem ?? {
      title: `HTTP ${error.status}`,
      status: error.status,
      detail: error.body.slice(0, 200) || 'the server answered without a problem body; is this a card-sandbox URL?',
    }
  );
}

/** The fields a refusal names that its detail does not already say (a single-field refusal usually does). */
export const fieldsNotInDetail = (problem: Problem): { path: string; message: string }[] =>
  (problem.errors ?? []).filter(
    (e) => !(problem.detail ?? '').includes(`${e.path} ${e.message}`) && !(problem.detail ?? '').includes(`${e.path}: ${e.message}`),
  );

/** The command ran and its outcome is a failure (exit 1): an unhealthy sandbox, a failed report. */
export class CommandFailed extends Error {}

/** A bad --url. */
export class ClientUsageError extends Error {}

export interface ClientOptions {
  url?: string | undefined;
  /** The port `start` was given: the sandbox on this machine at that port. */
  port?: string | undefined;
  adminToken?: string | undefined;
  /** The programme the commands act on (docs/programmes.md: Parallel test suites); the default one otherwise. */
  programme?: string | undefined;
}

export interface ResolvedClientOptions {
  url: string;
  adminToken?: string;
  programme?: string;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/** The sandbox on this machine listening on `raw` (a port as `start` takes it), or undefined for port 0. */
function urlOfPort(raw: string, source: string, env: Record<string, string | undefined>): string | undefined {
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new ClientUsageError(`${source} must be a port from 1 to 65535, got "${raw}"`);
  if (Number(raw) === 0) return undefined;
  const host = env.CARD_SANDBOX_HOST && !WILDCARDS.has(env.CARD_SANDBOX_HOST) ? env.CARD_SANDBOX_HOST : '127.0.0.1';
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${raw}`;
}

/** The one sandbox running on this machine, by the files `start` keeps; the default when none or several are. */
function discovered(running: () => RunFile[]): string {
  const found = running();
  if (found.length === 1) return found[0]!.url;
  if (found.length > 1 && !found.some((r) => r.url === DEFAULT_URL)) {
    throw new ClientUsageError(`${found.length} sandboxes are running (${found.map((r) => r.url).join(', ')}): say which with --url`);
  }
  return DEFAULT_URL;
}

/**
 * Where the sandbox is: `--url`, else `--port`, else CARD_SANDBOX_URL, else CARD_SANDBOX_PORT (the
 * variables `start` reads too), else the one sandbox running on this machine, else the default. A
 * URL pointing at /v1 or /_sandbox is trimmed to its base.
 */
export function resolveClientOptions(
  options: ClientOptions,
  env: Record<string, string | undefined>,
  running: () => RunFile[] = runningSandboxes,
): ResolvedClientOptions {
  const raw =
    options.url ??
    (options.port !== undefined ? urlOfPort(options.port, '--port', env) : undefined) ??
    (env.CARD_SANDBOX_URL || undefined) ??
    (env.CARD_SANDBOX_PORT ? urlOfPort(env.CARD_SANDBOX_PORT, 'CARD_SANDBOX_PORT', env) : undefined) ??
    discovered(running);
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ClientUsageError(`--url must be an http(s) URL such as ${DEFAULT_URL}, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ClientUsageError(`--url must be an http(s) URL, got "${raw}"`);
  const url = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '').replace(/\/(v1|_sandbox)$/, '')}`;
  const adminToken = options.adminToken ?? (env.CARD_SANDBOX_ADMIN_TOKEN || undefined);
  const programme = options.programme ?? (env.CARD_SANDBOX_PROGRAMME || undefined);
  return { url, ...(adminToken && { adminToken }), ...(programme && { programme }) };
}

/** The control client for the sandbox the options name; `fetchImpl` for a test that serves it in-process. */
export const createClient = (options: ResolvedClientOptions, fetchImpl?: ControlClientOptions['fetch']): ControlClient =>
  createControlClient({ baseUrl: options.url, adminToken: options.adminToken, programme: options.programme, ...(fetchImpl && { fetch: fetchImpl }) });

export type Client = ControlClient;

/** What every client command receives. */
export interface CommandContext {
  client: Client;
  io: Io;
  /** Machine output: the control plane's JSON on stdout, nothing else. */
  json: boolean;
  /** The programme named by --programme or CARD_SANDBOX_PROGRAMME; the default one when undefined. */
  programme?: string | undefined;
}
