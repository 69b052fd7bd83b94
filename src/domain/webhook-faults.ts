/**
 * Webhook faults (docs/webhooks.md: Webhooks → The delivery lab): what the sandbox does to deliveries on
 * purpose — send a successful delivery twice, hold an event back behind the next one for the same
 * entity, delay first attempts, or answer in the receiver's place with a status or with silence.
 * Here: the body the control plane and `--webhook-faults` accept, its normal form as stored, and
 * the names of the faults an attempt records and of the holds a delivery can be in. What each
 * attempt does under them is webhook-attempts.ts; the lab's settings and the deliveries are read
 * and written by services/delivery-lab.ts and webhooks/delivery-rows.ts.
 */
import { z } from 'zod';
import { DURATION_PATTERN, formatDuration, parseDuration } from './duration.js';
import type { FieldError } from './errors.js';
import { exactlyOneOf } from './field-rules.js';

/** What an attempt records when a fault touched it. */
export const ATTEMPT_FAULTS = ['duplicate', 'reordered', 'delayed', 'injected-status', 'injected-timeout', 'forged'] as const;
export type AttemptFault = (typeof ATTEMPT_FAULTS)[number];

/**
 * The kinds of forged delivery the `forge` fault sends, in the order it tries them (docs/webhooks.md:
 * Forged deliveries): a body changed after signing; the real body signed by another key under the
 * sandbox's keyid, or under a keyid nobody published; the sandbox's own signature made a day ago or
 * an hour ahead; no signature at all; and a genuine delivery replayed ten minutes after it was signed.
 * A forged attempt records `forged` as its fault and one of these as its kind.
 */
export const FORGERIES = ['body-changed', 'other-key', 'unknown-keyid', 'created-past', 'created-future', 'unsigned', 'replayed'] as const;
export type Forgery = (typeof FORGERIES)[number];

/**
 * Why a pending delivery's next attempt was held back: `delayed` (a delay), `holding` (waiting for
 * the next event for its entity to be delivered) or `reordered` (that event was delivered). The
 * attempt that ends the hold records it (`holding` that runs out of time records `delayed`).
 */
export const DELIVERY_HOLDS = ['delayed', 'holding', 'reordered'] as const;
export type DeliveryHold = (typeof DELIVERY_HOLDS)[number];

export const MAX_DELAY_MS = 24 * 3_600_000;
export const MAX_FAIL_TIMES = 10_000;

/** `fail`: the next `times` attempts (counted down in `remaining`), or a `rate` of them. */
export type FailFault = { status: number; times: number; remaining: number } | { status: number; rate: number };

/** The normal form, as stored: absent fields are faults that do not happen. */
export interface Faults {
  duplicate?: number;
  reorder?: number;
  delay?: { minMs: number; maxMs: number };
  fail?: FailFault;
  timeout?: number;
  /** A share of attempts sent forged (each of FORGERIES in turn), which a receiver must refuse. */
  forge?: number;
  seed?: number;
}

export const probability = z.number().min(0, 'must be a probability from 0 to 1').max(1, 'must be a probability from 0 to 1');

/** `"2s-30s"`, `"5s"`, ISO 8601 (`PT2S-PT30S`), up to `maxMs`: milliseconds, or why not. */
export function parseDelay(text: string, maxMs = MAX_DELAY_MS): { minMs: number; maxMs: number } | string {
  const parts = text.split('-');
  const ms = parts.map((part) => parseDuration(part));
  if (parts.length > 2 || ms.some((v) => v === undefined)) return 'must be a duration or a range of two, such as 5s or 2s-30s';
  const [min, max = min] = ms as [number, number?];
  if (max! < min) return 'must be a range from the shorter duration to the longer';
  if (max! > maxMs) return `must be at most ${formatDuration(maxMs)}`;
  return { minMs: min, maxMs: max! };
}

/** A range as `parseDelay` reads it: `5s`, or `2s-30s`. */
export const rangeText = ({ minMs, maxMs }: { minMs: number; maxMs: number }): string =>
  minMs === maxMs ? formatDuration(minMs) : `${formatDuration(minMs)}-${formatDuration(maxMs)}`;

/** A duration, or a range of two from the shorter to the longer, as `parseDelay` reads it. */
export const delayInput = (description: string) => z.string().meta({ pattern: `^${DURATION_PATTERN}(?:-${DURATION_PATTERN})?$`, description });

const Delay = delayInput(
  `How long each attempt waits: a duration or a range of two (\`5s\`, \`2s-30s\`), the shorter first, at most ${formatDuration(MAX_DELAY_MS)}`,
).transform((text, ctx) => {
  const range = parseDelay(text);
  if (typeof range === 'string') {
    ctx.addIssue({ code: 'custom', message: range });
    return z.NEVER;
  }
  return range;
});

const Fail = z
  .strictObject({
    status: z
      .int('must be an HTTP status from 300 to 599')
      .min(300, 'must be an HTTP status from 300 to 599 (a failure)')
      .max(599, 'must be an HTTP status from 300 to 599'),
    times: z.int('must be a whole number').min(1, `must be from 1 to ${MAX_FAIL_TIMES}`).max(MAX_FAIL_TIMES, `must be from 1 to ${MAX_FAIL_TIMES}`).optional(),
    rate: probability.optional(),
  })
  .superRefine((fail, ctx) => {
    if ((fail.times === undefined) === (fail.rate === undefined))
      ctx.addIssue({ code: 'custom', message: 'give either times (the next N attempts) or rate (a share of attempts)' });
  })
  .meta(exactlyOneOf(['times', 'rate']))
  .transform((fail): FailFault =>
    fail.times !== undefined ? { status: fail.status, times: fail.times, remaining: fail.times } : { status: fail.status, rate: fail.rate! },
  );

/** A seed for the faults' draws. */
export const Seed = z
  .int('must be an integer from 0 to 4294967295')
  .min(0, 'must be an integer from 0 to 4294967295')
  .max(2 ** 32 - 1, 'must be an integer from 0 to 4294967295');

/** The body of `PUT …/faults`: every field optional, none other allowed. */
export const FaultsBody = z
  .strictObject({
    duplicate: probability.optional(),
    reorder: probability.optional(),
    delay: Delay.optional(),
    fail: Fail.optional(),
    timeout: probability.optional(),
    forge: probability.optional(),
    seed: Seed.optional(),
  })
  .transform((body): Faults => Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as Faults);

/** Whether any fault can happen: a seed alone, or probabilities of 0, change nothing. */
export function hasFaults(faults: Faults | undefined): boolean {
  if (!faults) return false;
  const { duplicate, reorder, delay, fail, timeout, forge } = faults;
  return !!(duplicate || reorder || timeout || forge || (delay && delay.maxMs > 0) || (fail && ('rate' in fail ? fail.rate > 0 : fail.remaining > 0)));
}

const FIELDS = new Set(['duplicate', 'reorder', 'delay', 'fail.status', 'fail.times', 'fail.rate', 'timeout', 'forge', 'seed']);

/**
 * The `--webhook-faults` and `webhooks faults set` syntax, `duplicate=0.2,reorder=0.2,delay=2s-30s,
 * fail.status=503,fail.times=3`, as the JSON body it stands for: numbers where a number goes. Only
 * the syntax is checked here; the values are FaultsBody's.
 */
export function faultsSpecBody(spec: string): { body: Record<string, unknown>; errors: FieldError[] } {
  const body: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const item of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = item.indexOf('=');
    const key = eq < 0 ? item : item.slice(0, eq).trim();
    const value = eq < 0 ? '' : item.slice(eq + 1).trim();
    if (!FIELDS.has(key)) {
      errors.push({ path: key, message: `is not a fault; use ${[...FIELDS].join(', ')}` });
      continue;
    }
    if (eq < 0 || value === '') {
      errors.push({ path: key, message: 'needs a value, as in key=value' });
      continue;
    }
    const parsed = key === 'delay' ? value : /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    if (key.startsWith('fail.')) body.fail = { ...(body.fail as object | undefined), [key.slice(5)]: parsed };
    else body[key] = parsed;
  }
  return { body, errors };
}

/** Parses and checks a spec: the faults, or every problem with the field it concerns. */
export function parseFaultsSpec(spec: string): { faults: Faults } | { errors: FieldError[] } {
  const { body, errors } = faultsSpecBody(spec);
  if (errors.length) return { errors };
  const parsed = FaultsBody.safeParse(body);
  if (parsed.success) return { faults: parsed.data };
  return { errors: parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || 'faults', message: issue.message })) };
}

/*
 * The decision for one attempt, beside the retry policy. Given the faults in force for the
 * delivery's subscription, what is known of the attempt and a draw per fault, it says whether the attempt is held back (a delay,
 * or held behind the next event for the same entity), answered by the sandbox in the receiver's
 * place (a status without sending, or no answer), or sent — and then sent again if it succeeds.
 *
 * With a seed, each draw is a hash of the seed, the event's sequence number in its programme, the
 * attempt number and the fault: the same events meet the same faults on every run, whatever order
 * their attempts are decided in. Without one, draws come from the programme's randomness.
 */
