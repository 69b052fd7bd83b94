/**
 * The request journal behind GET /_sandbox/requests: the last N API requests in memory,
 * newest first. Bounded by `--journal-size`; wiped by reset.
 */
export interface JournalEntry {
  requestId: string;
  time: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  warnings: string[];
  replayed: boolean;
}

export class Journal {
  #entries: JournalEntry[] = [];
  #next = 0;

  constructor(readonly size: number) {}

  add(entry: JournalEntry): void {
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
    this.#entries = [];
    this.#next = 0;
  }
}
