/**
 * How the go-live report reads its records (docs/go-live.md: Before you go live): which requests are
 * API calls, writes or failures, which never reached verification, the order they came in, and the
 * helpers every check builds its verdict with.
 */
import { answeredBefore } from '../api-fault-kinds.js';
import { MUTATIONS } from '../idempotency.js';
import type { CheckStatus, CheckVerdict, NotJudged, Problem, ReportAttempt, ReportInput, ReportRequest } from './types.js';

/** How many requests or deliveries at fault a check shows. */
export const SHOWN = 10;

export const pathOf = (e: ReportRequest) => e.path.split('?')[0]!;
/** /v1 outside /v1/auth: the calls that are signed and may be faulted. */
export const isApi = (e: ReportRequest) => pathOf(e).startsWith('/v1/') && !pathOf(e).startsWith('/v1/auth/');
export const isWrite = (e: ReportRequest) => isApi(e) && MUTATIONS.has(e.method);
export const isTokenRequest = (e: ReportRequest) => e.method === 'POST' && pathOf(e) === '/v1/auth/token';
/** Answered 5xx, 429, or not at all: a write the client must retry. */
export const isFailure = (e: ReportRequest) => e.status === 0 || e.status === 429 || e.status >= 500;
export const is2xx = (status: number | null) => status !== null && status >= 200 && status < 300;
export const is4xx = (status: number | null) => status !== null && status >= 400 && status < 500;

/** Answered by the API fault lab in the request's place: its signature was never checked. */
export const answeredByFaultLab = (e: ReportRequest) => !!e.fault && answeredBefore(e.fault);
/** Refused by authentication (a bad or expired token): its signature was never checked. */
export const refusedAtAuthentication = (e: ReportRequest) => e.status === 401 && e.problem?.code === 'not_authorised' && !answeredByFaultLab(e);
export const tokenExpired = (e: ReportRequest) => e.status === 401 && !!e.problem?.detail.startsWith('the token expired');

/** A programme's requests oldest first: by arrival on the machine's clock, or in journal order when one has no real times. */
export function oldestFirst(requests: readonly ReportRequest[]): ReportRequest[] {
  const journalOrder = [...requests].reverse();
  if (journalOrder.some((e) => e.real === undefined)) return journalOrder;
  return journalOrder.sort((a, b) => a.real!.received - b.real!.received);
}

/** One programme's records as the checks read them: requests oldest first. */
export interface Programme {
  id: string;
  requests: ReportRequest[];
  attempts: readonly ReportAttempt[];
}

/** What every check reads. `many`: the report covers more than one programme, so each problem names its own. */
export interface Seen {
  verify: ReportInput['verify'];
  programmes: Programme[];
  many: boolean;
}

export const prepare = (input: ReportInput): Seen => ({
  verify: input.verify,
  programmes: input.programmes.map((p) => ({ id: p.programme, requests: oldestFirst(p.requests), attempts: p.attempts })),
  many: input.programmes.length > 1,
});

/** Every programme's items of `pick`, each with its programme. */
export function each<T>(seen: Seen, pick: (p: Programme) => readonly T[]): { item: T; programme: string }[] {
  return seen.programmes.flatMap((p) => pick(p).map((item) => ({ item, programme: p.id })));
}

/** A problem with a request or delivery, naming its programme when the report covers several. */
export const problem = (seen: Seen, programme: string, fields: Omit<Problem, 'programme'>): Problem => ({ ...fields, ...(seen.many && { programme }) });

/** The first SHOWN problems. */
export const shown = (problems: readonly Problem[]) => problems.slice(0, SHOWN);

export interface Verdict {
  /** Something the check names happened (false: `not exercised`). */
  exercised: boolean;
  failed: boolean;
  notJudged?: NotJudged[];
  finding: string;
  evidence: Record<string, unknown>;
  /** How to fix a failure. */
  fix: string;
  /** How to make it happen, when it did not. */
  exercise: string;
}

/** The check's status: a failure first, then what could not be judged; pass only when everything it names was seen to go right. */
export function verdict(title: string, v: Verdict): CheckVerdict {
  const notJudged = v.notJudged?.length ? v.notJudged : undefined;
  const status: CheckStatus = !v.exercised ? 'not exercised' : v.failed ? 'fail' : notJudged ? 'not judged' : 'pass';
  const hint =
    status === 'fail' ? v.fix : status === 'not exercised' ? v.exercise : status === 'not judged' ? notJudged!.map((n) => n.instead).join('; ') : undefined;
  return { title, status, finding: v.finding, evidence: v.evidence, ...(notJudged && { notJudged }), ...(hint && { hint }) };
}
