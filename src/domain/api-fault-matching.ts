/**
 * Which API fault rule a request meets (docs/api-faults.md: The API fault lab): a rule's match
 * against a request's method, path template and operation, the first rule that matches and wins its
 * draw, how long its latency is, and which rules no request can ever meet. Pure: the draws come from
 * the random stream passed in.
 */
import type { FieldError } from './errors.js';
import type { ApiFaultMatch, ApiFaultRule } from './api-faults.js';

/** One request as the rules see it. */
export interface ApiRequest {
  method: string;
  /** The path without its query (`/v1/cards/…`). */
  path: string;
  operationId: string | undefined;
}

const V1 = '/v1';
const PARAM = /^\{[^}/]+\}$/;
const templates = new Map<string, RegExp>();

/** A path's segments under /v1, without a trailing slash: `/cards/{cardId}` → `['', 'v1', 'cards', '{cardId}']`. */
const segmentsOf = (path: string): string[] => (path.startsWith(`${V1}/`) || path === V1 ? path : `${V1}${path}`).replace(/\/+$/, '').split('/');

/** One segment as a pattern: `{cardId}` stands for any text without a slash. */
const segmentSource = (segment: string): string =>
  segment
    .split(/(\{[^}/]+\})/)
    .map((part) => (PARAM.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');

/** `/v1/cards/{cardId}` (or `/cards/{cardId}`) as a pattern for concrete paths. */
function pathPattern(path: string): RegExp {
  let pattern = templates.get(path);
  if (pattern === undefined) {
    pattern = new RegExp(`^${segmentsOf(path).map(segmentSource).join('/')}/?$`);
    templates.set(path, pattern);
  }
  return pattern;
}

export function matches(match: ApiFaultMatch, request: ApiRequest): boolean {
  if (match.method !== undefined && match.method !== request.method) return false;
  if (match.operationId !== undefined && match.operationId !== request.operationId) return false;
  return match.path === undefined || pathPattern(match.path).test(request.path);
}

/**
 * The rule a request meets: the first, in the order given, that matches it, has times left and
 * wins its draw (a draw is made only for a rule whose rate is below 1). Undefined for none.
 */
export function pickRule(rules: readonly ApiFaultRule[], request: ApiRequest, draw: () => number): number | undefined {
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    if (rule.remaining === 0 || !matches(rule.match, request)) continue;
    if (rule.rate >= 1 || (rule.rate > 0 && draw() < rule.rate)) return i;
  }
  return undefined;
}

/** How long to wait: the range's low end, or a draw between its ends. */
export const latencyMs = ({ minMs, maxMs }: { minMs: number; maxMs: number }, draw: () => number): number =>
  minMs === maxMs ? minMs : Math.round(minMs + draw() * (maxMs - minMs));

/** An operation as the app declares it: `/customers/{customerId}` under /v1. */
export interface DeclaredOperation {
  method: string;
  path: string;
  operationId: string;
}

/** Which declared operation a concrete request is, for rules that match on `operationId`. */
export function operationFinder(operations: readonly DeclaredOperation[]): (method: string, path: string) => string | undefined {
  const found = operations.map((o) => ({ method: o.method.toUpperCase(), pattern: pathPattern(o.path), operationId: o.operationId }));
  return (method, path) => found.find((o) => o.method === method && o.pattern.test(path))?.operationId;
}

/** Whether two segments can stand for the same text: equal, or a `{param}` that takes the other. */
function segmentsMeet(a: string, b: string): boolean {
  if (a === b) return true;
  const aParam = /\{[^}/]+\}/.test(a);
  const bParam = /\{[^}/]+\}/.test(b);
  if (aParam === bParam) return aParam;
  const [pattern, text] = aParam ? [a, b] : [b, a];
  return new RegExp(`^${segmentSource(pattern)}$`).test(text);
}

/** Whether some request of `operation` meets `match`. */
function canMeet(match: ApiFaultMatch, operation: DeclaredOperation): boolean {
  if (match.method !== undefined && match.method !== operation.method.toUpperCase()) return false;
  if (match.operationId !== undefined && match.operationId !== operation.operationId) return false;
  if (match.path === undefined) return true;
  const mine = segmentsOf(match.path);
  const theirs = segmentsOf(operation.path);
  return mine.length === theirs.length && mine.every((segment, i) => segmentsMeet(segment, theirs[i]!));
}

/**
 * Why each rule no request can meet is refused, naming the field at fault: an operationId, a path or
 * a method of no operation, or a combination none has — or a match that only an operation answered
 * before the lab meets (`POST /v1/auth/token`, answered before the programme is known). `faulted`
 * are the operations the lab stands in front of; `all`, every one of /v1.
 */
export function unmetRules(rules: readonly ApiFaultRule[], faulted: readonly DeclaredOperation[], all: readonly DeclaredOperation[]): FieldError[] {
  const errors: FieldError[] = [];
  rules.forEach(({ match }, i) => {
    if (faulted.some((operation) => canMeet(match, operation))) return;
    const at = `rules.${i}.match`;
    const unfaulted = all.filter((operation) => canMeet(match, operation));
    const alone = (field: keyof ApiFaultMatch) => match[field] === undefined || all.some((operation) => canMeet({ [field]: match[field] }, operation));
    if (unfaulted.length) {
      const names = unfaulted.map((o) => `${o.method.toUpperCase()} ${V1}${o.path}`).join(', ');
      errors.push({ path: at, message: `meets only ${names}, which is answered before the lab and never faulted; to test token renewal, use expireToken` });
    } else if (!alone('operationId')) errors.push({ path: `${at}.operationId`, message: 'is not an operationId of /openapi.json' });
    else if (!alone('path')) errors.push({ path: `${at}.path`, message: 'is the path of no /v1 operation' });
    else if (!alone('method')) errors.push({ path: `${at}.method`, message: 'is the method of no /v1 operation' });
    else errors.push({ path: at, message: 'no /v1 operation has this method, path and operationId together' });
  });
  return errors;
}
