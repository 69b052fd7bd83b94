/**
 * API faults as the control plane and the journal show them (docs/api-faults.md: The API fault lab), and the
 * line a fault is written as — apart from the rules' schemas (api-faults.ts), so that the inspector
 * reads them without bundling zod.
 */
import type { ApiFaultRuleView, ApiFaultsView, ApiFaultView } from './api-faults.js';

export type { ApiFaultRuleView, ApiFaultsView, ApiFaultView };

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
