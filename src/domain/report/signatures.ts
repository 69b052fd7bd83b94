/**
 * `signatures` (docs/go-live.md: Before you go live): every request verification ran on carried a
 * valid RFC 9421 signature and a Content-Digest that matched its body. Requests answered by the API
 * fault lab first, or refused at authentication, never reached verification: they are counted, and
 * judged by nothing.
 */
import { answeredByFaultLab, each, isApi, problem, refusedAtAuthentication, shown, verdict, type Seen } from './records.js';
import type { CheckVerdict } from './types.js';
import { count } from '../words.js';

const TITLE = 'Every request carried a valid RFC 9421 signature and a Content-Digest that matched its body';
const FAILURES = new Set(['invalid_signature', 'invalid_content_digest']);

export function signatures(seen: Seen): CheckVerdict {
  const api = each(seen, (p) => p.requests.filter(isApi));
  const checked = api.filter(({ item }) => item.verified);
  const failed = checked.filter(({ item }) => item.verification?.failures.some((f) => FAILURES.has(f.code)));
  const evidence = {
    requests: api.length,
    checked: checked.length,
    answeredByFaultLab: api.filter(({ item }) => answeredByFaultLab(item)).length,
    refusedAtAuthentication: api.filter(({ item }) => refusedAtAuthentication(item)).length,
    failed: failed.length,
    verify: seen.verify,
    problems: shown(
      failed.map(({ item, programme }) =>
        problem(seen, programme, { requestId: item.requestId, why: item.verification!.failures.find((f) => FAILURES.has(f.code))!.detail.split('\n')[0]! }),
      ),
    ),
  };
  const unchecked =
    api.length > 0 && checked.length === 0
      ? [
          seen.verify === 'off'
            ? {
                what: 'the signatures and digests of the requests',
                why: 'the sandbox runs with --verify off, so it checked none',
                instead: 'start the sandbox with --verify warn or strict',
              }
            : {
                what: 'the signatures and digests of the requests',
                why: 'every request was answered by the API fault lab or refused at authentication before its signature was checked',
                instead: 'send requests that reach the API: fault only some of them, with a valid token',
              },
        ]
      : [];
  return verdict(TITLE, {
    exercised: api.length > 0,
    failed: failed.length > 0,
    notJudged: unchecked,
    finding: failed.length
      ? `${count(failed.length, 'request')} of ${checked.length} checked failed the signature or digest check`
      : api.length === 0
        ? 'no API request was sent'
        : `${checked.length} of ${count(api.length, 'request')} checked, none failed`,
    evidence,
    fix: 'sign "@method", "@authority", "@path" and "content-digest" with the key registered at PUT /v1/auth/signing; explain a request id to see the base the sandbox computed',
    exercise: 'send API requests',
  });
}
