/** Waiting in tests for something that happens asynchronously, by its outcome rather than a fixed pause. Not shipped. */

/**
 * How long a wait lasts before the test calls it hung: long enough that a slow or busy machine never
 * reaches it; a test waits on the event it is about, never on a time.
 */
export const HUNG_MS = 60_000;

/** Resolves once `condition()` holds; rejects naming `what` after `timeoutMs` (by default: hung). */
export async function until(condition: () => boolean, what: string, timeoutMs = HUNG_MS): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
