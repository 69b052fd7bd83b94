/**
 * Snapshots read back, kept (kept-reads.ts): a snapshot's file is read once for every restore and
 * fork of it, made ahead when it is saved; each caller gets a state of its own to change; a read is
 * made again when the snapshot is another of the same id, was forgotten, or no longer fits.
 */
import { describe, expect, it } from 'vitest';
import type { SnapshotRead } from './file.js';
import { keptReads } from './kept-reads.js';

const MiB = 1 << 20;

/** A read of a snapshot: what a restore changes (the API fault lab's counts) and its rows. */
const readOf = (name: string) =>
  ({
    id: name,
    state: { apiFaults: { shown: { rules: [], hits: [0] } }, journal: [{ requestId: name }], rows: { customers: [[name]] } },
  }) as unknown as SnapshotRead;

/** A `read()` that counts its calls, answering `readOf(name)`, or failing while `failing` says so. */
function reader(name: string) {
  const read = async () => {
    read.calls++;
    if (read.failing) throw new Error(`${name} cannot be read`);
    return readOf(name);
  };
  read.calls = 0;
  read.failing = false;
  return read;
}

const stamp = (bytes = MiB, createdAt = 1) => ({ createdAt, bytes });

describe('keptReads', () => {
  it('reads a snapshot once for every restore of it, each restore with a state of its own but the rows', async () => {
    const reads = keptReads(32 * MiB);
    const read = reader('a');
    const first = await reads.get('a', stamp(), read);
    (first.state.apiFaults.shown.hits as number[])[0] = 5;
    first.state.journal.length = 0;
    const second = await reads.get('a', stamp(), read);
    expect(read.calls).toBe(1);
    expect(second.state.apiFaults.shown.hits).toEqual([0]);
    expect(second.state.journal).toEqual([{ requestId: 'a' }]);
    expect(second.state.rows).toBe(first.state.rows);
  });

  it('reads ahead once the save is answered, and a restore meanwhile waits for that read rather than making another', async () => {
    const reads = keptReads(32 * MiB);
    const read = reader('a');
    reads.readAhead('a', stamp(), read);
    expect(read.calls).toBe(0);
    const restored = await reads.get('a', stamp(), read);
    expect(read.calls).toBe(1);
    expect(restored.state.rows).toEqual({ customers: [['a']] });
    await reads.get('a', stamp(), read);
    expect(read.calls).toBe(1);
  });

  it('reads again a snapshot of the same id made at another time or of another size, and a forgotten one', async () => {
    const reads = keptReads(32 * MiB);
    const read = reader('a');
    await reads.get('a', stamp(MiB, 1), read);
    await reads.get('a', stamp(MiB, 2), read);
    expect(read.calls).toBe(2);
    await reads.get('a', stamp(2 * MiB, 2), read);
    expect(read.calls).toBe(3);
    await reads.get('a', stamp(2 * MiB, 2), read);
    expect(read.calls).toBe(3);
    reads.forget('a');
    await reads.get('a', stamp(2 * MiB, 2), read);
    expect(read.calls).toBe(4);
  });

  it('keeps no read that failed: the next restore reads the file again, and fails as it does', async () => {
    const reads = keptReads(32 * MiB);
    const read = reader('a');
    read.failing = true;
    reads.readAhead('a', stamp(), read);
    await expect(reads.get('a', stamp(), read)).rejects.toThrow('a cannot be read');
    expect(read.calls).toBe(2);
    read.failing = false;
    expect((await reads.get('a', stamp(), read)).state.rows).toEqual({ customers: [['a']] });
    expect(read.calls).toBe(3);
  });

  it('keeps reads of files up to its limit in all, the least recently used going first; a larger file is never kept', async () => {
    const reads = keptReads(3 * MiB);
    const a = reader('a');
    const b = reader('b');
    const c = reader('c');
    const d = reader('d');
    await reads.get('a', stamp(), a);
    await reads.get('b', stamp(), b);
    await reads.get('c', stamp(), c);
    // Used again: b is now the least recently used.
    await reads.get('a', stamp(), a);
    await reads.get('d', stamp(), d);
    await reads.get('a', stamp(), a);
    await reads.get('c', stamp(), c);
    await reads.get('d', stamp(), d);
    expect([a.calls, c.calls, d.calls]).toEqual([1, 1, 1]);
    await reads.get('b', stamp(), b);
    expect(b.calls).toBe(2);

    const large = reader('large');
    reads.readAhead('large', stamp(4 * MiB), large);
    await reads.get('large', stamp(4 * MiB), large);
    await reads.get('large', stamp(4 * MiB), large);
    expect(large.calls).toBe(2);
  });

  it('reads ahead one file at a time, in the order the snapshots were saved', async () => {
    const reads = keptReads(32 * MiB);
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const slow = (name: string) => async () => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setImmediate(resolve));
      order.push(name);
      running--;
      return readOf(name);
    };
    for (const name of ['a', 'b', 'c']) reads.readAhead(name, stamp(), slow(name));
    await reads.get('c', stamp(), slow('again'));
    expect(order).toEqual(['a', 'b', 'c']);
    expect(most).toBe(1);
  });
});
