/** How the page writes times, ids, amounts and states: plain functions, the same on every view. */
import type { DeliveryStatus } from '../src/domain/outbox.js';
import type { STATUSES } from '../src/domain/reach.js';
import type { DeliveryState } from './deliveries.js';

/** `2026-03-01 09:00:00` from an RFC 3339 UTC instant (sandbox time, always UTC). */
export const when = (iso: string | undefined): string => (iso ? iso.replace('T', ' ').replace(/(\.\d+)?Z$/, '') : '');

/** The first block of a UUID, enough to tell resources apart on screen. */
export const shortId = (id: string): string => id.slice(0, 8);

export const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

export type Tone = 'ok' | 'wait' | 'bad' | 'off' | 'info';

/**
 * The colour of every state the page shows: each status of each resource (domain/reach.ts), each
 * delivery's status and state (deliveries.ts) and the few words of the page's own. Typed over those unions, so a
 * new status does not compile until it has its colour here.
 */
type Shown = (typeof STATUSES)[keyof typeof STATUSES][number] | DeliveryStatus | DeliveryState | 'none' | 'ok' | 'refused';
const TONES: Record<Shown, Tone> = {
  active: 'ok',
  delivered: 'ok',
  captured: 'ok',
  processed: 'ok',
  ok: 'ok',
  initiating: 'wait',
  screening: 'wait',
  verifying: 'wait',
  pending: 'wait',
  issuing: 'wait',
  capturing: 'wait',
  releasing: 'wait',
  processing: 'wait',
  retrying: 'wait',
  paused: 'wait',
  reversing: 'wait',
  rejected: 'bad',
  issue_failed: 'bad',
  failed: 'bad',
  discarded: 'bad',
  blocked: 'bad',
  refused: 'bad',
  inactive: 'off',
  closed: 'off',
  terminated: 'off',
  released: 'off',
  suspended: 'off',
  reversed: 'off',
  none: 'off',
};

/** The colour a state is shown in; unknown states are neutral. */
export const toneOf = (status: string): Tone => TONES[status as Shown] ?? 'info';

/** An HTTP status's tone: 2xx fine, 4xx refused, 5xx broken, 0 (a connection closed without an answer) broken too. */
export const statusTone = (status: number | undefined): Tone =>
  status === undefined || status === 0 ? 'bad' : status < 300 ? 'ok' : status < 400 ? 'info' : 'bad';

/** A journal entry's status as shown: 0 is a connection closed without an answer (docs/api-faults.md: The API fault lab). */
export const statusText = (status: number): string => (status === 0 ? 'no answer' : String(status));

/** The detail of a failed signature check without the signature base it ends with, which the page shows apart. */
export const withoutBase = (detail: string): string => detail.split(/\. The signature base the sandbox computed:\n/)[0]!;

/** The state an event's body gives its entity, when it has one. */
export const statusIn = (body: unknown): string | undefined => {
  const status = (body as { status?: unknown } | null)?.status;
  return typeof status === 'string' ? status : undefined;
};

/** Pretty JSON for reading. */
export const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

/** An ISO 8601 instant the sandbox accepts for `to`, from what a person typed: a date alone is midnight UTC, no zone means UTC. */
export function instantFrom(text: string): string | undefined {
  const t = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) return `${t}T00:00:00Z`;
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(t)) return `${t.replace(' ', 'T')}Z`;
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(t)) return t.replace(' ', 'T');
  return undefined;
}
