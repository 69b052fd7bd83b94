/**
 * Telling the sandbox what your receiver did (docs/go-live.md: Telling the sandbox what your receiver
 * did): a tally of how many times a receiver acted on each event, and the `Sandbox-Processed`
 * header that carries the count back on its answer, so that the go-live report can judge double
 * processing, which it cannot see otherwise. The header means nothing to the hosted service, which
 * ignores what a receiver answers with but its status.
 */

export interface ProcessingTally {
  /** Call where the receiver acts on an event (its side effect): counts it, and returns how many times it has now. */
  acted(eventId: string): number;
  /** How many times the receiver has acted on the event. */
  count(eventId: string): number;
  /** The headers to answer that event's delivery with: `{ 'Sandbox-Processed': '<count>' }`. */
  headers(eventId: string): Record<string, string>;
}

export function processingTally(): ProcessingTally {
  const counts = new Map<string, number>();
  const count = (eventId: string) => counts.get(eventId) ?? 0;
  return {
    acted(eventId) {
      const n = count(eventId) + 1;
      counts.set(eventId, n);
      return n;
    },
    count,
    headers: (eventId) => ({ 'Sandbox-Processed': String(count(eventId)) }),
  };
}
