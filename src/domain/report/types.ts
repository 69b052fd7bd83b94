/**
 * What the go-live report reads and what it says (docs/go-live.md: Before you go live): the records
 * of each programme it covers — its request journal, its delivery attempts, the states its
 * resources reached — and the verdict of each check, with evidence. Its wire shape is wire/report.ts.
 */
import type { ShownFault } from '../api-fault-kinds.js';
import type { DeclaredOperation } from '../api-fault-matching.js';
import type { ResourceType, WebhookType } from '../outbox.js';
import type { AttemptFault, Forgery } from '../webhook-faults.js';

/** A request as the report reads it: the request journal's entries carry these fields, and more. */
export interface ReportRequest {
  requestId: string;
  /** Sandbox time its answer was made. */
  time: string;
  method: string;
  path: string;
  /** 0 for a connection closed without an answer. */
  status: number;
  replayed: boolean;
  problem?: { code: string; detail: string } | undefined;
  verification?: { failures: readonly { code: string; detail: string }[] } | undefined;
  /** The API fault lab's fault on it, as far as the report reads it. */
  fault?: (ShownFault & { retryAfter?: number | undefined }) | undefined;
  idempotencyKey?: string | undefined;
  /** The machine's clock when it arrived and when it was answered (epoch ms). */
  real?: { received: number; answered: number } | undefined;
  /** A write's body as a digest. */
  bodyDigest?: string | undefined;
  /** Request verification ran on it. */
  verified?: true | undefined;
}

export interface ReportAttempt {
  deliveryId: string;
  eventId: string;
  eventType: WebhookType;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  fault: AttemptFault | null;
  forgery: Forgery | null;
  /** What the receiver said in Sandbox-Processed. */
  processed: number | null;
}

/** What the report reads of one programme. */
export interface ProgrammeRecords {
  programme: string;
  /** The request journal, newest first. */
  requests: readonly ReportRequest[];
  attempts: readonly ReportAttempt[];
  /** The statuses each resource type's events have shown. */
  statesReached: Readonly<Partial<Record<ResourceType, readonly string[]>>>;
  /** The directions and fee types its transactions' events have shown; absent when none was read. */
  money?: { directions: readonly string[]; feeTypes: readonly string[] } | undefined;
}

/** How many deleted programmes' records a sandbox keeps for the report, the newest. */
export const ENDED_KEPT = 100;

export interface ReportInput {
  verify: 'strict' | 'warn' | 'off';
  /** Every /v1 operation the app declares. */
  operations: readonly DeclaredOperation[];
  /** The programmes the report covers, each read alone: a retry is never paired across two. */
  programmes: readonly ProgrammeRecords[];
  /** When the report is made: epoch ms on the machine's clock. */
  now: number;
}

/**
 * A check's verdict: `pass` and `fail` on what the sandbox saw; `not judged` when what the check
 * names happened but the sandbox could not see whether it went right; `not exercised` when it never
 * happened.
 */
export const CHECK_STATUSES = ['pass', 'fail', 'not judged', 'not exercised'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** A part of what a check names that the sandbox could not see: what, why, and what the integrator can do instead. */
export interface NotJudged {
  what: string;
  why: string;
  instead: string;
}

/** A request or a delivery at fault, and why; with the programme when the report covers more than one. */
export interface Problem {
  requestId?: string;
  deliveryId?: string;
  why: string;
  programme?: string;
}

/** One check: its stable id (the JUnit test name, its key in `CHECKS`, index.ts), what was judged, the verdict, what was seen, and how to fix or exercise it. */
export interface Check {
  id: string;
  title: string;
  status: CheckStatus;
  /** One line: what was found — what failed, for a failure. */
  finding: string;
  /** What was seen: counts, and the requests or deliveries at fault (the first ten) with why. */
  evidence: Record<string, unknown>;
  /** What the sandbox could not judge, when anything. */
  notJudged?: NotJudged[];
  /** How to fix a failure, or how to exercise the check. */
  hint?: string;
}

/** What a check finds: the check but for its id. */
export type CheckVerdict = Omit<Check, 'id'>;

/** What of a list the integration saw and never saw, with what makes each never seen. */
export interface SeenAndNever {
  seen: string[];
  never: string[];
  hints: Record<string, string>;
}

/** The go-live report: its checks, with evidence, and coverage. */
export interface Report {
  /** The programmes it covers. */
  programmes: string[];
  /** When it was made (the machine's clock). */
  generatedAt: string;
  /** From the first request's arrival to the last one's answer (the machine's clock), when any was journaled. */
  span?: { from: string; to: string };
  summary: Record<CheckStatus, number>;
  checks: Check[];
  coverage: {
    operations: { operationId: string; method: string; path: string; calls: number; statuses: Record<string, number> }[];
    neverCalled: string[];
    /** `hints`: for each state never reached, what reaches it. */
    states: { resource: ResourceType; reached: string[]; never: string[]; hints: Record<string, string> }[];
    webhooks: { type: WebhookType; attempts: number; answers: Record<string, number> }[];
    /** Transaction directions and fee types seen and never (`hints`: what makes each never seen), and the `insufficient_funds` refusals met. */
    money: {
      directions: SeenAndNever;
      feeTypes: SeenAndNever;
      insufficientFunds: { met: boolean; refusals: number; hint?: string };
    };
  };
}
