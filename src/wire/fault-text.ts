/**
 * The line an API fault is written as (docs/api-faults.md: The API fault lab) — apart from its
 * schema (api-faults.ts), so that the inspector reads it without bundling zod.
 */
import type { ApiFaultView } from './api-faults.js';

/** One line for a fault as shown: `latency=2s status=429 retry-after=3 effect=before`. */
export function faultText({ latency, status, retryAfter, reset, expireToken, effect }: ApiFaultView): string {
  return [
    latency && `latency=${latency}`,
    status && `status=${status}`,
    retryAfter !== undefined && `retry-after=${retryAfter}`,
    reset && 'reset',
    expireToken && 'expire-token',
    `effect=${effect}`,
  ]
    .filter(Boolean)
    .join(' ');
}

/** A fault as put on a request, in one line: `fault status=503 effect=before (rule 1)`, or `(header)`. */
export const faultNote = (fault: ApiFaultView & { source: number | 'header' }): string =>
  `fault ${faultText(fault)} (${fault.source === 'header' ? 'header' : `rule ${fault.source}`})`;
