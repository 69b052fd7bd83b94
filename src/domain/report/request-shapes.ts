/**
 * `request-shapes` (docs/go-live.md: Before you go live): none of each programme's newest requests was
 * refused for its shape — a body the API does not take, or a key reused for another body.
 */
import { each, problem, shown, verdict, type Seen } from './records.js';
import type { CheckVerdict } from './types.js';
import { count } from '../words.js';

/** How many of each programme's newest requests the check reads. */
export const SHAPE_WINDOW = 100;
const REFUSALS = new Set(['invalid_request', 'idempotency_key_reused']);

export function requestShapes(seen: Seen): CheckVerdict {
  const title = `Nothing the client sent was refused for its shape (invalid_request or idempotency_key_reused) in the last ${SHAPE_WINDOW} requests`;
  const recent = each(seen, (p) => p.requests.slice(-SHAPE_WINDOW));
  const refused = recent.filter(({ item }) => item.problem && REFUSALS.has(item.problem.code));
  return verdict(title, {
    exercised: recent.length > 0,
    failed: refused.length > 0,
    finding: refused.length ? `${count(refused.length, 'request')} refused for its shape` : `${count(recent.length, 'request')}, none refused for its shape`,
    evidence: {
      requests: recent.length,
      refused: refused.length,
      problems: shown(
        refused.map(({ item, programme }) => problem(seen, programme, { requestId: item.requestId, why: `${item.problem!.code}: ${item.problem!.detail}` })),
      ),
    },
    fix: 'compare the bodies with /openapi.json; each refusal names the fields (requests, or explain a request id)',
    exercise: 'send API requests',
  });
}
