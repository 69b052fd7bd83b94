/**
 * The request journal behind GET /_sandbox/requests and its stream: the last N API requests in
 * memory, newest first. Bounded by `--journal-size`; wiped by reset. An entry carries details only
 * when something went wrong (docs/control-plane.md: Time travel and the control plane): the problem it was
 * answered with, and what request verification found, with the headers the checks read and the
 * signature base the sandbox computed. Listeners (the requests stream) hear of each entry and of a
 * reset.
 */
import type { JournalEntry, JournalFault, JournalProblem, Verification, VerificationFailure } from '../wire/journal.js';

export type { JournalEntry, JournalFault, JournalProblem, Verification, VerificationFailure };

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
