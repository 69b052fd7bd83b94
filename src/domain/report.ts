/**
 * The go-live report (docs/go-live.md: Before you go live): what the integrator's client and receiver did
 * right, did wrong and never tried, computed from what the sandbox records anyway — the request
 * journal and the delivery attempts — with evidence for each check and one line on how to fix a
 * failure. Pure: the records come in, the report goes out.
 */
import { operationFinder, type DeclaredOperation } from './api-fault-matching.js';
import { ACCOUNT_STATUSES } from './account.js';
import { AUTHORISATION_STATUSES } from './authorisation.js';
import { CARD_STATUSES } from './card.js';
import { CUSTOMER_STATUSES } from './customer.js';
import { RESOURCE_TYPES, type ResourceType, type WebhookType } from './outbox.js';
import { TRANSACTION_STATUSES } from './transaction.js';
import { REACHED_BY } from './reach.js';

import { MUTATIONS } from './idempotency.js';
import type { AttemptFault } from './webhook-faults.js';

/** A request as the report reads it: the request journal's entries carry these fields, and more. */
export interface ReportRequest {
  requestId: string;
  time: string;
  method: string;
  path: string;
  status: number;
  replayed: boolean;
  problem?: { code: string; detail: string } | undefined;
  verification?: { failures: readonly { code: string; detail: string }[] } | undefined;
  /** The API fault lab's fault on it, as far as the report reads it. */
  fault?: { retryAfter?: number | undefined } | undefined;
  idempotencyKey?: string | undefined;
}

export interface ReportAttempt {
  deliveryId: string;
  eventType: WebhookType;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  fault: AttemptFault | null;
}

export interface ReportInput {
  verify: 'strict' | 'warn' | 'off';
  /** Every /v1 operation the app declares. */
  operations: readonly DeclaredOperation[];
  /** The request journal, newest first. */
  requests: readonly ReportRequest[];
  attempts: readonly ReportAttempt[];
  /** The statuses each resource type's events have shown. */
  statesReached: Readonly<Partial<Record<ResourceType, readonly string[]>>>;
}

/** Every status each resource can be in: the coverage lists those an integration never saw. */
const STATUSES: Record<ResourceType, readonly string[]> = {
  customer: CUSTOMER_STATUSES,
  account: ACCOUNT_STATUSES,
  card: CARD_STATUSES,
  authorisation: AUTHORISATION_STATUSES,
  transaction: TRANSACTION_STATUSES,
};

export const CHECK_STATUSES = ['pass', 'fail', 'not exercised'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** One check: what was judged, the verdict, what was seen, and how to fix or exercise it. */
export interface Check {
  id: string;
  title: string;
  status: CheckStatus;
  /** What was seen: counts, and the ids of the requests or deliveries at fault (the first ten). */
  evidence: Record<string, unknown>;
  /** How to fix a failure, or how to exercise it. */
  hint?: string;
}

/** The go-live report: its checks, with evidence, and coverage (its wire shape is wire/report.ts). */
export interface Report {
  summary: Record<CheckStatus, number>;
  checks: Check[];
  coverage: {
    operations: { operationId: string; method: string; path: string; calls: number; statuses: Record<string, number> }[];
    neverCalled: string[];
    /** `hints`: for each state never reached, what reaches it. */
    states: { resource: ResourceType; reached: string[]; never: string[]; hints: Record<string, string> }[];
    webhooks: { type: WebhookType; attempts: number; answers: Record<string, number> }[];
  };
}

/** How many of the newest requests the shape check reads. */
export const SHAPE_WINDOW = 100;
const SHOWN = 10;
const RECEIVER_DEADLINE_MS = 10_000;

const ids = (entries: readonly { requestId: string }[]) => entries.slice(0, SHOWN).map((e) => e.requestId);
const deliveryIds = (attempts: readonly ReportAttempt[]) => [...new Set(attempts.map((a) => a.deliveryId))].slice(0, SHOWN);
const codes = (e: ReportRequest) => new Set([...(e.verification?.failures.map((f) => f.code) ?? []), ...(e.problem ? [e.problem.code] : [])]);
const pathOf = (e: ReportRequest) => e.path.split('?')[0]!;
const isApi = (e: ReportRequest) => !pathOf(e).startsWith('/v1/auth/');
const is2xx = (a: ReportAttempt) => a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300;
const check = (id: string, title: string, status: CheckStatus, evidence: Record<string, unknown>, hint?: string): Check => ({
  id,
  title,
  status,
  evidence,
  ...(hint && { hint }),
});

function signatures({ verify, requests }: ReportInput): Check {
  const title = 'Every request carried a valid RFC 9421 signature and a Content-Digest that matched its body';
  const signed = requests.filter(isApi);
  if (verify === 'off' || signed.length === 0) {
    return check(
      'signatures',
      title,
      'not exercised',
      { requests: signed.length, verify },
      verify === 'off' ? 'start the sandbox with --verify warn or strict: with off nothing is checked' : 'send API requests',
    );
  }
  const bad = signed.filter((e) => codes(e).has('invalid_signature') || codes(e).has('invalid_content_digest'));
  return bad.length
    ? check(
        'signatures',
        title,
        'fail',
        { requests: signed.length, failed: bad.length, requestIds: ids(bad) },
        'sign "@method", "@authority", "@path" and "content-digest" with the key registered at PUT /v1/auth/signing; explain a request id to see the base the sandbox computed',
      )
    : check('signatures', title, 'pass', { requests: signed.length });
}

function idempotencyKeys({ verify, requests }: ReportInput): Check {
  const title = 'Every state-changing request carried an Idempotency-Key, and retries reused it';
  const writes = requests.filter((e) => isApi(e) && MUTATIONS.has(e.method));
  if (writes.length === 0 || verify === 'off')
    return check(
      'idempotency-keys',
      title,
      'not exercised',
      { writes: writes.length, verify },
      'send POST, PUT, PATCH or DELETE requests with --verify warn or strict',
    );
  const bad = writes.filter((e) => codes(e).has('missing_idempotency_key') || codes(e).has('invalid_idempotency_key'));
  const replayed = writes.filter((e) => e.replayed).length;
  return bad.length
    ? check(
        'idempotency-keys',
        title,
        'fail',
        { writes: writes.length, withoutKey: bad.length, requestIds: ids(bad), replayed },
        'send Idempotency-Key: <a new UUID> on every POST, PUT, PATCH and DELETE, and the same one when retrying',
      )
    : check('idempotency-keys', title, 'pass', { writes: writes.length, replayed });
}

/** After a 5xx, a 429 or a closed connection: a retry with the same key, no sooner than Retry-After. */
function retries({ requests }: ReportInput): Check {
  const title = 'After a 5xx, a 429 or a dropped connection the client retried with the same Idempotency-Key, no sooner than Retry-After';
  const oldestFirst = [...requests].reverse();
  const failed = oldestFirst.filter((e) => isApi(e) && MUTATIONS.has(e.method) && (e.status === 0 || e.status === 429 || e.status >= 500));
  if (failed.length === 0)
    return check('retries', title, 'not exercised', {}, 'inject failures with the API fault lab (PUT /_sandbox/api/faults) and let the client meet them');
  const problems: { requestId: string; why: string }[] = [];
  for (const e of failed) {
    const later = oldestFirst.slice(oldestFirst.indexOf(e) + 1).find((l) => l.method === e.method && pathOf(l) === pathOf(e));
    if (!later) problems.push({ requestId: e.requestId, why: 'not retried' });
    else if (e.idempotencyKey === undefined || later.idempotencyKey !== e.idempotencyKey)
      problems.push({ requestId: e.requestId, why: `retried as ${later.requestId} with ${later.idempotencyKey === undefined ? 'no key' : 'a new key'}` });
    else if (
      e.fault?.retryAfter !== undefined &&
      Date.parse(later.time) - Date.parse(e.time) < e.fault.retryAfter * 1000 &&
      Date.parse(later.time) !== Date.parse(e.time)
    ) {
      problems.push({ requestId: e.requestId, why: `retried as ${later.requestId} sooner than Retry-After: ${e.fault.retryAfter} s` });
    }
  }
  return problems.length
    ? check(
        'retries',
        title,
        'fail',
        { failures: failed.length, problems: problems.slice(0, SHOWN) },
        'retry a failed write with the same Idempotency-Key (the answer may have been lost after it committed), waiting at least Retry-After',
      )
    : check('retries', title, 'pass', { failures: failed.length });
}

function tokenRenewal({ requests }: ReportInput): Check {
  const title = 'When its token expired the client got a new one, without a burst of 401s';
  const oldestFirst = [...requests].reverse();
  const expired = oldestFirst.filter((e) => e.status === 401 && e.problem?.detail.startsWith('the token expired'));
  if (expired.length === 0)
    return check('token-renewal', title, 'not exercised', {}, 'let a token expire (clock advance 1h, or expireToken in the API fault lab)');
  let streak = 0;
  let longest = 0;
  let renewed = false;
  for (const e of oldestFirst) {
    if (expired.includes(e)) longest = Math.max(longest, ++streak);
    else if (e.method === 'POST' && pathOf(e) === '/v1/auth/token' && e.status === 200) {
      if (streak > 0) renewed = true;
      streak = 0;
    }
  }
  const ok = renewed && longest <= 2;
  return check(
    'token-renewal',
    title,
    ok ? 'pass' : 'fail',
    { expired: expired.length, longestRun: longest, renewed, requestIds: ids(expired) },
    ok ? undefined : 'on a 401 "the token expired", call POST /v1/auth/token once and retry; tokens last an hour of sandbox time',
  );
}

function receiverAnswers({ attempts }: ReportInput): Check {
  const title = 'The receiver answered every delivery with a 2xx within 10 s';
  const real = attempts.filter((a) => a.fault !== 'injected-status' && a.fault !== 'injected-timeout' && a.fault !== 'forged');
  if (real.length === 0) return check('receiver-answers', title, 'not exercised', {}, 'subscribe your receiver (PUT /v1/webhooks) and make events happen');
  const bad = real.filter((a) => !is2xx(a) || a.durationMs > RECEIVER_DEADLINE_MS);
  return bad.length
    ? check(
        'receiver-answers',
        title,
        'fail',
        { attempts: real.length, failed: bad.length, deliveryIds: deliveryIds(bad) },
        'answer 2xx quickly and do the work afterwards; see each attempt with events show',
      )
    : check('receiver-answers', title, 'pass', { attempts: real.length });
}

function forgedDeliveries({ attempts }: ReportInput): Check {
  const title = 'The receiver rejected a forged delivery (a body changed after signing)';
  const forged = attempts.filter((a) => a.fault === 'forged');
  if (forged.length === 0) return check('forged-deliveries', title, 'not exercised', {}, 'set the delivery-lab fault forge (webhooks faults set forge=0.2)');
  const accepted = forged.filter(is2xx);
  return accepted.length
    ? check(
        'forged-deliveries',
        title,
        'fail',
        { forged: forged.length, accepted: accepted.length, deliveryIds: deliveryIds(accepted) },
        'verify Content-Digest and the signature of every delivery (verifyWebhook from card-sandbox/client) and answer 4xx when they do not match',
      )
    : check('forged-deliveries', title, 'pass', { forged: forged.length });
}

function duplicatesAndOrder({ attempts }: ReportInput): Check {
  const title = 'The receiver acknowledged duplicates (the same eventId) and events out of order without error';
  const touched = attempts.filter((a) => a.fault === 'duplicate' || a.fault === 'reordered');
  if (touched.length === 0)
    return check(
      'duplicates-and-order',
      title,
      'not exercised',
      {},
      'set the delivery-lab faults duplicate and reorder (webhooks faults set duplicate=0.3,reorder=0.3)',
    );
  const bad = touched.filter((a) => !is2xx(a));
  return bad.length
    ? check(
        'duplicates-and-order',
        title,
        'fail',
        { attempts: touched.length, failed: bad.length, deliveryIds: deliveryIds(bad) },
        'act once per eventId and answer 2xx to a repeat; read the resource as it is now rather than trust the order',
      )
    : check('duplicates-and-order', title, 'pass', { attempts: touched.length });
}

function requestShapes({ requests }: ReportInput): Check {
  const title = `Nothing the client sent was refused for its shape (invalid_request or idempotency_key_reused) in the last ${SHAPE_WINDOW} requests`;
  const recent = requests.slice(0, SHAPE_WINDOW);
  if (recent.length === 0) return check('request-shapes', title, 'not exercised', {}, 'send API requests');
  const bad = recent.filter((e) => e.problem?.code === 'invalid_request' || e.problem?.code === 'idempotency_key_reused');
  return bad.length
    ? check(
        'request-shapes',
        title,
        'fail',
        { requests: recent.length, refused: bad.length, requestIds: ids(bad) },
        'compare the bodies with /openapi.json; each refusal names the fields (requests, or explain a request id)',
      )
    : check('request-shapes', title, 'pass', { requests: recent.length });
}

const CHECKS = [signatures, idempotencyKeys, retries, tokenRenewal, receiverAnswers, forgedDeliveries, duplicatesAndOrder, requestShapes];

export function goLiveReport(input: ReportInput): Report {
  const checks = CHECKS.map((run) => run(input));
  const summary: Record<CheckStatus, number> = { pass: 0, fail: 0, 'not exercised': 0 };
  for (const c of checks) summary[c.status]++;

  const operationOf = operationFinder(input.operations);
  const calls = new Map<string, Record<string, number>>();
  for (const e of input.requests) {
    const id = operationOf(e.method, pathOf(e));
    if (id === undefined) continue;
    const statuses = calls.get(id) ?? {};
    statuses[String(e.status)] = (statuses[String(e.status)] ?? 0) + 1;
    calls.set(id, statuses);
  }
  const operations = input.operations.map((o) => {
    const statuses = calls.get(o.operationId) ?? {};
    return {
      operationId: o.operationId,
      method: o.method.toUpperCase(),
      path: `/v1${o.path}`,
      calls: Object.values(statuses).reduce((a, b) => a + b, 0),
      statuses,
    };
  });
  const webhooks = new Map<WebhookType, { attempts: number; answers: Record<string, number> }>();
  for (const a of input.attempts) {
    const entry = webhooks.get(a.eventType) ?? { attempts: 0, answers: {} };
    const answer = a.statusCode === null ? 'no answer' : String(a.statusCode);
    entry.attempts++;
    entry.answers[answer] = (entry.answers[answer] ?? 0) + 1;
    webhooks.set(a.eventType, entry);
  }
  return {
    summary,
    checks,
    coverage: {
      operations,
      neverCalled: operations.filter((o) => o.calls === 0).map((o) => o.operationId),
      states: RESOURCE_TYPES.map((resource) => {
        const statuses = STATUSES[resource];
        const reached = statuses.filter((s) => input.statesReached[resource]?.includes(s));
        const never = statuses.filter((s) => !reached.includes(s));
        return { resource, reached, never, hints: Object.fromEntries(never.map((s) => [s, REACHED_BY[resource][s]!])) };
      }),
      webhooks: [...webhooks].map(([type, w]) => ({ type, ...w })),
    },
  };
}
