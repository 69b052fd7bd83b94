/**
 * A sandbox for one test: in-memory store, a frozen manual clock, seeded ids and a memory log,
 * served in-process through `app.request()`. Every answer is checked against what its route
 * declares, its status, its headers and its shape (testing/wire.ts). Not shipped.
 */
import { createApp } from '../app.js';
import { createClock } from '../kernel/clock.js';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET, defaultConfig, type Config } from '../config/index.js';
import type { Core } from '../services/core.js';
import { buildDeps } from '../deps.js';
import { seededRandom, uuidFrom, type Random } from '../kernel/ids.js';
import { memoryLog } from '../kernel/log.js';
import { eq } from 'drizzle-orm';
import { DEFAULT_PROGRAMME } from '../domain/programme.js';
import { programmes } from '../store/schema.js';
import { openStore } from '../store/store.js';
import { answerMismatch, declaredAnswers, headerMismatch, statusMismatch } from './wire.js';

export const T0 = Date.parse('2026-03-01T09:00:00.000Z');

/** A seeded generator whose floats, in every stream forked from it too, are `float`: retry jitter held still. */
export function steadyRandom(seed: number, float: number): Random {
  const hold = (random: Random): Random => ({ ...random, float: () => float, fork: (label) => hold(random.fork(label)) });
  return hold(seededRandom(seed));
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Bearer token; `false` sends none. Defaults to a token for the default credential. */
  token?: string | false;
}

export function createTestSandbox(config: Partial<Config> = {}, core: Partial<Core> = {}) {
  const random = seededRandom(42);
  const log = memoryLog();
  const deps = buildDeps(defaultConfig({ verify: 'off', ...config }), {
    store: openStore(':memory:'),
    clock: createClock({ frozenAt: T0 }),
    ids: uuidFrom(random),
    random,
    log,
    ...core,
  });
  const app = createApp(deps);
  const declared = declaredAnswers(app.openAPIRegistry.definitions);
  let defaultToken: string | undefined;

  const token = () => (defaultToken ??= deps.services.auth.issueToken(DEFAULT_API_KEY, DEFAULT_API_SECRET).token);

  /** Sends a request in-process; JSON bodies are serialised unless a string is given. */
  const request = async (method: string, path: string, options: RequestOptions = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const auth = options.token === undefined ? token() : options.token;
    if (auth) headers.Authorization ??= `Bearer ${auth}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await app.request(`http://127.0.0.1:4242${path}`, { method, headers, body });
    const type = res.headers.get('Content-Type') ?? '';
    const pathname = new URL(path, 'http://h').pathname;
    const undeclared = statusMismatch(declared, method, pathname, res.status) ?? headerMismatch(declared, method, pathname, res.status, res.headers);
    if (undeclared) throw new Error(undeclared);
    // A stream (Server-Sent Events) has no end to wait for: only JSON answers are checked.
    if (/json/.test(type)) {
      const mismatch = answerMismatch(declared, method, pathname, res.status, type, await res.clone().text());
      if (mismatch) throw new Error(mismatch);
    }
    return res;
  };

  /** Sends a request and parses the JSON answer. */
  const json = async <T = any>(method: string, path: string, options?: RequestOptions) => {
    const res = await request(method, path, options);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
  };

  /** What the database keeps of a programme (the default one unless named): its token secret, clock and key. */
  const programmeRow = (id = DEFAULT_PROGRAMME) => deps.store.db.select().from(programmes).where(eq(programmes.id, id)).get()!;

  return { app, deps, log, request, json, token, programmeRow };
}

export type TestSandbox = ReturnType<typeof createTestSandbox>;
