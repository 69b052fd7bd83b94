/**
 * A known path asked with a method it does not have (RFC 9110 §15.5.6): which methods the path
 * has, for the 405 and its `Allow` header (docs/api.md: Errors). The paths are the app's own routes,
 * read once they are all added; a path no route has stays a 404. Where a literal path is also taken
 * by a templated one (`/v1/webhooks/verification-key` and `/v1/webhooks/:webhookId`), the literal
 * path wins: its methods alone are the path's, and another method is a 405, never the templated
 * route's answer.
 */
import { SandboxError } from '../domain/errors.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** `/v1/cards/:cardId` → a pattern of the concrete paths it takes; `*` takes the rest. */
const patternOf = (path: string) =>
  new RegExp(
    `^${path
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/:\w+/g, '[^/]+')
      .replace(/\*/g, '.*')}$`,
  );

/** How specific a path's template is, segment by segment: a literal segment (0) before a parameter (1) before the rest (2). */
const rankOf = (path: string) => path.split('/').map((s) => (s.includes('*') ? 2 : s.startsWith(':') ? 1 : 0));
const compare = (a: number[], b: number[]) => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
};

/** `Allow`'s list: HEAD with a GET, which answers it. */
const allowOf = (methods: Iterable<string>) => {
  const all = new Set(methods);
  if (all.has('GET')) all.add('HEAD');
  return [...all].sort();
};

export interface AllowedMethods {
  /** The methods of the most specific routes whose path matches, as `Allow` lists them. */
  of(path: string): string[];
  /** A literal path a templated route takes too: its own methods, which another method must not pass. */
  shadowing(path: string): string[] | undefined;
}

export function methodsOf(routes: readonly { method: string; path: string }[]): AllowedMethods {
  // The app lists a route once for each of its handlers and middleware: each method and path is read once.
  const distinct = new Map<string, { method: string; path: string }>();
  for (const r of routes) if (METHODS.has(r.method)) distinct.set(`${r.method} ${r.path}`, r);
  const known = [...distinct.values()].map((r) => ({ method: r.method, path: r.path, pattern: patternOf(r.path), rank: rankOf(r.path) }));
  const of = (path: string) => {
    const matching = known.filter((r) => r.pattern.test(path));
    const best = matching.reduce<number[] | undefined>((min, r) => (min === undefined || compare(r.rank, min) < 0 ? r.rank : min), undefined);
    return allowOf(matching.filter((r) => best && compare(r.rank, best) === 0).map((r) => r.method));
  };
  const templated = known.filter((r) => r.rank.some((kind) => kind > 0));
  const literal = new Set(known.filter((r) => !/[:*]/.test(r.path)).map((r) => r.path));
  const shadowed = new Map([...literal].filter((path) => templated.some((r) => r.pattern.test(path))).map((path) => [path, of(path)] as const));
  return { of, shadowing: (path) => shadowed.get(path) };
}

export const methodNotAllowed = (method: string, path: string, allow: readonly string[]) =>
  new SandboxError('method_not_allowed', `${path} has no ${method} operation; it has ${allow.join(', ')}`);
