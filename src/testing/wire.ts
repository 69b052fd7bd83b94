/**
 * Wire-shape checks for tests, against the one definition of each shape (wire/, domain/): a body
 * parses with its schema and the schema keeps all of it — every required field, nothing outside
 * the schema, never `null`. The harness runs `statusMismatch`, `headerMismatch` and `answerMismatch` on every response it hands a test.
 * Not shipped.
 */
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import type { z } from 'zod';
import { Problem } from '../wire/problem.js';

/** Why `body` is not exactly a `schema` value, or undefined when it is. */
export function wireMismatch(schema: z.ZodType, body: unknown): string | undefined {
  const parsed = schema.safeParse(body);
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
  // The schema strips what it does not know: anything it dropped was not part of the shape.
  if (!isDeepStrictEqual(parsed.data, body)) return `fields outside the schema: ${JSON.stringify(body)}`;
  return undefined;
}

export function expectShape(body: unknown, schema: z.ZodType, extra: readonly string[] = []): void {
  expect(body).toBeTypeOf('object');
  const rest = { ...(body as Record<string, unknown>) };
  for (const key of extra) {
    expect(rest, `missing ${key}`).toHaveProperty(key);
    delete rest[key];
  }
  expect(wireMismatch(schema, rest)).toBeUndefined();
}

interface DeclaredHeader {
  required?: boolean;
  schema?: { type?: string; format?: string };
}

interface Declared {
  method: string;
  path: RegExp;
  params: number;
  responses: Record<string, { content?: Record<string, { schema?: z.ZodType }>; headers?: Record<string, DeclaredHeader> }>;
}

/** Every operation's declared answers, from the routes that /openapi.json is generated from. */
export function declaredAnswers(definitions: readonly unknown[]): Declared[] {
  return definitions
    .filter((d): d is { type: 'route'; route: { method: string; path: string; responses: Declared['responses'] } } => (d as { type?: string }).type === 'route')
    .map(({ route }) => ({
      method: route.method.toUpperCase(),
      path: new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      params: route.path.split('{').length - 1,
      responses: route.responses,
    }));
}

/**
 * The operation a request reached: the path is the template's with the fewest parameters that takes
 * it (`/events/stream` before `/events/{eventId}`), whatever the method; none when that path has no
 * operation of this method (a 405).
 */
function routeOf(declared: readonly Declared[], method: string, path: string): Declared | undefined {
  const matching = declared.filter((d) => d.path.test(path));
  const fewest = Math.min(...matching.map((d) => d.params));
  return matching.find((d) => d.params === fewest && d.method === method);
}

/**
 * Why an answer's status is not one its operation declares (docs/api.md: Where the sandbox differs
 * from the service's document), or undefined when it is, or when no operation has this method and
 * path (an unknown route, or a known path and another method: 404 and 405, declared once for the
 * document rather than on an operation).
 */
export function statusMismatch(declared: readonly Declared[], method: string, path: string, status: number): string | undefined {
  // HEAD is answered as GET is.
  const route = routeOf(declared, method === 'HEAD' ? 'GET' : method, path);
  if (!route) return undefined;
  const codes = Object.keys(route.responses);
  if (codes.includes(String(status)) || codes.includes(`${String(status)[0]}XX`) || codes.includes('default')) return undefined;
  return `${method} ${path} answered ${status}, which its operation does not declare (it declares ${codes.join(', ')})`;
}

/** What frames a message rather than says something of the answer: never declared, as OpenAPI ignores `Content-Type` among an answer's headers. */
const FRAMING = new Set(['content-type', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/** What a header's value must look like, for the schemas the documents give headers. */
const valueMismatch = ({ schema }: DeclaredHeader, value: string): boolean =>
  (schema?.type === 'integer' && !/^\d+$/.test(value)) ||
  (schema?.format === 'uuid' && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value));

/**
 * Why an answer's headers are not those its operation declares for its status: one it sends that
 * is not declared, one declared `required` that it does not send, or a value that is not the
 * header's schema; undefined when they are, or when no operation has this method and path.
 */
export function headerMismatch(declared: readonly Declared[], method: string, path: string, status: number, headers: Headers): string | undefined {
  const route = routeOf(declared, method === 'HEAD' ? 'GET' : method, path);
  if (!route) return undefined;
  const { responses } = route;
  const named = Object.entries(responses[String(status)]?.headers ?? responses[`${String(status)[0]}XX`]?.headers ?? responses.default?.headers ?? {});
  const byName = new Map(named.map(([name, header]) => [name.toLowerCase(), header]));
  const problems = [
    ...[...headers.keys()].filter((name) => !FRAMING.has(name) && !byName.has(name)).map((name) => `sends ${name}, which it does not declare`),
    ...named.filter(([name, header]) => header.required && !headers.has(name)).map(([name]) => `does not send ${name}, which it declares required`),
    ...[...byName]
      .filter(([name, header]) => headers.has(name) && valueMismatch(header, headers.get(name)!))
      .map(([name]) => `sends ${name}: ${headers.get(name)}, not its schema`),
  ];
  return problems.length ? `${method} ${path} answered ${status}, and ${problems.join('; ')}` : undefined;
}

/**
 * Why an answer does not match what its route declares (or, for any problem+json answer, the
 * problem shape), or undefined when it does or nothing is declared for its status.
 */
export function answerMismatch(
  declared: readonly Declared[],
  method: string,
  path: string,
  status: number,
  contentType: string,
  text: string,
): string | undefined {
  if (!text) return undefined;
  const type = contentType.split(';')[0]!.trim();
  const route = routeOf(declared, method, path);
  const schema = type === 'application/problem+json' ? Problem : route?.responses[String(status)]?.content?.[type]?.schema;
  if (!schema) return undefined;
  const why = wireMismatch(schema, JSON.parse(text));
  return why && `${method} ${path} answered ${status} with a body that is not its declared shape: ${why}`;
}
