/**
 * What an API fault is made of (docs/api-faults.md: The API fault lab), declared once: each field a
 * rule or the `Sandbox-Fault` header gives, in the order a fault is shown and written, its name in
 * the header, and which fields are outcomes — what the client gets in the service's place, at most
 * one to a fault. Read off this table: the rules' and the header's schemas (api-faults.ts), the wire
 * view (wire/api-faults.ts), a fault's line of text (wire/fault-text.ts), the report's and
 * `explain`'s reading of a faulted request, and the `api-faults set` tool's text; the lab's answer
 * to each outcome is http/middleware/api-faults.ts's `ANSWERS`, which the compiler holds to it. Free
 * of zod, so that the inspector bundles it.
 */
import { either } from './words.js';

interface FieldKind {
  /** Its name in the `Sandbox-Fault` header. */
  header: string;
  /** Given as `true` (in the header, by its name alone); otherwise a value, read from the header's text by `read`. */
  flag?: true;
  read?: (text: string) => string | number;
  /** An outcome; `beforeOnly` says why it cannot come after the request's work (`effect: "after"`). */
  outcome?: { beforeOnly?: string };
}

export const API_FAULT_FIELDS = {
  latency: { header: 'latency' },
  status: { header: 'status', read: Number, outcome: {} },
  retryAfter: { header: 'retry-after', read: (text) => (/^\d+$/.test(text) ? Number(text) : text) },
  reset: { header: 'reset', flag: true, outcome: {} },
  expireToken: { header: 'expire-token', flag: true, outcome: { beforeOnly: 'an expired token is refused before the request does anything' } },
  effect: { header: 'effect' },
} as const satisfies Record<string, FieldKind>;

type Fields = typeof API_FAULT_FIELDS;
export type ApiFaultField = keyof Fields;
/** The fields given as `true`. */
export type ApiFaultFlag = { [K in ApiFaultField]: Fields[K] extends { flag: true } ? K : never }[ApiFaultField];
/** The fields that say what the client gets instead of the service's answer. */
export type ApiFaultOutcome = { [K in ApiFaultField]: Fields[K] extends { outcome: object } ? K : never }[ApiFaultField];

export const kindOf = (field: ApiFaultField): FieldKind => API_FAULT_FIELDS[field];
export const API_FAULT_FIELD_NAMES = Object.keys(API_FAULT_FIELDS) as ApiFaultField[];
export const API_FAULT_FLAGS = API_FAULT_FIELD_NAMES.filter((f): f is ApiFaultFlag => kindOf(f).flag === true);
export const API_FAULT_OUTCOMES = API_FAULT_FIELD_NAMES.filter((f): f is ApiFaultOutcome => kindOf(f).outcome !== undefined);

/** The outcomes in words: `status, reset or expireToken`. */
export const outcomesText = either(API_FAULT_OUTCOMES);

/** The names the `Sandbox-Fault` header takes: `latency, status, retry-after…`. */
export const HEADER_NAMES = API_FAULT_FIELD_NAMES.map((f) => API_FAULT_FIELDS[f].header).join(', ');

/** The field a `Sandbox-Fault` header name stands for. */
export const fieldOfHeader = (name: string): ApiFaultField | undefined => API_FAULT_FIELD_NAMES.find((f) => API_FAULT_FIELDS[f].header === name);

/** A header item's value as its field takes it: `true` for a flag named alone, else read from its text (none when empty). */
export const headerValue = (field: ApiFaultField, text: string | undefined): unknown => {
  const kind = kindOf(field);
  if (kind.flag) return text === undefined || text === 'true' ? true : text;
  return text === undefined || text === '' ? undefined : (kind.read?.(text) ?? text);
};

/** Why an outcome cannot come after the request's work, if it cannot. */
export const beforeOnly = (outcome: ApiFaultOutcome): string | undefined => kindOf(outcome).outcome?.beforeOnly;

/** A fault as shown (the journal's, the report's), as far as reading its outcome needs. */
export type ShownFault = { readonly [K in ApiFaultField]?: unknown } & { readonly effect: string };

/** The outcome of a fault: what answered instead of the service, if anything did (latency alone only delays). */
export const outcomeOf = (fault: ShownFault): ApiFaultOutcome | undefined => API_FAULT_OUTCOMES.find((f) => fault[f] !== undefined && fault[f] !== false);

/** Answered by the lab in the request's place, before it did anything: its signature was never checked. */
export const answeredBefore = (fault: ShownFault): boolean => {
  const outcome = outcomeOf(fault);
  return outcome !== undefined && (fault.effect === 'before' || beforeOnly(outcome) !== undefined);
};
