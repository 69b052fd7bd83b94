/**
 * A user's files, written and read safely (docs/reliability.md: Files are whole). A file is
 * written to a temporary file in the same folder, flushed to the disk, then renamed over the
 * target: a process killed at any moment leaves the previous file whole or the new one, never an
 * empty or partial one. A file is read up to a bound, checked by its size first and then while it
 * is read, so that a device or a pipe that never ends (`/dev/zero`) is refused at once.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, closeSync, constants, fsyncSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * node:fs/promises, loaded when a file is first written or read through it: it loads node:readline's
 * interface and more (about 4 ms of CPU), which every command would pay for as the CLI starts.
 */
const fsPromises = () => import('node:fs/promises');

/**
 * The temporary file beside `file`: hidden, and named so that two writers never share one. Those a
 * writer killed mid-write left beside the same file — of a process no longer running — are removed
 * first: they would never be renamed.
 */
function temporaryOf(file: string): string {
  removeStaleTemporaries(file);
  return join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** Whether a process of this id runs (one of another user's counts too). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the hidden `.<name>.<pid>.<hex>.tmp` files beside `file` whose writing process no longer runs. */
export function removeStaleTemporaries(file: string): void {
  const folder = dirname(resolve(file));
  const prefix = `.${basename(file)}.`;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = name.startsWith(prefix) ? /^(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name.slice(prefix.length))?.[1] : undefined;
    if (pid !== undefined && Number(pid) !== process.pid && !running(Number(pid))) rmSync(join(folder, name), { force: true });
  }
}

/** Flushes a folder's entries, so that a rename survives a power loss; some systems cannot, which changes nothing else. */
function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // Windows cannot open a folder; the rename is done all the same.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes `data` to `file` whole or not at all: temporary file, flush, rename. Synchronous, for a process on its way out. */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  const temporary = temporaryOf(file);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let fd: number | undefined;
  try {
    fd = openSync(temporary, 'wx', 0o644);
    for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, file);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(dirname(resolve(file)));
}

/** Writes `data` to `file` whole or not at all, without holding the event loop while the disk works. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const temporary = temporaryOf(file);
  const { open, rename } = await fsPromises();
  const handle = await open(temporary, 'wx', 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    await rename(temporary, file);
  } catch (error) {
    await handle.close().catch(() => undefined);
    rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(dirname(resolve(file)));
}

/**
 * Why `file` could not be written where it is, checked before anything depends on it (a start
 * that would write it at exit): its folder missing, not a folder, or not writable, or the file
 * itself a folder. Undefined when it can be.
 */
export function unwritableProblem(file: string): string | undefined {
  const folder = dirname(resolve(file));
  try {
    if (!statSync(folder).isDirectory()) return `${folder} is not a folder`;
  } catch {
    return `the folder ${folder} does not exist`;
  }
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    return `the folder ${folder} is not writable`;
  }
  try {
    if (statSync(file).isDirectory()) return `${file} is a folder`;
  } catch {
    // Not there yet: it will be made.
  }
  return undefined;
}

/** A file larger than a reader takes: its `code` is EFBIG, its message names the bound. */
export class FileTooLarge extends Error {
  readonly code = 'EFBIG';
  constructor(readonly maxBytes: number) {
    super(`larger than ${bytesText(maxBytes)}, the most it may be`);
  }
}

/** Why a file could not be read, in a few words: the bound it passed, or the system's code (ENOENT, EACCES…). */
export const readProblem = (error: unknown): string =>
  error instanceof FileTooLarge ? error.message : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);

export const bytesText = (bytes: number): string =>
  bytes >= 1_073_741_824 && bytes % 1_073_741_824 === 0
    ? `${bytes / 1_073_741_824} GiB`
    : bytes >= 1_048_576 && bytes % 1_048_576 === 0
      ? `${bytes / 1_048_576} MiB`
      : `${bytes} bytes`;

const CHUNK = 1_048_576;

/**
 * Reads at most `maxBytes` of `file`: a regular file larger than that is refused by its size,
 * without a byte read; anything else (a device, a pipe) is read until it ends or passes the bound.
 * Opened without waiting for a writer, so that a pipe nobody writes to is not waited on forever.
 */
export async function readBounded(file: string, maxBytes: number): Promise<Buffer> {
  const handle = await (await fsPromises()).open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw Object.assign(new Error(`${file} is a folder`), { code: 'EISDIR' });
    if (stat.isFile() && stat.size > maxBytes) throw new FileTooLarge(maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, maxBytes + 1 - total));
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(chunk, 0, chunk.length, null));
      } catch (error) {
        // A pipe with nothing in it yet: wait a moment for its writer rather than reading nothing.
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        await new Promise((r) => setTimeout(r, 10));
        continue;
      }
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw new FileTooLarge(maxBytes);
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, total);
  } finally {
    await handle.close();
  }
}
