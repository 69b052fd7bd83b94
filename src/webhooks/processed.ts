/**
 * What a receiver may tell the sandbox in its answer to a delivery (docs/go-live.md: Telling the
 * sandbox what your receiver did): `Sandbox-Processed: <n>`, how many times it has acted on the
 * event so far. Kept on the attempt, it is what lets the go-live report judge double processing.
 */

/** The header's name, as node:http gives it (lower case). */
export const PROCESSED_HEADER = 'sandbox-processed';
export const MAX_PROCESSED = 1_000_000;

/** The count the header says: a whole number from 0 to MAX_PROCESSED; undefined when there is none or it says something else. */
export function processedCount(value: string | string[] | undefined): number | undefined {
  if (typeof value !== 'string' || !/^\s*\d{1,7}\s*$/.test(value)) return undefined;
  const n = Number(value);
  return n <= MAX_PROCESSED ? n : undefined;
}
