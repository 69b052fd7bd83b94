/**
 * API faults (docs/api-faults.md: The API fault lab): what the sandbox does to /v1 requests on purpose — answer
 * late, answer a 5xx or a 429 with `Retry-After`, close the connection without an answer, or take
 * the bearer token for expired — before the request has any effect or after it has committed
 * (`effect: "after"`: the answer is lost, and only a retry with the same Idempotency-Key tells).
 * Here: the rules `PUT /_sandbox/api/faults` and `--api-faults` take, the one-request form of the
 * `Sandbox-Fault` header, and the rules as shown, read back; which rule a request meets is
 * api-fault-matching.ts. The fields a fault is made of are api-fault-kinds.ts's table; the values
 * among them are checked here (`VALUE_FIELDS`), the flags all alike.
 */
import { z } from 'zod';
import {
  API_FAULT_FIELD_NAMES,
  API_FAULT_OUTCOMES,
  beforeOnly,
  fieldOfHeader,
  HEADER_NAMES,
  headerValue,
  type ApiFaultField,
  type ApiFaultFlag,
} from './api-fault-kinds.js';
import { DURATION_PATTERN, formatDuration, parseDuration } from './duration.js';
import type { FieldError } from './errors.js';
import { all, either } from './words.js';
import { delayInput, parseDelay, probability, Seed } from './webhook-faults.js';

export const API_FAULT_STATUSES = [500, 502, 503, 504, 429] as const;
export type ApiFaultStatus = (typeof API_FAULT_STATUSES)[number];
export const API_FAULT_EFFECTS = ['before', 'after'] as const;

export type ApiFaultEffect = (typeof API_FAULT_EFFECTS)[number];

export const MAX_LATENCY_MS = 60_000;
export const MAX_RETRY_AFTER_MS = 3_600_000;
export const MAX_RULES = 100;
export const MAX_TIMES = 10_000;

/** What one fault does to one request; its flags (`reset`, `expireToken`…) are api-fault-kinds.ts's. */
export interface ApiFault extends Partial<Record<ApiFaultFlag, true>> {
  latency?: { minMs: number; maxMs: number };
  status?: ApiFaultStatus;
  /** Whole seconds, for the `Retry-After` header. */
  retryAfterSeconds?: number;
  effect: ApiFaultEffect;
}

export interface ApiFaultMatch {
  method?: string;
  /** An OpenAPI path template (`/v1/cards/{cardId}`) or a concrete path, with or without `/v1`. */
  path?: string;
  operationId?: string;
}

/** A rule as PUT /_sandbox/api/faults takes it (docs/api-faults.md: The API fault lab); `reset: true`, `expireToken: true`… */
export interface ApiFaultRuleInput extends Partial<Record<ApiFaultFlag, true>> {
  match?: ApiFaultMatch;
  /** `300ms`, or a range drawn from, `100ms-2s`. */
  latency?: string;
  status?: ApiFaultStatus;
  /** With a status: `2s`, or seconds. */
  retryAfter?: string | number;
  effect?: ApiFaultEffect;
  rate?: number;
  times?: number;
}

export interface ApiFaultsInput {
  rules: ApiFaultRuleInput[];
  seed?: number;
}

/** A rule in its normal form, as kept: `remaining` counts `times` down. */
export interface ApiFaultRule {
  match: ApiFaultMatch;
  fault: ApiFault;
  rate: number;
  times?: number;
  remaining?: number;
}

export interface ApiFaultRules {
  rules: ApiFaultRule[];
  seed?: number;
}

const Latency = delayInput(
  `How long the answer waits: a duration or a range of two (\`2s\`, \`1s-5s\`), the shorter first, at most ${formatDuration(MAX_LATENCY_MS)}`,
).transform((text, ctx) => {
  const range = parseDelay(text, MAX_LATENCY_MS);
  if (typeof range === 'string') {
    ctx.addIssue({ code: 'custom', message: range });
    return z.NEVER;
  }
  return range;
});

const RetryAfter = z
  .union([
    z
      .number()
      .min(0)
      .max(MAX_RETRY_AFTER_MS / 1000),
    z.string().meta({ pattern: `^${DURATION_PATTERN}$` }),
  ])
  .meta({ description: 'When the client may try again: a duration up to 1h (`2s`, `PT30S`) or a number of seconds' })
  .transform((value, ctx) => {
    const ms = typeof value === 'number' ? value * 1000 : parseDuration(value);
    if (ms === undefined || !(ms >= 0) || ms > MAX_RETRY_AFTER_MS) {
      ctx.addIssue({ code: 'custom', message: 'must be a duration up to 1h (2s, PT30S) or a number of seconds' });
      return z.NEVER;
    }
    return Math.ceil(ms / 1000);
  });

const statusMessage = `must be one of ${API_FAULT_STATUSES.join(', ')}`;
const Status = z
  .int(statusMessage)
  .refine((s): s is ApiFaultStatus => (API_FAULT_STATUSES as readonly number[]).includes(s), statusMessage)
  .meta({ enum: [...API_FAULT_STATUSES] });

const Match = z.strictObject({
  method: z
    .string()
    .regex(/^[A-Za-z]+$/, 'must be an HTTP method, such as POST')
    .transform((m) => m.toUpperCase())
    .optional(),
  path: z
    .string()
    .regex(/^\/\S*$/, 'must be a path starting with /, such as /v1/cards/{cardId}')
    .optional(),
  operationId: z.string().min(1, 'must be an operationId of /openapi.json').optional(),
});

/**
 * The fields of a fault that take a value: how a rule or the header gives each (checked, in its normal
 * form) and how the control plane shows it. Every field of api-fault-kinds.ts that is not a flag has
 * its entry; the compiler holds the two lists together.
 */
const VALUE_FIELDS = {
  latency: { input: Latency, view: z.string().optional() },
  status: { input: Status, view: z.union(API_FAULT_STATUSES.map((s) => z.literal(s))).optional() },
  retryAfter: { input: RetryAfter, view: z.number().optional() },
  effect: { input: z.enum(API_FAULT_EFFECTS, `must be one of ${API_FAULT_EFFECTS.join(', ')}`), view: z.enum(API_FAULT_EFFECTS) },
} satisfies { [K in Exclude<ApiFaultField, ApiFaultFlag>]: { input: z.ZodType; view: z.ZodType } };
type ValueFields = typeof VALUE_FIELDS;

/** A fault's fields in api-fault-kinds.ts's order, the values' as `value` takes them from VALUE_FIELDS, the flags' all `flag`. */
function fieldsOf<V extends { [K in keyof ValueFields]: z.ZodType }, F extends z.ZodType>(
  value: (k: keyof ValueFields) => V[keyof ValueFields],
  flag: () => F,
) {
  const shape = (f: ApiFaultField) => (f in VALUE_FIELDS ? value(f as keyof ValueFields) : flag());
  return Object.fromEntries(API_FAULT_FIELD_NAMES.map((f) => [f, shape(f)])) as V & Record<ApiFaultFlag, F>;
}

/** What a fault does: checked the same way for a rule and for the header. */
const FaultFields = fieldsOf<{ [K in keyof ValueFields]: z.ZodOptional<ValueFields[K]['input']> }, z.ZodOptional<z.ZodLiteral<true>>>(
  (k) => VALUE_FIELDS[k].input.optional(),
  () => z.literal(true, 'must be true').optional(),
);

/** A fault as the control plane shows it (wire/api-faults.ts: ApiFaultView). */
export const FAULT_VIEW_FIELDS = fieldsOf<{ [K in keyof ValueFields]: ValueFields[K]['view'] }, z.ZodOptional<z.ZodLiteral<true>>>(
  (k) => VALUE_FIELDS[k].view,
  () => z.literal(true).optional(),
);
type FaultInput = { [K in keyof typeof FaultFields]?: z.output<(typeof FaultFields)[K]> };

function checkFault(fault: FaultInput, ctx: z.RefinementCtx): void {
  const outcomes = API_FAULT_OUTCOMES.filter((k) => fault[k] !== undefined);
  if (outcomes.length > 1) ctx.addIssue({ code: 'custom', message: `give one of ${all(API_FAULT_OUTCOMES)}, not ${outcomes.join(' and ')}` });
  if (outcomes.length === 0 && fault.latency === undefined)
    ctx.addIssue({ code: 'custom', message: `a fault needs ${either(['latency', ...API_FAULT_OUTCOMES])}` });
  if (fault.retryAfter !== undefined && fault.status === undefined)
    ctx.addIssue({ code: 'custom', path: ['retryAfter'], message: 'goes with a status (429 or 503)' });
  const before = outcomes[0] && beforeOnly(outcomes[0]);
  if (before && fault.effect === 'after') ctx.addIssue({ code: 'custom', path: ['effect'], message: `${before}: leave effect out` });
}

/** What `checkFault` refuses, for the documents: a fault needs latency or an outcome, and none of the combinations it refuses. */
const FAULT_RULES = {
  anyOf: ['latency', ...API_FAULT_OUTCOMES].map((k) => ({ required: [k] })),
  not: {
    anyOf: [
      ...API_FAULT_OUTCOMES.flatMap((a, i) => API_FAULT_OUTCOMES.slice(i + 1).map((b) => ({ required: [a, b] }))),
      { required: ['retryAfter'], not: { required: ['status'] } },
      ...API_FAULT_OUTCOMES.filter((o) => beforeOnly(o)).map((o) => ({ required: [o, 'effect'], properties: { effect: { enum: ['after'] } } })),
    ],
  },
};

function faultOf({ latency, status, retryAfter, effect, ...flags }: FaultInput): ApiFault {
  // A 429 tells the client when to come back: 1 s unless the rule says otherwise.
  const retryAfterSeconds = retryAfter ?? (status === 429 ? 1 : undefined);
  return strip({ latency, status: status as ApiFaultStatus | undefined, retryAfterSeconds, ...flags, effect: effect ?? 'before' }) as ApiFault;
}

const Rule = z
  .strictObject({
    match: Match.optional(),
    ...FaultFields,
    rate: probability.optional(),
    times: z.int('must be a whole number').min(1, `must be from 1 to ${MAX_TIMES}`).max(MAX_TIMES, `must be from 1 to ${MAX_TIMES}`).optional(),
  })
  .superRefine(checkFault)
  .meta(FAULT_RULES)
  .transform(
    ({ match, rate, times, ...fault }): ApiFaultRule =>
      strip({ match: strip(match ?? {}), fault: faultOf(fault), rate: rate ?? 1, times, remaining: times }) as ApiFaultRule,
  );

/** The body of `PUT /_sandbox/api/faults` (and `--api-faults`). */
export const ApiFaultsBody = z
  .strictObject({
    rules: z.array(Rule, 'must be a list of rules').max(MAX_RULES, `must hold at most ${MAX_RULES} rules`),
    seed: Seed.optional(),
  })
  .transform((body): ApiFaultRules => strip(body) as ApiFaultRules);

/** Rules as they were shown, in their normal form, with what each had left and how many requests each had faulted. */
export interface ShownApiFaults {
  rules: ApiFaultRules;
  hits: number[];
}

const count = z.int('must be a whole number').min(0, 'must be a whole number');

/** One rule as shown: checked as PUT checks it, what it had left no more than its times. */
const ShownRule = z.looseObject({ remaining: count.optional(), hits: count }).transform(({ remaining, hits, ...shown }, ctx) => {
  const parsed = Rule.safeParse(shown);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  }
  const rule = parsed.data;
  if (rule.times === undefined ? remaining !== undefined : remaining === undefined || remaining > rule.times) {
    ctx.addIssue({
      code: 'custom',
      message: rule.times === undefined ? 'goes with times' : `must be a whole number up to times (${rule.times})`,
      path: ['remaining'],
    });
    return z.NEVER;
  }
  return { rule: strip({ ...rule, remaining }), hits };
});

/** The rules as GET /_sandbox/api/faults shows them, back in their normal form: a snapshot keeps them so. */
export const ApiFaultsShown = z
  .strictObject({
    rules: z.array(ShownRule, 'must be a list of rules').max(MAX_RULES, `must hold at most ${MAX_RULES} rules`),
    seed: Seed.optional(),
  })
  .transform(({ rules, seed }): ShownApiFaults => ({
    rules: strip({ rules: rules.map((r) => r.rule), seed }) as ApiFaultRules,
    hits: rules.map((r) => r.hits),
  }));

const strip = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** `--api-faults '<json>'`: the rules, or every problem with the field it concerns. */
export function parseApiFaultsJson(text: string): { faults: ApiFaultRules } | { errors: FieldError[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { errors: [{ path: 'api faults', message: `is not JSON: ${(error as Error).message}` }] };
  }
  return fieldErrors(ApiFaultsBody.safeParse(json), (faults) => ({ faults }));
}

function fieldErrors<T, R>(result: z.ZodSafeParseResult<T>, ok: (data: T) => R): R | { errors: FieldError[] } {
  if (result.success) return ok(result.data);
  return { errors: result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || 'faults', message: issue.message })) };
}

/**
 * The `Sandbox-Fault` header: `status=503`, `latency=2s`, `reset`, `status=429; retry-after=3`,
 * `effect=after`, any of them together, separated by `;` or `,`.
 */
export function parseFaultHeader(header: string): { fault: ApiFault } | { errors: FieldError[] } {
  const input: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const item of header
    .split(/[;,]/)
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = item.indexOf('=');
    const name = (eq < 0 ? item : item.slice(0, eq)).trim().toLowerCase();
    const value = eq < 0 ? undefined : item.slice(eq + 1).trim();
    const key = fieldOfHeader(name);
    const read = key && headerValue(key, value);
    if (key === undefined) errors.push({ path: name, message: `is not a fault; use ${HEADER_NAMES}` });
    else if (read === undefined) errors.push({ path: name, message: 'needs a value, as in status=503' });
    else input[key] = read;
  }
  if (errors.length) return { errors };
  return fieldErrors(z.strictObject(FaultFields).superRefine(checkFault).safeParse(input), (fault) => ({ fault: faultOf(fault) }));
}
