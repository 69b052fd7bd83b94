/**
 * `token-renewal` (docs/go-live.md: Before you go live): when its token expired the client got a new
 * one, without a burst of 401s. The server cannot see when the client read a 401, so calls already
 * on their way are never blamed, however many journeys ran at once; what shows the client knew is
 * a call it sent again after that call's own 401 came back, or one it sent with the old token after
 * its request for a new one had arrived. Those make the burst, two of them forgiven (identical calls
 * of concurrent journeys, sockets that overtake each other) when they were in flight together: a
 * chain of the same call, each sent after the last one's 401 came back, is never forgiven. All on
 * the machine's clock.
 */
import { each, isTokenRequest, pathOf, problem, shown, tokenExpired, verdict, type Programme, type Seen } from './records.js';
import type { CheckVerdict, NotJudged, Problem, ReportRequest } from './types.js';
import { count } from '../words.js';

const TITLE = 'When its token expired the client got a new one, without a burst of 401s';
/** 401s the client is seen to have provoked knowingly that are forgiven. */
export const FORGIVEN_AFTER_NOTICE = 2;

interface Episode {
  notice: ReportRequest;
  renewal?: ReportRequest;
  /** 401s for calls the client sent knowing: again after their own 401, or after asking for a new token. */
  afterNotice: ReportRequest[];
  /** A knowing 401 whose call was sent again, knowingly too, after that 401 came back. */
  chained?: ReportRequest;
  /** /v1 calls after the notice was answered, and how many of them were not refused for the token. */
  later: number;
  laterServed: number;
}

/** The same call: method, path and query, and body. */
const sameCall = (a: ReportRequest, b: ReportRequest) => a.method === b.method && a.path === b.path && a.bodyDigest === b.bodyDigest;

const received = (e: ReportRequest) => e.real?.received ?? 0;
const answered = (e: ReportRequest) => e.real?.answered ?? 0;

/**
 * Each expiry: its notice (the first 401 answered), the client's next token (the first answered after
 * the notice's request was sent: a newer token than it carried), and the 401s of requests sent
 * before that token came back, which belong to this expiry however late they were answered.
 */
function episodes(p: Programme): Episode[] {
  const all = p.requests;
  let remaining = all.filter(tokenExpired).sort((a, b) => answered(a) - answered(b));
  const found: Episode[] = [];
  while (remaining.length > 0) {
    const notice = remaining[0]!;
    const renewal = all.find((e) => isTokenRequest(e) && e.status === 200 && answered(e) > received(notice));
    const end = renewal ? answered(renewal) : Infinity;
    const mine = remaining.filter((e) => received(e) < end);
    remaining = remaining.filter((e) => received(e) >= end);
    const later = all.filter((e) => received(e) > answered(notice) && !isTokenRequest(e) && pathOf(e).startsWith('/v1/'));
    const sentAgainAfter = (earlier: ReportRequest, e: ReportRequest) => earlier !== e && sameCall(earlier, e) && answered(earlier) < received(e);
    const afterNotice = mine.filter((e) => (renewal && received(e) > received(renewal)) || mine.some((earlier) => sentAgainAfter(earlier, e)));
    const chained = afterNotice.find((e) => afterNotice.some((next) => sentAgainAfter(e, next)));
    found.push({
      notice,
      ...(renewal && { renewal }),
      afterNotice,
      ...(chained && { chained }),
      later: later.length,
      laterServed: later.filter((e) => !tokenExpired(e)).length,
    });
  }
  return found;
}

export function tokenRenewal(seen: Seen): CheckVerdict {
  const found = each(seen, episodes);
  const problems: Problem[] = [];
  let unended = 0;
  for (const { item, programme } of found) {
    const { notice, renewal, afterNotice, chained, later, laterServed } = item;
    if (!renewal && later === 0) {
      unended++;
      continue;
    }
    // Calls served after it without a token asked for since: the client held a newer one already.
    if (!renewal && laterServed === 0)
      problems.push(
        problem(seen, programme, {
          requestId: notice.requestId,
          why: `the token expired and the client never got a new one (${count(later, 'call')} after, each refused)`,
        }),
      );
    const context = `(the first 401: ${notice.requestId}${renewal ? `; the new token: ${renewal.requestId}` : ''})`;
    if (afterNotice.length > FORGIVEN_AFTER_NOTICE)
      problems.push(
        problem(seen, programme, {
          requestId: afterNotice[0]!.requestId,
          why: `${count(afterNotice.length, '401')} for calls sent again with the expired token after their own 401, or after the client asked for a new one ${context}`,
        }),
      );
    else if (chained)
      problems.push(
        problem(seen, programme, {
          requestId: chained.requestId,
          why: `${chained.method} ${pathOf(chained)} was sent again with the expired token after its own 401 came back, and again after that one's ${context}`,
        }),
      );
  }
  const notJudged: NotJudged[] = unended
    ? [
        {
          what: `whether the client renews its token (${count(unended, 'expiry', 'expiries')})`,
          why: 'no request came after the token expired: the run ended first',
          instead: 'make a call after the token expires (clock advance 1h, then a request)',
        },
      ]
    : [];
  const expired = each(seen, (p) => p.requests.filter(tokenExpired)).length;
  const longest = Math.max(0, ...found.map(({ item }) => item.afterNotice.length));
  return verdict(TITLE, {
    exercised: found.length > 0,
    failed: problems.length > 0,
    notJudged,
    finding: problems.length
      ? problems.map((p) => p.why).join('; ')
      : `${count(found.length, 'expiry', 'expiries')}, ${count(found.filter(({ item }) => item.renewal).length, 'renewal')}, at most ${count(longest, '401')} the client provoked knowing`,
    evidence: {
      expired,
      expiries: found.length,
      renewed: found.filter(({ item }) => item.renewal).length,
      longestKnowing: longest,
      problems: shown(problems),
    },
    fix: 'on a 401 "the token expired", call POST /v1/auth/token once and retry; hold other calls until the new token comes (tokens last an hour of sandbox time)',
    exercise: 'let a token expire (clock advance 1h, or expireToken in the API fault lab) and keep calling',
  });
}
