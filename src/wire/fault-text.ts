/**
 * The line an API fault is written as (docs/api-faults.md: The API fault lab) — apart from its
 * schema (api-faults.ts), so that the inspector reads it without bundling zod.
 */
import { API_FAULT_FIELD_NAMES, kindOf } from '../domain/api-fault-kinds.js';
import type { ApiFaultView } from './api-faults.js';

/** One line for a fault as shown, its fields in order, a flag by its name: `latency=2s status=429 retry-after=3 effect=before`. */
export const faultText = (fault: ApiFaultView): string =>
  API_FAULT_FIELD_NAMES.flatMap((f) => {
    const value = fault[f];
    if (value === undefined) return [];
    const { header, flag } = kindOf(f);
    return [flag ? header : `${header}=${String(value)}`];
  }).join(' ');

/** A fault as put on a request, in one line: `fault status=503 effect=before (rule 1)`, or `(header)`. */
export const faultNote = (fault: ApiFaultView & { source: number | 'header' }): string =>
  `fault ${faultText(fault)} (${fault.source === 'header' ? 'header' : `rule ${fault.source}`})`;
