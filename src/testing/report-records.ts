/**
 * Records for the go-live report's tests: journal entries on a timeline of the machine's clock
 * (milliseconds from a start), delivery attempts, and the report of them by check id.
 */
import { goLiveReport, type Check, type ProgrammeRecords, type ReportAttempt, type ReportInput, type ReportRequest } from '../domain/report/index.js';

const T0 = Date.UTC(2026, 0, 1, 9);
let n = 0;

export interface At {
  /** When it arrived and was answered, in ms from the start; answered 5 ms after arrival unless said. */
  at: number;
  took?: number;
}

/** A journal entry arriving at `at` ms. */
export function request(fields: Partial<ReportRequest> & At & { method: string; path: string; status: number }): ReportRequest {
  const { at, took = 5, ...rest } = fields;
  return {
    requestId: `r${++n}`,
    time: new Date(T0).toISOString(),
    replayed: false,
    real: { received: T0 + at, answered: T0 + at + took },
    verified: true,
    ...rest,
  };
}

/** A POST of `body` to /v1/customers (the body stands for its digest). */
export const write = (at: number, status: number, key: string | undefined, body: string, extra: Partial<ReportRequest> & { took?: number } = {}) =>
  request({ at, method: 'POST', path: '/v1/customers', status, ...(key !== undefined && { idempotencyKey: key }), bodyDigest: `sha-256=:${body}:`, ...extra });

let d = 0;
export function attempt(fields: Partial<ReportAttempt>): ReportAttempt {
  return {
    deliveryId: `d${++d}`,
    eventId: `e${d}`,
    eventType: 'customer.updated',
    attempt: 1,
    statusCode: 200,
    error: null,
    durationMs: 3,
    fault: null,
    forgery: null,
    processed: null,
    ...fields,
  };
}

/** The checks of one programme's records, by id. Requests are given oldest first, as they happened. */
export function checks(
  requests: ReportRequest[],
  input: Partial<Omit<ReportInput, 'programmes'>> & { attempts?: ReportAttempt[] } = {},
): Record<string, Check> {
  const { attempts = [], ...rest } = input;
  const programme: ProgrammeRecords = { programme: 'p1', requests: [...requests].reverse(), attempts, statesReached: {} };
  return Object.fromEntries(goLiveReport({ verify: 'strict', operations: [], now: T0, programmes: [programme], ...rest }).checks.map((c) => [c.id, c]));
}
