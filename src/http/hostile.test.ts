/**
 * Hostile input against every route the app serves (each /v1 operation of /openapi.json, each
 * /_sandbox route, the simulator mirror), with fast-check: random and malformed bodies, ids, query
 * strings and headers, in --verify strict (signing validly some of the time, so that bodies get
 * past verification) and warn. Every answer is below 500; a refusal is RFC 9457 problem+json with
 * a known code; and a refused request changes nothing: no row of any table, no event, no clock.
 */
import { randomUUID, sign } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/index.js';
import { PROBLEMS } from './errors.js';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import {
  brokenAuthorization,
  brokenDigest,
  brokenIdempotencyKey,
  brokenSignature,
  brokenSignatureInput,
  contentType,
  hostileQuery,
  hostileRawBody,
  hostileSegment,
  hostileValue,
} from '../testing/hostile-input.js';
import { buildWorld, fieldPaths, withField, worldStands, type HostileWorld } from '../testing/hostile-world.js';
import { operationsOf, VALID_BODIES, type Operation } from '../testing/valid-bodies.js';
import { digestHeader, HARNESS_ORIGIN, newSigningKey, type TestSigningKey } from '../testing/signer.js';
import { recordChanges, type ChangeRecorder } from '../testing/state.js';

const RUNS = 8;

/** Every route the app answers, as [method, pattern]; middleware-only entries (ALL) left out. */
const ROUTES: [string, string][] = [
  ...new Map(
    createTestSandbox()
      .app.routes.filter((r) => r.method !== 'ALL')
      .map((r) => [`${r.method} ${r.path}`, [r.method, r.path] as [string, string]]),
  ).values(),
];

/** Refusals of the request pipeline, before any route runs. */
const PIPELINE_CODES = [
  'not_authorised',
  'invalid_signature',
  'invalid_content_digest',
  'missing_idempotency_key',
  'invalid_idempotency_key',
  'payload_too_large',
];

// The only state a refusal may touch, both by contract: the idempotency record, which keeps refusals
// to replay them (docs/signatures.md: Idempotency), and the challenge a wrong signature replaces with a new one (§7).
const CHALLENGE = ['challenge', 'challenge_expires_at'];
const WATCH = { except: ['idempotency_keys'], apart: { customers: CHALLENGE, accounts: CHALLENGE } };

type Param = { kind: 'id'; i: number; upper: boolean } | { kind: 'unknown' } | { kind: 'raw'; segment: string };
type Body =
  { kind: 'none' } | { kind: 'valid' } | { kind: 'mutate'; at: number; value: unknown } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string };
type Header = { kind: 'valid' } | { kind: 'none' } | { kind: 'broken'; value: string };

interface Attack {
  params: Param[];
  query: string;
  body: Body;
  contentType: string | undefined;
  authorization: Header;
  signature: { kind: 'valid' } | { kind: 'none' } | { kind: 'broken'; input?: string | undefined; signature?: string | undefined };
  digest: Header;
  idempotencyKey: Header | { kind: 'reused' };
}

const VALID: Attack = {
  params: [
    { kind: 'id', i: 0, upper: false },
    { kind: 'id', i: 0, upper: false },
  ],
  query: '',
  body: { kind: 'valid' },
  contentType: 'application/json',
  authorization: { kind: 'valid' },
  signature: { kind: 'valid' },
  digest: { kind: 'valid' },
  idempotencyKey: { kind: 'valid' },
};

const header = (broken: fc.Arbitrary<string>): fc.Arbitrary<Header> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant({ kind: 'valid' as const }) },
    fc.constant({ kind: 'none' as const }),
    broken.map((value) => ({ kind: 'broken' as const, value })),
  );

/** In strict mode most requests are signed, or few would reach a route; warn lets unsigned ones through. */
function attacks(verify: 'strict' | 'warn', keyId: string, token: string): fc.Arbitrary<Attack> {
  const param = fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('id' as const), i: fc.nat(3), upper: fc.boolean() }) },
    fc.constant({ kind: 'unknown' as const }),
    { weight: 2, arbitrary: hostileSegment.map((segment) => ({ kind: 'raw' as const, segment })) },
  );
  const body = fc.oneof(
    fc.constant({ kind: 'none' as const }),
    { weight: 2, arbitrary: fc.constant({ kind: 'valid' as const }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('mutate' as const), at: fc.nat(), value: fc.option(hostileValue, { nil: undefined }) }) },
    { weight: 2, arbitrary: hostileValue.map((value) => ({ kind: 'json' as const, value })) },
    { weight: 2, arbitrary: hostileRawBody.map((text) => ({ kind: 'raw' as const, text })) },
  );
  return fc.record({
    params: fc.array(param, { minLength: 2, maxLength: 2 }),
    query: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, hostileQuery),
    body,
    contentType,
    authorization: header(brokenAuthorization(token)),
    signature: fc.oneof(
      { weight: verify === 'strict' ? 4 : 1, arbitrary: fc.constant({ kind: 'valid' as const }) },
      fc.constant({ kind: 'none' as const }),
      fc.record({
        kind: fc.constant('broken' as const),
        input: fc.option(brokenSignatureInput(keyId), { nil: undefined }),
        signature: fc.option(brokenSignature, { nil: undefined }),
      }),
    ),
    digest: header(brokenDigest),
    idempotencyKey: fc.oneof(header(brokenIdempotencyKey), fc.constant({ kind: 'reused' as const })),
  });
}

/**
 * A valid signature over the request as it stands (so a broken digest or key is still refused for
 * what it is): the RFC 9421 §2.5 signature base built here by hand and signed with node:crypto
 * (§3.3.5) — the signer of the other tests is an independent library, but several times slower.
 */
function signatureHeaders(key: TestSigningKey, method: string, url: string, digest: string | undefined): Record<string, string> {
  const { host, pathname } = new URL(`${HARNESS_ORIGIN}${url}`);
  const values: [string, string][] = [
    ['@method', method],
    ['@authority', host],
    ['@path', pathname],
    ...(digest !== undefined ? [['content-digest', digest] as [string, string]] : []),
  ];
  const params = `(${values.map(([name]) => `"${name}"`).join(' ')});created=${Math.floor(Date.now() / 1000)};keyid="${key.keyId}";alg="ecdsa-p384-sha384"`;
  const base = [...values.map(([name, value]) => `"${name}": ${value}`), `"@signature-params": ${params}`].join('\n');
  const signature = sign('sha384', Buffer.from(base), { key: key.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64');
  return { 'Signature-Input': `sig=${params}`, Signature: `sig=:${signature}:` };
}

describe.each(['strict', 'warn'] as const)('hostile input, --verify %s', (verify) => {
  let sb: TestSandbox;
  let key: TestSigningKey;
  let world: HostileWorld;
  let recorder: ChangeRecorder;
  /** The operations of both documents by route (`POST /v1/customers`), for their valid bodies. */
  let operations: Map<string, Operation>;
  const REUSED_KEY = randomUUID();

  beforeAll(async () => {
    sb = createTestSandbox({ verify });
    recorder = recordChanges(sb.deps.store, WATCH);
    key = newSigningKey();
    const [api, control] = await Promise.all(
      ['/openapi.json', '/_sandbox/openapi.json'].map(async (url) => (await sb.json('GET', url, { token: false })).body),
    );
    operations = new Map(operationsOf(api, control).map((op) => [op.route, op]));
  });

  let token: string | undefined;
  /**
   * A token the sandbox accepts for the default credential: the last one until an attack revoked it
   * or moved the clock past its expiry, as a client keeps its token; the credential and the signing
   * key are put back if an attack removed them.
   */
  const freshToken = () => {
    const { auth } = sb.deps.services;
    if (!auth.signingKey(key.keyId)) auth.putSigningKey(key.keyId, key.signingKey);
    try {
      if (token !== undefined && auth.authenticate(`Bearer ${token}`) === DEFAULT_API_KEY) return token;
    } catch {
      // Revoked or expired: a new one.
    }
    try {
      token = auth.issueToken(DEFAULT_API_KEY, DEFAULT_API_SECRET).token;
    } catch {
      auth.putCredentials(DEFAULT_API_KEY, DEFAULT_API_SECRET);
      token = auth.issueToken(DEFAULT_API_KEY, DEFAULT_API_SECRET).token;
    }
    return token;
  };

  const resolveParam = (name: string, param: Param | undefined) => {
    const ids = world.ids[name] ?? [];
    if (param?.kind === 'raw') return param.segment;
    if (param?.kind !== 'id' || ids.length === 0) return randomUUID();
    const id = ids[param.i % ids.length]!;
    return param.upper ? id.toUpperCase() : id;
  };

  const bodyOf = (method: string, pattern: string, body: Body): string | undefined => {
    // An operation that takes no body takes `{}`; one that takes a body, its valid body (valid-bodies.test.ts sees that each has one).
    const op = operations.get(`${method} ${pattern}`);
    const valid = op?.body ? VALID_BODIES[op.operationId]!(world) : undefined;
    switch (body.kind) {
      case 'none':
        return undefined;
      case 'valid':
        return JSON.stringify(valid ?? {});
      case 'mutate': {
        const paths = valid ? fieldPaths(valid) : [];
        return JSON.stringify(paths.length ? withField(valid!, paths[body.at % paths.length]!, body.value) : (body.value ?? null));
      }
      case 'json':
        return JSON.stringify(body.value);
      case 'raw':
        return body.text;
    }
  };

  /** Sends one attack and checks the answer; returns the problem code of a refusal. */
  const attack = async (method: string, pattern: string, a: Attack): Promise<string | undefined> => {
    if (!worldStands(sb, world)) world = await buildWorld(sb);
    const params = [...a.params];
    const path = pattern.replace(/:(\w+)/g, (_, name: string) => resolveParam(name, params.shift()));
    const url = a.query ? `${path}?${a.query}` : path;
    const body = method === 'GET' ? undefined : bodyOf(method, pattern, a.body);
    const headers: Record<string, string> = {};
    if (body !== undefined && a.contentType !== undefined) headers['Content-Type'] = a.contentType;
    const token = freshToken();
    if (a.authorization.kind !== 'none') headers.Authorization = a.authorization.kind === 'valid' ? `Bearer ${token}` : a.authorization.value;
    if (a.idempotencyKey.kind !== 'none')
      headers['Idempotency-Key'] = a.idempotencyKey.kind === 'broken' ? a.idempotencyKey.value : a.idempotencyKey.kind === 'reused' ? REUSED_KEY : randomUUID();
    if (body !== undefined && a.digest.kind !== 'none') headers['Content-Digest'] = a.digest.kind === 'valid' ? digestHeader(body) : a.digest.value;
    if (a.signature.kind === 'valid') Object.assign(headers, signatureHeaders(key, method, url, headers['Content-Digest']));
    else if (a.signature.kind === 'broken') {
      if (a.signature.input !== undefined) headers['Signature-Input'] = a.signature.input;
      if (a.signature.signature !== undefined) headers.Signature = a.signature.signature;
    }

    recorder.clear();
    const clockBefore = sb.deps.clock.now();
    const res = await sb.request(method, url, { body, headers, token: false });
    const label = `${method} ${url.slice(0, 200)} → ${res.status}`;

    expect(res.status, label).toBeLessThan(500);
    expect(res.status >= 300 && res.status < 400, label).toBe(false);
    const requestId = res.headers.get('Request-Id');
    expect(requestId, label).toBeTruthy();
    if (res.headers.get('Content-Type')?.startsWith('text/event-stream')) {
      await res.body?.cancel();
      return undefined;
    }
    const text = await res.text();
    if (res.status < 400) return undefined;

    expect(res.headers.get('Content-Type'), label).toBe('application/problem+json');
    const problem = JSON.parse(text) as { type: string; title: string; status: number; detail: string; code: keyof typeof PROBLEMS; requestId: string };
    expect(PROBLEMS[problem.code], `${label}: ${text}`).toBeDefined();
    // A replay is the stored answer, body and all, so it names the request that was first answered.
    const replayed = res.headers.get('Idempotent-Replayed') === 'true';
    expect(problem, label).toMatchObject({ status: res.status, title: PROBLEMS[problem.code].title, ...(replayed ? {} : { requestId }) });
    expect(PROBLEMS[problem.code].status, label).toBe(res.status);
    expect(typeof problem.type === 'string' && typeof problem.detail === 'string', label).toBe(true);
    expect(problem.detail, label).not.toMatch(/\n\s+at /);
    const allowed = (op: string) => op === 'update-apart' && problem.code === 'invalid_challenge_signature';
    expect(
      recorder.changes().filter((change) => !allowed(change.op)),
      `${label}: ${problem.code} changed the database`,
    ).toEqual([]);
    expect(sb.deps.clock.now(), `${label}: moved the clock`).toBe(clockBefore);
    return problem.code;
  };

  it('covers every /v1 operation of /openapi.json and every /_sandbox route', async () => {
    const doc = (await sb.json('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const served = new Set(ROUTES.map(([method, pattern]) => `${method} ${pattern}`));
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} /v1${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.length).toBeGreaterThanOrEqual(46);
    for (const op of documented) expect(served, op).toContain(op);
    expect(ROUTES.filter(([, p]) => p.startsWith('/_sandbox/')).length).toBeGreaterThanOrEqual(10);
  });

  it.each(ROUTES)('%s %s', async (method, pattern) => {
    // Reads change nothing, so they share the world the previous route left standing.
    if (method !== 'GET' || !world || !worldStands(sb, world)) world = await buildWorld(sb);
    // A fully valid request first: the attacks below are worth something only if requests like
    // it get past authentication and verification to the route itself.
    const code = await attack(method, pattern, VALID);
    expect(PIPELINE_CODES, `a valid ${method} ${pattern} was refused with ${code}`).not.toContain(code);
    await fc.assert(
      fc.asyncProperty(attacks(verify, key.keyId, freshToken()), (a) => attack(method, pattern, a).then(() => undefined)),
      { numRuns: RUNS },
    );
  });
});
