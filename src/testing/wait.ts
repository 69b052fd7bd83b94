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

/**
 * Resolves after the next round of `source`'s real-time pump (kernel/scheduler.ts) that leaves
 * `count()` as it found it: the pump started nothing more, so what is in flight now is all it will
 * start until something changes (an attempt ends, a slot comes back). What a test checks "no more
 * than" against, instead of a pause.
 */
export function steady(source: { pump?(now: number): void }, count: () => number): Promise<void> {
  const pump = source.pump;
  if (!pump) throw new Error('the source has no real-time pump');
  return new Promise((resolve) => {
    source.pump = (now) => {
      const before = count();
      pump.call(source, now);
      if (count() !== before) return;
      source.pump = pump;
      resolve();
    };
  });
}
