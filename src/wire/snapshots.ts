/**
 * Snapshots on the control plane (docs/snapshots.md): the body that names one and how one is shown,
 * with the counts of what it holds.
 */
import { z } from 'zod';
import { Count } from '../domain/formats.js';
import { WORLD_TABLE_NAMES, type WorldTableName } from '../store/world.js';
import { ClockState, Instant } from './sandbox.js';

/** POST /_sandbox/snapshots. */
export const NewSnapshot = z.strictObject(
  { name: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional() },
  { error: (issue) => (issue.code === 'invalid_type' ? 'must be a JSON object' : undefined) },
);

/** How many rows of each kind a snapshot holds, and entries of the request journal (`requests`). */
export const SnapshotCounts = z
  .object({ ...(Object.fromEntries(WORLD_TABLE_NAMES.map((name) => [name, Count])) as Record<WorldTableName, typeof Count>), requests: Count })
  .meta({ id: 'SnapshotCounts' });
export type SnapshotCounts = z.infer<typeof SnapshotCounts>;

/** A snapshot as the control plane shows it (docs/snapshots.md). */
export const SnapshotSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    /** When it was taken, on the wall clock. */
    createdAt: Instant,
    /** The programme's clock it holds. */
    clock: ClockState,
    counts: SnapshotCounts,
    /** The size of its file. */
    bytes: Count,
  })
  .meta({ id: 'SnapshotSummary' });
export type SnapshotSummary = z.infer<typeof SnapshotSummary>;
