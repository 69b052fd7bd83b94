/**
 * Snapshots read back, kept (docs/snapshots.md: Read once): reading a file into rows — parsed and
 * checked to the value — is most of a small restore's time, and a suite restores the same snapshot
 * after every test. The file of a snapshot the database keeps never changes, so its read is kept:
 * made in the background as soon as the snapshot is saved (one such read at a time), or else by its
 * first restore or fork. A read is known by the snapshot's id, creation time and size, since a
 * seeded sandbox may draw an id again once the snapshot that had it is deleted. Reads of at most
 * `limitBytes` of files are kept, the least recently used going first; a larger file is read every
 * time, as before.
 */
import { setImmediate as turn } from 'node:timers/promises';
import type { SnapshotRead } from './file.js';

/** What tells one snapshot's file from another's of the same id. */
export interface Stamp {
  createdAt: number;
  bytes: number;
}

interface Kept {
  stamp: Stamp;
  read: Promise<SnapshotRead>;
}

/**
 * A read handed out: the rows are shared, and nothing changes them (a restore writes them, a fork
 * too); the rest of the state is the caller's own copy, since a programme takes the API fault
 * lab's rules and counts as they are and changes them as it runs.
 */
const copyOf = (read: SnapshotRead): SnapshotRead => {
  const { rows, ...state } = read.state;
  return { ...read, state: { ...structuredClone(state), rows } };
};

export function keptReads(limitBytes: number) {
  const kept = new Map<string, Kept>();
  let total = 0;
  // Reads made ahead run one at a time: each holds several times its file's size while it runs.
  let line: Promise<unknown> = Promise.resolve();

  const forget = (id: string, entry = kept.get(id)) => {
    if (entry === undefined || kept.get(id) !== entry) return;
    kept.delete(id);
    total -= entry.stamp.bytes;
  };

  const keep = (id: string, stamp: Stamp, read: Promise<SnapshotRead>): void => {
    forget(id);
    if (stamp.bytes > limitBytes) return;
    const entry = { stamp, read };
    kept.set(id, entry);
    total += stamp.bytes;
    // A read that fails is not kept: the next restore reads the file again, and says why it cannot.
    read.catch(() => forget(id, entry));
    for (const oldest of kept.keys()) {
      if (total <= limitBytes) break;
      forget(oldest);
    }
  };

  return {
    /** Reads snapshot `id`'s file in the background, after the reads ahead of it, and keeps what it reads (a save). */
    readAhead(id: string, stamp: Stamp, read: () => Promise<SnapshotRead>): void {
      if (stamp.bytes > limitBytes) return;
      const ahead = line.then(async () => {
        // Not before the event loop has read what came during the save: a turn of its own runs
        // before it next polls, and the save's time and the read's would add up for what waits.
        await turn();
        await turn();
        return read();
      });
      line = ahead.catch(() => undefined);
      keep(id, stamp, ahead);
    },

    /** Snapshot `id`'s read as `stamp` says it is: the one kept, or `read()`'s, then kept. The caller's own to change but for its rows. */
    async get(id: string, stamp: Stamp, read: () => Promise<SnapshotRead>): Promise<SnapshotRead> {
      const entry = kept.get(id);
      if (entry && entry.stamp.createdAt === stamp.createdAt && entry.stamp.bytes === stamp.bytes) {
        // The most recently used last.
        kept.delete(id);
        kept.set(id, entry);
        const made = await entry.read.catch(() => undefined);
        if (made) return copyOf(made);
      }
      const made = read();
      keep(id, stamp, made);
      return copyOf(await made);
    },

    /** Snapshot `id` is gone: its read is not kept. */
    forget: (id: string): void => forget(id),
  };
}
