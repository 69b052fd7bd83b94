/** A snapshot as the control plane shows it (docs/snapshots.md), for the CLI and the companion alike. */

/** How many rows of each table a snapshot holds, and entries of the request journal (`requests`). */
export interface SnapshotCounts {
  attempts: number;
  deliveries: number;
  events: number;
  jobs: number;
  transactions: number;
  authorisations: number;
  cards: number;
  accounts: number;
  customers: number;
  webhooks: number;
  idempotencyKeys: number;
  requests: number;
}

export interface SnapshotSummary {
  id: string;
  name: string;
  /** When it was taken, on the wall clock. */
  createdAt: string;
  /** The programme's clock it holds. */
  clock: { now: string; frozen: boolean };
  counts: SnapshotCounts;
  /** The size of its file. */
  bytes: number;
}
