/**
 * What the sandbox reads at most, and the name a snapshot file starts with: one definition for the
 * server that refuses more and for the CLI commands that read a file before sending it.
 */

/** The largest body /v1 and the control plane read, a seed world's included. */
export const MAX_BODY_BYTES = 1_048_576;

/** The largest snapshot file the sandbox reads: POST /_sandbox/snapshots/restore, `--import`, `snapshot restore --file`. */
export const MAX_SNAPSHOT_FILE_BYTES = 64 * 1_048_576;

/** The `format` of a snapshot file (docs/snapshots.md: The file), by which `seed` tells one from a seed world. */
export const SNAPSHOT_FORMAT = 'card-sandbox snapshot';
