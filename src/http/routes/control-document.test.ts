import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../../testing/harness.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

async function documentOf(path: string) {
  const sb = createTestSandbox();
  const res = await sb.request('GET', path, { token: false });
  expect(res.status).toBe(200);
  return { sb, doc: (await res.json()) as { paths: Record<string, Record<string, any>>; components: any; security: unknown[] } };
}

describe('GET /_sandbox/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, as /openapi.json is', async () => {
    for (const path of ['/_sandbox/openapi.json', '/openapi.json']) {
      const { doc } = await documentOf(path);
      const result = await new Validator().validate(doc as never);
      expect(result.errors, path).toBeUndefined();
      expect(result.valid).toBe(true);
    }
  });

  it('lists every control route the sandbox answers, and no /v1 operation', async () => {
    const { sb, doc } = await documentOf('/_sandbox/openapi.json');
    const served = sb.app.routes
      .filter((r) => METHODS.has(r.method) && r.path.startsWith('/_sandbox/') && !/^\/_sandbox\/(ui|openapi\.json)/.test(r.path))
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect(new Set(served)).toEqual(new Set(documented));
    expect(documented.length).toBeGreaterThanOrEqual(45);
    expect(documented.filter((d) => d.includes(' /v1/'))).toEqual([]);
  });

  it('gives each operation an id, its answers, the admin token scheme, and Sandbox-Programme and ?programme= wherever a programme is acted on', async () => {
    const { doc } = await documentOf('/_sandbox/openapi.json');
    expect(doc.components.securitySchemes.adminToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{}, { adminToken: [] }]);
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
    expect(new Set(operations.map((o) => o.op.operationId)).size).toBe(operations.length);
    for (const { path, method, op } of operations) {
      expect(
        Object.keys(op.responses).some((s) => /^2/.test(s)),
        `${method} ${path}`,
      ).toBe(true);
      const named = (op.parameters ?? []).map((p: { $ref?: string }) => p.$ref).filter(Boolean);
      const programme = ['#/components/parameters/SandboxProgramme', '#/components/parameters/ProgrammeQuery'];
      // Every route acts on one programme, the mirrors too, but those that manage the programmes.
      expect(named, `${method} ${path}`).toEqual(path.startsWith('/_sandbox/programmes') ? [] : programme);
      if (!path.startsWith('/_sandbox/programmes')) expect(Object.keys(op.responses), `${method} ${path}`).toContain('404');
    }
    // The pattern the programme middleware checks: "default" or a UUID.
    for (const id of ['SandboxProgramme', 'ProgrammeQuery']) {
      const pattern = new RegExp(doc.components.parameters[id].schema.pattern);
      expect(['default', '5C0E8A1D-0000-4000-8000-000000000000'].every((v) => pattern.test(v)) && !['', 'Default', 'nope'].some((v) => pattern.test(v))).toBe(
        true,
      );
    }
    expect(doc.paths['/_sandbox/events/stream']!.get.responses['200'].content).toHaveProperty('text/event-stream');
    expect(doc.paths['/_sandbox/clock/advance']!.post.requestBody.content['application/json'].schema.properties).toHaveProperty('by');
  });

  it('gives every operation of both documents a summary of its own, which generated clients keep as its doc comment', async () => {
    for (const path of ['/openapi.json', '/_sandbox/openapi.json']) {
      const { doc } = await documentOf(path);
      const operations = Object.entries(doc.paths).flatMap(([at, item]) => Object.entries(item).map(([method, op]) => ({ at, method, op })));
      expect(operations.filter(({ op }) => !(typeof op.summary === 'string' && op.summary.trim())).map(({ at, method }) => `${method} ${at}`)).toEqual([]);
      const summaries = operations.map(({ op }) => op.summary as string);
      expect(
        summaries.filter((s, i) => summaries.indexOf(s) !== i),
        path,
      ).toEqual([]);
    }
  });

  it('is served without the admin token, which the routes it describes require', async () => {
    const sb = createTestSandbox({ adminToken: 'secret' });
    expect((await sb.request('GET', '/_sandbox/openapi.json', { token: false })).status).toBe(200);
    expect((await sb.request('GET', '/_sandbox/clock', { token: false })).status).toBe(401);
  });
});
