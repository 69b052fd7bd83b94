/**
 * Dot segments in a request's path. A URL's `.` and `..` segments (`%2e` and `%2E` too) are
 * resolved away before routing (`/_sandbox/webhooks/./faults` is `/_sandbox/webhooks/faults`),
 * which would turn an action on one subscription into one on all of them, or reach another route
 * than the one the path names. The server keeps them as what they are: a path parameter spelt `.`,
 * which the route refuses as the id it is not (docs/reliability.md: Hostile input never breaks it).
 */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** The raw request target with each dot segment spelt so that it stays one (`%252E`); undefined when it has none. */
export function literalDotSegments(target: string): string | undefined {
  const end = target.search(/[?#]/);
  const path = end < 0 ? target : target.slice(0, end);
  const segments = path.split('/');
  if (!segments.some((s) => DOT_SEGMENT.test(s))) return undefined;
  const kept = segments.map((s) => (DOT_SEGMENT.test(s) ? s.replace(/\.|%2e/gi, '%252E') : s)).join('/');
  return end < 0 ? kept : `${kept}${target.slice(end)}`;
}

/** The request as received, its dot segments kept (`target` is the raw request target, `/path?query`). */
export function keepDotSegments(request: Request, target: string): Request {
  const kept = literalDotSegments(target);
  if (kept === undefined || !target.startsWith('/')) return request;
  const url = new URL(request.url);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(`${url.origin}${kept}`, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    ...(hasBody && { body: request.body, duplex: 'half' }),
  } as RequestInit);
}
