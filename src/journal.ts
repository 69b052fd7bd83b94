/**
 * The request journal behind GET /_sandbox/requests and its stream: the last N API requests in
 * memory, newest first. Bounded by `--journal-size`; wiped by reset. An entry carries details only
 * when something went wrong (README: Time travel and the control plane): the problem it was
 * answered with, and what request verification found, with the headers the checks read and the
 * signature base the sandbox computed. Listeners (the requests stream) hear of each entry and of a
 * reset.
 */
import type { ApiFaultView } from './domain/api-faults-view.js';
import type { ErrorCode } from './domain/errors.js';

/** The problem+json a request was answered with. */
export interface JournalProblem {
  code: ErrorCode;
  detail: string;
}

/** One failed check of request verification (README: Request verification). */
export interface VerificationFailure {
  code: ErrorCode;
  detail: string;
}

/** What request verification found when at least one check failed. */
export interface Verification {
  /** `refused` in --verify strict (the first failure is the answer), `warned` in warn. */
  outcome: 'refused' | 'warned';
  /** Every failed check, in the order they run: digest, signature, idempotency key. */
  failures: VerificationFailure[];
  /** The headers the checks read, as received (never Authorization). */
  headers: Record<string, string>;
  /** The RFC 9421 signature base the sandbox computed from the request and its Signature-Input, when it could. */
  signatureBase?: string;
}

/** A fault the API fault lab put on the request (README: The API fault lab). */
export interface JournalFault extends ApiFaultView {
  /** Which rule of PUT /_sandbox/api/faults (from 1), or the request's own Sandbox-Fault header. */
  source: number | 'header';
}

export interface JournalEntry {
  requestId: string;
  time: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  warnings: string[];
  replayed: boolean;
  problem?: JournalProblem;
  verification?: Verification;
  /** When the API fault lab faulted it; `status` is then 0 for a connection closed without an answer. */
  fault?: JournalFault;
  /** The Idempotency-Key it carried, if any: the go-live report follows retries by it. */
  idempotencyKey?: string;
}

/** Told of every entry as it is added, and when a reset clears the journal. */
export interface JournalListener {
  added(entry: JournalEntry): void;
  cleared(): void;
}

export class Journal {
  #entries: JournalEntry[] = [];
  #next = 0;
  #listeners = new Set<JournalListener>();

  constructor(readonly size: number) {}

  add(entry: JournalEntry): void {
    for (const listener of this.#listeners) listener.added(entry);
    if (this.size === 0) return;
    if (this.#entries.length < this.size) this.#entries.push(entry);
    else this.#entries[this.#next] = entry;
    this.#next = (this.#next + 1) % this.size;
  }

  /** Newest first. */
  list(): JournalEntry[] {
    const n = this.#entries.length;
    const start = n < this.size ? n : this.#next;
    const out: JournalEntry[] = [];
    for (let i = 1; i <= n; i++) out.push(this.#entries[(start - i + n) % n]!);
    return out;
  }

  clear(): void {
    this.restore([]);
  }

  /**
   * Replaces every entry with `entries` (newest first, as `list` gives them; a snapshot restored):
   * listeners hear that the journal was cleared, and read it again.
   */
  restore(entries: readonly JournalEntry[]): void {
    this.#entries = entries.slice(0, this.size).reverse();
    this.#next = this.#entries.length % Math.max(this.size, 1);
    for (const listener of this.#listeners) listener.cleared();
  }

  /** Tells `listener` of every entry added and every clearing from now on; returns the unsubscribe function. */
  subscribe(listener: JournalListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
