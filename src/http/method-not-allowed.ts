/**
 * A known path asked with a method it does not have (RFC 9110 §15.5.6): which methods the path
 * has, for the 405 and its `Allow` header (docs/api.md: Errors). The paths are the app's own routes,
 * read once they are all added; a path no route has stays a 404.
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

/** The methods of the routes whose path matches, as `Allow` lists them: HEAD with a GET, which answers it. */
export function methodsOf(routes: readonly { method: string; path: string }[]): (path: string) => string[] {
  const known = routes.filter((r) => METHODS.has(r.method)).map((r) => ({ method: r.method, pattern: patternOf(r.path) }));
  return (path) => {
    const methods = new Set(known.filter((r) => r.pattern.test(path)).map((r) => r.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}

export const methodNotAllowed = (method: string, path: string, allow: readonly string[]) =>
  new SandboxError('method_not_allowed', `${path} has no ${method} operation; it has ${allow.join(', ')}`);
