/**
 * Where running sandboxes are: while `card-sandbox start` runs, it keeps a small file naming its
 * URL in a folder of the user's temporary directory, and removes it when it stops. Client commands
 * given no URL or port use it to find a sandbox started elsewhere than the default port — above
 * all a container's HEALTHCHECK, whose `start` may have been given `--port 5000`. A file left by a
 * process that was killed is recognised by its pid and removed by the next reader.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../kernel/files.js';

export interface RunFile {
  pid: number;
  url: string;
}

/** One folder per user: another user's sandboxes are theirs to find. */
const folder = () => join(tmpdir(), `card-sandbox-${process.getuid?.() ?? 'user'}`);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Records this process as a sandbox serving `url`; returns the function that removes the record. */
export function recordRunning(url: string): () => void {
  const file = join(folder(), `${process.pid}.json`);
  try {
    mkdirSync(folder(), { recursive: true, mode: 0o700 });
    // Whole or not at all: a reader never finds half a record (kernel/files.ts).
    writeFileAtomicSync(file, JSON.stringify({ pid: process.pid, url } satisfies RunFile));
  } catch {
    // A read-only temporary directory: the sandbox runs the same, only clients must be told where.
    return () => {};
  }
  return () => rmSync(file, { force: true });
}

/** The sandboxes running now, by the files they keep. */
export function runningSandboxes(): RunFile[] {
  let names: string[];
  try {
    names = readdirSync(folder()).filter((name) => /^\d+\.json$/.test(name));
  } catch {
    return [];
  }
  const found: RunFile[] = [];
  for (const name of names) {
    const file = join(folder(), name);
    try {
      const record = JSON.parse(readFileSync(file, 'utf8')) as RunFile;
      if (alive(record.pid)) found.push(record);
      else rmSync(file, { force: true });
    } catch {
      // Being written or removed right now, or not ours: skip it.
    }
  }
  return found.sort((a, b) => a.pid - b.pid);
}
