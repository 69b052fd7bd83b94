/**
 * The fuzzer's valid bodies (valid-bodies.ts) cover both documents: every operation of /openapi.json
 * and /_sandbox/openapi.json that takes a body has one, keyed by its operationId, so that no
 * operation is fuzzed from `{}`; each is what its document's schema describes, and its route reads
 * it without an `invalid_request` (a refusal may only be for the world's state, such as a stranger's
 * signature).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { createTestSandbox, type TestSandbox } from './harness.js';
import { buildWorld, type HostileWorld } from './hostile-world.js';
import { openApiSchemas } from './openapi-schemas.js';
import { operationsOf, VALID_BODIES, type Operation } from './valid-bodies.js';

describe('the hostile-input fuzzer’s valid bodies', () => {
  let sb: TestSandbox;
  let world: HostileWorld;
  let operations: Operation[];
  let schemas: Record<Operation['document'], ReturnType<typeof openApiSchemas>>;

  beforeAll(async () => {
    sb = createTestSandbox();
    const [api, control] = await Promise.all(
      ['/openapi.json', '/_sandbox/openapi.json'].map(async (url) => (await sb.json('GET', url, { token: false })).body),
    );
    operations = operationsOf(api, control);
    schemas = { api: openApiSchemas(api), control: openApiSchemas(control) };
    world = await buildWorld(sb);
  });

  test('every operation of either document that takes a body has one in src/testing/valid-bodies.ts, and each there names one', () => {
    const taking = operations.filter((op) => op.body !== undefined);
    expect(taking.length).toBeGreaterThanOrEqual(27);
    const missing = taking.filter((op) => !VALID_BODIES[op.operationId]).map((op) => `${op.operationId} (${op.route})`);
    expect(missing, 'add a valid body for each operation to VALID_BODIES in src/testing/valid-bodies.ts').toEqual([]);
    const stale = Object.keys(VALID_BODIES).filter((id) => !taking.some((op) => op.operationId === id));
    expect(stale, 'operations that take no body, or no longer exist').toEqual([]);
  });

  test('each body is what its schema describes, and its route reads it', async () => {
    const refused: string[] = [];
    for (const op of operations.filter((o) => o.body !== undefined)) {
      const body = VALID_BODIES[op.operationId]?.(world);
      if (!body) continue;
      const [method, route] = op.route.split(' ') as [string, string];
      if (op.body === 'application/json') refused.push(...schemas[op.document].request(method, op.path, body));
      const url = route.replace(/:(\w+)/g, (_, name: string) => world.ids[name]![0]!);
      const res = await sb.json(method, url, { body, headers: { 'Idempotency-Key': randomUUID() } });
      const { code, detail } = (res.body ?? {}) as { code?: string; detail?: string };
      if (res.status >= 500 || code === 'invalid_request') refused.push(`${op.route} ${res.status} ${code}: ${detail}`);
    }
    expect(refused).toEqual([]);
  });
});
